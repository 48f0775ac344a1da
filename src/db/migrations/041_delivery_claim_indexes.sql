-- Delivery queue indexes for the batched claim. Every claim and every completion moves a delivery
-- between statuses, and a status change is never a HOT update while status appears in partial
-- index predicates, so each index on deliveries is written on every state change: keep only those
-- a query uses.

-- The claim reads pending deliveries per subscription in schedule order (and expired claims from
-- deliveries_sub_in_flight): a pending-only index is one ordered scan that stops at the room left.
CREATE INDEX deliveries_sub_pending ON deliveries (subscription_id, next_attempt_at, id) WHERE status = 'pending';
DROP INDEX IF EXISTS deliveries_sub_due;
-- The global due index predates per-subscription claiming; nothing reads it any more.
DROP INDEX IF EXISTS deliveries_due;
