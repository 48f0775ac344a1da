-- Push-mirror id map: the wire ids a mirror sends for records whose own ids do not fit LegiScan's
-- column ranges (16-bit session/people/committee/subject, 24-bit bill/roll call/document ids).
-- One map per mirror (subscription 0 = the synchronous test push), allocated on first push from
-- the top of each range downward; LegiScan's own ids (records imported from LegiScan) pass through.
CREATE TABLE IF NOT EXISTS mirror_ids (
  subscription_id  bigint NOT NULL,
  kind             text NOT NULL,
  local_id         bigint NOT NULL,
  wire_id          int NOT NULL,
  PRIMARY KEY (subscription_id, kind, local_id),
  UNIQUE (subscription_id, kind, wire_id)
);

-- Svix-style disabling: the start of the current run of failed attempts (null after a success); a
-- subscription is disabled only when every attempt has failed for the whole disable window.
ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS failing_since timestamptz;
