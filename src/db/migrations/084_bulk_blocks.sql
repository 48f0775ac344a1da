-- Bulk files in blocks (src/bulk/blocks.ts): a jurisdiction's files are a head block (its
-- sessions, legislators, committees, hearings, subjects and candidates) and blocks of each
-- session's bills in bill_id order, each block its own gzip member and CSV deflate pieces. A build
-- renders again only the blocks whose bills changed (a past session's, never); the downloads
-- concatenate the blocks in order, as they already concatenate the jurisdictions.
ALTER TABLE bulk_files
  -- the block's session (0: the head block, and the nationwide scope's one file) and its bills in
  -- it: bill_from < bill_id <= bill_to (no bill_to: every later bill; bill_from -1: the head)
  ADD COLUMN session_id int NOT NULL DEFAULT 0,
  ADD COLUMN bill_from  int NOT NULL DEFAULT -1,
  ADD COLUMN bill_to    int;

DROP INDEX bulk_files_current;
CREATE UNIQUE INDEX bulk_files_current ON bulk_files (scope, format, part, session_id, bill_from) WHERE status = 'current';

-- the builder walks a session's bills in bill_id order, a block at a time
CREATE INDEX IF NOT EXISTS bills_session_bill ON bills (session_id, bill_id);
DROP INDEX IF EXISTS bills_state_bill;
