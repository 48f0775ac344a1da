-- Push-mirror ordering lanes: the pushes of one lane of a mirror (its bill pushes and the
-- documents and roll calls that follow them) are sent one at a time in queue order, so a receiver
-- never writes two of them at once (no deadlocks on MySQL's gap locks, no duplicate-key races);
-- person pushes (no lane) go beside them up to the mirror's in-flight cap. A push waiting for a
-- retry does not hold its lane. Webhook deliveries have no lane.
ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS lane int;
CREATE INDEX IF NOT EXISTS deliveries_lane_open ON deliveries (subscription_id, lane, id) WHERE status IN ('pending', 'in_flight') AND lane IS NOT NULL;

-- A bill push carries last_push, the time of the mirror's last successful push: one index probe
-- per push instead of a scan of every delivered row of the mirror (which grew with each push).
CREATE INDEX IF NOT EXISTS deliveries_sub_delivered ON deliveries (subscription_id, delivered_at) WHERE status = 'delivered';
