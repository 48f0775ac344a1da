// The delivery queue in PostgreSQL, claiming side: claim with FOR UPDATE SKIP LOCKED under a
// lease. Fairness: candidates are taken per subscription (LATERAL), at most `perSubscription` in
// flight each, so one subscriber's backlog or a hanging receiver never takes the slots of the
// others. Ordering: a delivery is not started while an earlier delivery for the same
// (subscription, bill) is still pending or in flight. A push-mirror lane (a mirror's bill pushes
// and the documents and roll calls that follow them) is claimed as a run: when nothing of the lane
// is in flight, its first ready deliveries (up to the subscription's room, one per bill) go to one
// worker in one statement, and that worker sends them one at a time in id order (worker.ts), so
// the receiver still sees one at a time while the database is asked once per run rather than
// between every two pushes. A delivery waiting for a retry does not hold its lane. Outcomes are
// recorded by outcomes.ts.
import type { Queryable } from '../../db/pool.js';

export interface ClaimedDelivery {
  id: number;
  public_id: string;
  subscription_id: number;
  change_id: number | null;
  event_type: string;
  bill_id: number | null;
  lane: number | null;
  /** the stored payload as JSON text: webhook bodies are sent as stored, never re-serialised */
  payload_text: string;
  target: Record<string, unknown> | null;
  attempts: number;
  is_test: boolean;
  attempt_base: number;
  created_at: Date;
  // subscription
  kind: string;
  webhook_url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires: Date | null;
}

const DUE = `((d.status = 'pending' AND d.next_attempt_at <= now()) OR (d.status = 'in_flight' AND d.locked_until < now()))`;
/** Due, or a never-tried lane delivery (a run takes those whatever their schedule says). */
const DUE_OR_RUN = `(${DUE} OR (d.status = 'pending' AND d.lane IS NOT NULL AND d.attempts = d.attempt_base))`;

/** Most deliveries of a push-mirror lane one claim takes (sent one at a time, rendered ahead). */
export const LANE_RUN = 32;

/**
 * Claims up to `limit` due deliveries in one statement. Per subscription at most `perSubscription`
 * are in flight (claimed and not completed, across all workers), taken in (next_attempt_at, id)
 * order; a delivery is only taken when it is the oldest open one of its (subscription, bill) pair.
 * That check is written as "the first open id of the pair is mine" so that it is always one probe
 * of deliveries_pair_open, whatever the statistics say (an anti-join planned on stale statistics
 * scanned every open delivery of the subscription per candidate).
 */
export async function claimDue(
  db: Queryable,
  limit: number,
  perSubscription: number,
  leaseMs: number,
  onlyId?: number,
  laneRun = LANE_RUN,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    `WITH subs AS MATERIALIZED (
       -- room: the cap counts what can be on the wire at once; a lane's run sends one at a time
       SELECT s.id, $2::int - (SELECT count(*) FROM deliveries f WHERE f.subscription_id = s.id AND f.status = 'in_flight' AND f.locked_until >= now() AND f.lane IS NULL)::int AS room
       FROM subscriptions s
       WHERE s.active AND s.deleted_at IS NULL AND ($4::bigint IS NULL OR s.id = (SELECT o.subscription_id FROM deliveries o WHERE o.id = $4))
     ), cand AS (
       SELECT x.id, x.next_attempt_at FROM subs
       CROSS JOIN LATERAL (
         -- expired claims first (their worker died), then pending ones in schedule order, then a
         -- lane's run; separate branches, not one OR, so each is an ordered index scan that stops
         -- at the room left
         (SELECT d.id, d.next_attempt_at FROM deliveries d
          WHERE d.subscription_id = subs.id AND d.status = 'in_flight' AND d.locked_until < now() AND ($4::bigint IS NULL OR d.id = $4)
          ORDER BY d.locked_until LIMIT greatest(0, subs.room))
         UNION ALL
         (SELECT d.id, d.next_attempt_at FROM deliveries d
          WHERE d.subscription_id = subs.id AND d.status = 'pending' AND d.next_attempt_at <= now() AND ($4::bigint IS NULL OR d.id = $4) AND d.lane IS NULL
            AND (d.bill_id IS NULL OR d.id = (SELECT e.id FROM deliveries e WHERE e.subscription_id = d.subscription_id AND e.bill_id = d.bill_id
                                              AND e.status IN ('pending', 'in_flight') ORDER BY e.id LIMIT 1))
          ORDER BY d.next_attempt_at, d.id LIMIT greatest(0, subs.room))
         UNION ALL
         -- a lane is claimed as a run: nothing of it in flight, and its first deliveries that are
         -- ready (due or never tried, and first of their bill), in id order
         (SELECT d.id, d.next_attempt_at FROM deliveries d
          WHERE d.subscription_id = subs.id AND d.status = 'pending' AND d.lane IS NOT NULL AND ($4::bigint IS NULL OR d.id = $4)
            AND (d.next_attempt_at <= now() OR d.attempts = d.attempt_base)
            AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.subscription_id = d.subscription_id AND e.lane = d.lane AND e.status = 'in_flight')
            AND (d.bill_id IS NULL OR d.id = (SELECT e.id FROM deliveries e WHERE e.subscription_id = d.subscription_id AND e.bill_id = d.bill_id
                                              AND e.status IN ('pending', 'in_flight') ORDER BY e.id LIMIT 1))
          ORDER BY d.id LIMIT $5)
       ) x
     ), pick AS (
       SELECT d.id FROM deliveries d JOIN cand ON cand.id = d.id
       ORDER BY cand.next_attempt_at, d.id
       LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE deliveries d SET status = 'in_flight', attempts = d.attempts + 1, locked_until = now() + make_interval(secs => $3::double precision / 1000)
     FROM pick, subscriptions s
     WHERE d.id = pick.id AND s.id = d.subscription_id AND ${DUE_OR_RUN}
     RETURNING d.id, d.public_id, d.subscription_id, d.change_id, d.event_type, d.bill_id, d.lane, d.payload::text AS payload_text, d.target, d.attempts, d.is_test, d.attempt_base, d.created_at,
               s.kind, s.webhook_url, s.secret, s.previous_secret, s.previous_secret_expires`,
    [limit, perSubscription, leaseMs, onlyId ?? null, laneRun],
  );
  return rows;
}

/**
 * Gives back claims that were never attempted (a worker stopping, or a claim that waited too long
 * in a worker's local queue to finish within its lease): pending again, attempt count restored.
 */
export async function releaseClaims(db: Queryable, items: Pick<ClaimedDelivery, 'id' | 'attempts'>[]): Promise<void> {
  if (items.length === 0) return;
  await db.query(
    `UPDATE deliveries d SET status = 'pending', attempts = d.attempts - 1, locked_until = NULL
     FROM unnest($1::bigint[], $2::int[]) AS r(id, attempt)
     WHERE d.id = r.id AND d.attempts = r.attempt AND d.status = 'in_flight'`,
    [items.map((i) => i.id), items.map((i) => i.attempts)],
  );
}
