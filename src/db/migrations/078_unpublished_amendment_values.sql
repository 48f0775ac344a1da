-- An amendment's adoption, document type and size are what its source publishes, or null: the
-- Congress bill files list amendments by number alone, and 0 (not adopted), 1 (text/html) and 0
-- bytes were values no source gave. Congress amendments already stored lose them.
ALTER TABLE amendments ALTER COLUMN adopted DROP NOT NULL, ALTER COLUMN adopted DROP DEFAULT,
  ALTER COLUMN amendment_mime_id DROP NOT NULL, ALTER COLUMN amendment_mime_id DROP DEFAULT,
  ALTER COLUMN amendment_size DROP NOT NULL, ALTER COLUMN amendment_size DROP DEFAULT;

UPDATE amendments a SET adopted = NULL, amendment_mime_id = NULL, amendment_size = NULL
  FROM bills b WHERE b.bill_id = a.bill_id AND b.source = 'congress';
