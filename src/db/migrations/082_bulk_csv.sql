-- Bulk CSV tables (src/bulk/csv.ts): beside each NDJSON file, one file per CSV table of the same
-- scope and snapshot. A CSV file holds the table's rows (no header) as raw deflate data ending in
-- a sync flush, so the files of several scopes concatenate into one deflate stream: the zip
-- downloads are laid out from them at request time (src/bulk/zip.ts), with the uncompressed size
-- and CRC-32 each file records.
ALTER TABLE bulk_files
  ADD COLUMN format   text NOT NULL DEFAULT 'ndjson' CHECK (format IN ('ndjson', 'csv')),
  -- the CSV table (e.g. bills, bill_sponsors); '' for NDJSON
  ADD COLUMN part     text NOT NULL DEFAULT '',
  -- CSV: bytes before compression, and their CRC-32
  ADD COLUMN raw_size bigint,
  ADD COLUMN crc32    bigint;

DROP INDEX bulk_files_current;
CREATE UNIQUE INDEX bulk_files_current ON bulk_files (scope, format, part) WHERE status = 'current';
