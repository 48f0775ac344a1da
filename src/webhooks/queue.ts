// The delivery queue in PostgreSQL: claim with FOR UPDATE SKIP LOCKED under a lease, complete
// with a fenced update (a worker whose lease expired and was re-claimed cannot overwrite the newer
// attempt's outcome), and the attempt log. Fairness: candidates are taken per subscription
// (LATERAL), at most `perSubscription` in flight each, so one subscriber's backlog or a hanging
// receiver never takes the slots of the others. Ordering: a delivery is not started while an
// earlier delivery for the same (subscription, bill) is still pending or in flight.
import { EventEmitter } from 'node:events';
import type { Queryable } from '../db/pool.js';

/** In-process wake-up between the dispatcher, the API (test, retry, recover) and the workers. */
export const queueEvents = new EventEmitter();
queueEvents.setMaxListeners(0);
export const wakeWorkers = () => queueEvents.emit('wake');

export interface ClaimedDelivery {
  id: number;
  public_id: string;
  subscription_id: number;
  change_id: number | null;
  event_type: string;
  bill_id: number | null;
  payload: Record<string, unknown>;
  target: Record<string, unknown> | null;
  attempts: number;
  is_test: boolean;
  attempt_base: number;
  created_at: Date;
  // subscription
  kind: 'webhook' | 'push_mirror';
  webhook_url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires: Date | null;
}

const DUE = `((d.status = 'pending' AND d.next_attempt_at <= now()) OR (d.status = 'in_flight' AND d.locked_until < now()))`;

export async function claimDue(db: Queryable, limit: number, perSubscription: number, leaseMs: number, onlyId?: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    `WITH cand AS (
       SELECT x.id, x.next_attempt_at FROM subscriptions s
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM deliveries d
         WHERE d.subscription_id = s.id AND ${DUE}
           AND ($4::bigint IS NULL OR d.id = $4)
           AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.subscription_id = d.subscription_id AND e.bill_id = d.bill_id
                           AND e.id < d.id AND e.status IN ('pending', 'in_flight'))
         ORDER BY d.next_attempt_at, d.id
         LIMIT greatest(0, $2 - (SELECT count(*) FROM deliveries f WHERE f.subscription_id = s.id AND f.status = 'in_flight' AND f.locked_until >= now()))
       ) x
       WHERE s.active AND s.deleted_at IS NULL
     ), pick AS (
       SELECT d.id FROM deliveries d JOIN cand ON cand.id = d.id
       ORDER BY cand.next_attempt_at, d.id
       LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE deliveries d SET status = 'in_flight', attempts = d.attempts + 1, locked_until = now() + make_interval(secs => $3::double precision / 1000)
     FROM pick, subscriptions s
     WHERE d.id = pick.id AND s.id = d.subscription_id AND ${DUE}
     RETURNING d.id, d.public_id, d.subscription_id, d.change_id, d.event_type, d.bill_id, d.payload, d.target, d.attempts, d.is_test, d.attempt_base, d.created_at,
               s.kind, s.webhook_url, s.secret, s.previous_secret, s.previous_secret_expires`,
    [limit, perSubscription, leaseMs, onlyId ?? null],
  );
  return rows;
}

export interface AttemptOutcome {
  status: 'delivered' | 'pending' | 'failed';
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string;
  nextAttemptAt: Date | null;
  /** deactivate the subscription with this reason */
  deactivate?: string;
}

/** Records one attempt and its outcome; returns false when the claim was lost (lease expired and re-claimed). */
export async function completeAttempt(db: Queryable, d: Pick<ClaimedDelivery, 'id' | 'attempts' | 'subscription_id'>, o: AttemptOutcome): Promise<boolean> {
  const { rows } = await db.query<{ fenced: boolean }>(
    `WITH upd AS (
       UPDATE deliveries SET status = $3, next_attempt_at = coalesce($4, next_attempt_at), locked_until = NULL,
         last_status_code = $5, last_error = $6, delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END
       WHERE id = $1 AND attempts = $2 AND status = 'in_flight'
       RETURNING id
     ), att AS (
       INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_excerpt, next_attempt_at)
       VALUES ($1, $2, $7, $8, $5, $6, $9, $4) ON CONFLICT (delivery_id, attempt) DO NOTHING
     ), sub AS (
       UPDATE subscriptions SET last_delivery_at = now(), last_delivery_status = $3, last_status_code = $5,
         active = CASE WHEN $10::text IS NOT NULL THEN false ELSE active END,
         deactivated_reason = CASE WHEN $10::text IS NOT NULL AND active THEN $10 ELSE deactivated_reason END,
         deactivated_at = CASE WHEN $10::text IS NOT NULL AND active THEN now() ELSE deactivated_at END,
         updated_at = CASE WHEN $10::text IS NOT NULL THEN now() ELSE updated_at END
       WHERE id = $11 AND EXISTS (SELECT 1 FROM upd)
         AND ($10::text IS NOT NULL OR last_delivery_status IS DISTINCT FROM $3 OR last_delivery_at IS NULL OR last_delivery_at < now() - interval '1 second')
     )
     SELECT EXISTS (SELECT 1 FROM upd) AS fenced`,
    [d.id, d.attempts, o.status, o.nextAttemptAt, o.statusCode, o.error, o.startedAt, o.durationMs, o.responseExcerpt.slice(0, 1024), o.deactivate ?? null, d.subscription_id],
  );
  return rows[0].fenced;
}

/** Seconds before attempt n+1 (n = attempts made so far), with ±10% jitter; undefined when exhausted. */
export function nextDelaySeconds(schedule: readonly number[], attemptsMade: number, random = Math.random): number | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  const base = schedule[attemptsMade];
  return base * (0.9 + 0.2 * random());
}

/** Retry-After in seconds (delta-seconds or an HTTP date), bounded to a day. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  let secs: number;
  if (/^\d+$/.test(v)) secs = Number(v);
  else {
    const t = Date.parse(v);
    if (Number.isNaN(t)) return undefined;
    secs = (t - now) / 1000;
  }
  return Math.min(Math.max(secs, 0), 86_400);
}
