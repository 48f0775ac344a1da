-- Realtime core: the relay's publish cursor and the simulator's id range.

-- Stamped changes up to this seq have been accepted by the bus. After a bus outage or a relay
-- failover, publishing resumes from here (at-least-once on the bus; consumers dedupe by
-- change id / changed_at).
ALTER TABLE relay_state ADD COLUMN published_seq bigint NOT NULL DEFAULT 0;

-- Ids of rows created by `lds simulate`: from 50,000,000, between the demo corpus (10,000,000+)
-- and importer-allocated ids (100,000,000+), so simulated rows never collide with either.
CREATE SEQUENCE simulator_ids START 50000000 MAXVALUE 99999999;
