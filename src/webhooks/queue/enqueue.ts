// The one way deliveries enter the queue (dispatcher, test calls, a push-mirror receiver's
// `missing` requests), and the wake-up that tells workers in every process about them: a
// PostgreSQL notification on DELIVERY_CHANNEL, sent in the inserting statement, so it reaches the
// listeners only when the rows are committed (as graphile-worker does). Workers also poll slowly,
// so a notification lost while a listener reconnects delays a delivery, never loses it.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/pool.js';

export const DELIVERY_CHANNEL = 'lds_deliveries';

export const newMessageId = () => 'msg_' + randomBytes(15).toString('base64url');

export interface NewDelivery {
  subscription_id: number;
  /** null for deliveries no change caused (test calls) */
  change_id: number | null;
  event_type: string;
  bill_id: number | null;
  /** JSON text, stored as sent (a change's payload for one event type is the same for every subscription) */
  payload: string;
  /** what a push-mirror renders; null for webhooks */
  target: unknown;
  is_test?: boolean;
  /** the webhook-id; a new one when omitted */
  public_id?: string;
  /** push-mirror ordering lane (claims.ts): one delivery of a lane in flight at a time */
  lane?: number | null;
}

export interface EnqueueOptions {
  /** notify the workers (default); off for a test call, which claims and sends its row itself */
  wake?: boolean;
}

/**
 * Inserts deliveries, skipping any (subscription, change, event type) already queued, and wakes
 * the workers when at least one row was new. Returns the new rows' ids.
 */
export async function enqueueDeliveries(
  db: Queryable,
  rows: NewDelivery[],
  opts: EnqueueOptions = {},
): Promise<{ id: number; public_id: string }[]> {
  if (rows.length === 0) return [];
  const { rows: created } = await db.query<{ id: number; public_id: string; notified: number }>(
    `WITH ins AS (
       INSERT INTO deliveries (public_id, subscription_id, change_id, event_type, bill_id, payload, target, is_test, lane)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[], $8::boolean[], $11::int[])
       ON CONFLICT (subscription_id, change_id, event_type) DO NOTHING
       RETURNING id, public_id
     ), woken AS (
       -- one notification when anything was inserted; its count is selected below so the planner
       -- cannot drop this CTE as unused
       SELECT count(x) AS n FROM (SELECT pg_notify($9, '')::text AS x FROM (SELECT 1 FROM ins LIMIT 1) one WHERE $10::boolean) z
     )
     SELECT ins.id, ins.public_id, woken.n AS notified FROM ins CROSS JOIN woken`,
    [
      rows.map((r) => r.public_id ?? newMessageId()),
      rows.map((r) => r.subscription_id),
      rows.map((r) => r.change_id),
      rows.map((r) => r.event_type),
      rows.map((r) => r.bill_id),
      rows.map((r) => r.payload),
      rows.map((r) => (r.target === null || r.target === undefined ? null : JSON.stringify(r.target))),
      rows.map((r) => r.is_test ?? false),
      DELIVERY_CHANNEL,
      opts.wake ?? true,
      rows.map((r) => r.lane ?? null),
    ],
  );
  return created.map((r) => ({ id: r.id, public_id: r.public_id }));
}

/** Wakes the workers of every process (after a replay or recover made deliveries due). */
export async function notifyWorkers(db: Queryable): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [DELIVERY_CHANNEL, '']);
}
