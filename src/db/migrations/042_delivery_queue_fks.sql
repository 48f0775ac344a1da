-- The delivery queue's foreign keys cost about as much as the rows they guard: every fan-out row
-- ran a key-share lookup of its subscription and every attempt-log row one of its delivery (half
-- of a 1,000-row fan-out insert's time). Neither parent is ever deleted: subscriptions are
-- soft-deleted (deleted_at; their open deliveries cancelled) so the attempt log stays readable,
-- and deliveries are never deleted. Only the queue code writes these tables, always with ids it
-- has just read, so the constraints guarded nothing in practice. A future retention job must
-- delete attempts with their deliveries, and deliveries with their subscriptions, itself.
ALTER TABLE deliveries DROP CONSTRAINT IF EXISTS deliveries_subscription_id_fkey;
ALTER TABLE delivery_attempts DROP CONSTRAINT IF EXISTS delivery_attempts_delivery_id_fkey;
