-- Read API and text diff worker.

-- The diff worker discovers new text versions by a cursor on (created, text_id).
CREATE INDEX IF NOT EXISTS bill_texts_created ON bill_texts (created, text_id);

-- Where the diff worker's discovery stopped, so a restart does not rescan every text.
CREATE TABLE IF NOT EXISTS text_diff_cursor (
  id          smallint PRIMARY KEY CHECK (id = 1),
  created     timestamptz NOT NULL DEFAULT '1970-01-01T00:00:00Z',
  text_id     int NOT NULL DEFAULT 0
);
INSERT INTO text_diff_cursor (id) VALUES (1) ON CONFLICT DO NOTHING;

-- Roll-call details ordered by surname, and a legislator's votes newest first.
CREATE INDEX IF NOT EXISTS roll_calls_date ON roll_calls (vote_date DESC, roll_call_id DESC);
