-- Bulk snapshots (src/bulk): gzip-compressed NDJSON per jurisdiction, stored in PostgreSQL so every
-- replica serves them with no shared volume. A file is a row of bulk_files and its bytes in
-- fixed-size chunks (the last one shorter), so a Range request reads only the chunks it needs.
CREATE TABLE bulk_files (
  file_id       bigserial PRIMARY KEY,
  -- a jurisdiction code, or 'global' (nationwide records: topics)
  scope         text NOT NULL,
  -- building -> current -> superseded (kept a while for downloads in progress, then deleted)
  status        text NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'current', 'superseded')),
  -- the change-feed position (ISO 8601, microseconds) of the snapshot the content equals; moved
  -- forward when a later snapshot finds the jurisdiction unchanged
  feed_cursor   text,
  -- when the snapshot whose cursor this is was taken
  generated_at  timestamptz,
  -- when these bytes were written
  built_at      timestamptz NOT NULL DEFAULT now(),
  -- what the next build compares to decide whether the jurisdiction changed
  signature     text NOT NULL DEFAULT '',
  size          bigint NOT NULL DEFAULT 0,
  counts        jsonb NOT NULL DEFAULT '{}',
  superseded_at timestamptz
);
CREATE UNIQUE INDEX bulk_files_current ON bulk_files (scope) WHERE status = 'current';

CREATE TABLE bulk_chunks (
  file_id bigint NOT NULL REFERENCES bulk_files ON DELETE CASCADE,
  n       int NOT NULL,
  data    bytea NOT NULL,
  PRIMARY KEY (file_id, n)
);
-- the bytes are gzip already: no second compression attempt by TOAST
ALTER TABLE bulk_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- the bulk builder walks a jurisdiction's bills in bill_id order, a page at a time
CREATE INDEX IF NOT EXISTS bills_state_bill ON bills (state_id, bill_id);
