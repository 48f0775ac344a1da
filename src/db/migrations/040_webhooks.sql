-- Webhook and push-mirror delivery state beyond 001_schema.sql.

-- The dispatcher's cursor over the change log: every change with seq <= last_seq has been turned
-- into delivery rows (advanced in the same transaction as the inserts).
CREATE TABLE dispatcher_state (
  id          smallint PRIMARY KEY CHECK (id = 1),
  last_seq    bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO dispatcher_state (id) VALUES (1);

ALTER TABLE subscriptions
  ADD COLUMN deactivated_at        timestamptz,
  ADD COLUMN last_delivery_at      timestamptz,
  ADD COLUMN last_delivery_status  text,
  ADD COLUMN last_status_code      int;

-- Test deliveries get one attempt and never deactivate the subscription. A replay (retry,
-- recover) keeps the attempt numbering and restarts the schedule from attempt_base.
ALTER TABLE deliveries ADD COLUMN is_test boolean NOT NULL DEFAULT false;
ALTER TABLE deliveries ADD COLUMN attempt_base int NOT NULL DEFAULT 0;
-- For push-mirror deliveries: which LegiScan root this delivery renders (bill, roll_call, person).
ALTER TABLE deliveries ADD COLUMN target jsonb;

-- Per (subscription, bill) ordering: "is an earlier delivery for this pair still open?"
CREATE INDEX deliveries_pair_open ON deliveries (subscription_id, bill_id, id) WHERE status IN ('pending', 'in_flight');
CREATE INDEX deliveries_failed ON deliveries (subscription_id, created_at) WHERE status = 'failed';
CREATE INDEX subscriptions_org ON subscriptions (org_name, created_at) WHERE deleted_at IS NULL;
-- The claim's per-subscription scan of due deliveries.
CREATE INDEX deliveries_sub_due ON deliveries (subscription_id, next_attempt_at, id) WHERE status IN ('pending', 'in_flight');
-- "How many deliveries of this subscription are in flight?" without visiting its whole backlog.
CREATE INDEX deliveries_sub_in_flight ON deliveries (subscription_id, locked_until) WHERE status = 'in_flight';
