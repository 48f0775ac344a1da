// The delivery queue in PostgreSQL, completing side: outcomes are recorded with a fenced update (a
// worker whose lease expired and was re-claimed cannot overwrite the newer attempt's outcome),
// together with the attempt log and the subscription's health, in one statement per batch.
import { isDatabaseUnavailable } from '../../db/health.js';
import type { Queryable } from '../../db/pool.js';
import { DISABLE_AFTER_FAILING_MS, FAILING_REASON, type Disabled, type OnDisabled } from '../delivery/disable.js';
import type { ClaimedDelivery } from './claims.js';

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

/**
 * Delivers with their carrier the queued deliveries whose content its body carried. Recorded
 * before the carrier's own outcome, while they still wait behind it (the carrier is the first open
 * delivery of their bill), so no worker sends them in between; should the carrier's outcome then
 * be lost, the carrier is sent again, which carries the bill as it is then.
 */
export async function deliverCarried(db: Queryable, ids: number[], statusCode: number | null): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE deliveries SET status = 'delivered', delivered_at = now(), locked_until = NULL, last_status_code = $2, last_error = NULL
     WHERE id = ANY($1::bigint[]) AND status = 'pending'`,
    [ids, statusCode],
  );
}

export interface Completion {
  d: Pick<ClaimedDelivery, 'id' | 'attempts' | 'subscription_id'> & { is_test?: boolean };
  o: AttemptOutcome;
}

/**
 * Records attempts and their outcomes in one statement; returns the ids whose claim still held
 * (fenced: a claim that expired and was re-claimed by another worker does not overwrite it) and
 * the subscriptions that this batch disabled.
 */
export async function completeAttempts(
  db: Queryable,
  items: Completion[],
): Promise<{ fenced: Set<number>; disabled: Disabled[] }> {
  const col = <T>(f: (c: Completion) => T) => items.map(f);
  const { rows } = await db.query<{
    id: number;
    disabled_sub: number | null;
    public_id: string | null;
    reason: string | null;
    failing_since: Date | null;
  }>(
    `WITH input AS (
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::timestamptz[], $8::int[], $9::text[], $10::text[], $11::bigint[], $12::boolean[])
         AS t(id, attempt, status, next_at, code, error, started, dur, excerpt, deactivate, sub_id, is_test)
     ), upd AS (
       UPDATE deliveries d SET status = i.status, next_attempt_at = coalesce(i.next_at, d.next_attempt_at), locked_until = NULL,
         last_status_code = i.code, last_error = i.error, delivered_at = CASE WHEN i.status = 'delivered' THEN now() ELSE d.delivered_at END
       FROM input i WHERE d.id = i.id AND d.attempts = i.attempt AND d.status = 'in_flight'
       RETURNING d.id
     ), att AS (
       INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_excerpt, next_attempt_at)
       SELECT id, attempt, started, dur, code, error, excerpt, next_at FROM input ON CONFLICT (delivery_id, attempt) DO NOTHING
     ), done AS (
       SELECT i.* FROM input i JOIN upd ON upd.id = i.id
     ), ok AS (
       -- the batch's last success and the first failure after it, per subscription (tests excluded)
       SELECT sub_id, max(started) FILTER (WHERE status = 'delivered') AS ok_at FROM done WHERE NOT is_test GROUP BY sub_id
     ), run AS (
       SELECT ok.sub_id, ok.ok_at, min(done.started) FILTER (WHERE done.status <> 'delivered' AND (ok.ok_at IS NULL OR done.started > ok.ok_at)) AS fail_from
       FROM ok JOIN done ON done.sub_id = ok.sub_id AND NOT done.is_test GROUP BY ok.sub_id, ok.ok_at
     ), last AS (
       SELECT DISTINCT ON (i.sub_id) i.sub_id, i.status, i.code, i.deactivate, run.ok_at, run.fail_from FROM done i LEFT JOIN run ON run.sub_id = i.sub_id
       ORDER BY i.sub_id, (i.deactivate IS NOT NULL) DESC, i.started DESC
     ), next AS (
       SELECT l.*, s.active AS was_active,
         CASE WHEN l.ok_at IS NULL AND l.fail_from IS NULL THEN s.failing_since           -- only test deliveries
              WHEN l.fail_from IS NULL THEN NULL                                           -- ends with a success
              WHEN l.ok_at IS NOT NULL THEN l.fail_from
              ELSE coalesce(s.failing_since, l.fail_from) END AS failing_since
       FROM last l JOIN subscriptions s ON s.id = l.sub_id
     ), decided AS (
       SELECT n.*, coalesce(n.deactivate, CASE WHEN n.failing_since < now() - make_interval(secs => $13::double precision / 1000) THEN '${FAILING_REASON}' END) AS off
       FROM next n
     ), sub AS (
       UPDATE subscriptions s SET last_delivery_at = now(), last_delivery_status = l.status, last_status_code = l.code, failing_since = l.failing_since,
         active = CASE WHEN l.off IS NOT NULL THEN false ELSE s.active END,
         deactivated_reason = CASE WHEN l.off IS NOT NULL AND s.active THEN l.off ELSE s.deactivated_reason END,
         deactivated_at = CASE WHEN l.off IS NOT NULL AND s.active THEN now() ELSE s.deactivated_at END,
         updated_at = CASE WHEN l.off IS NOT NULL THEN now() ELSE s.updated_at END
       FROM decided l
       WHERE s.id = l.sub_id
         AND ((l.off IS NOT NULL AND s.active) OR s.last_delivery_status IS DISTINCT FROM l.status OR s.last_delivery_at IS NULL OR s.last_delivery_at < now() - interval '1 second'
              OR s.failing_since IS DISTINCT FROM l.failing_since)
       RETURNING s.id, s.public_id, l.off, l.failing_since, l.was_active
     )
     SELECT id, NULL::bigint AS disabled_sub, NULL AS public_id, NULL AS reason, NULL::timestamptz AS failing_since FROM upd
     UNION ALL
     SELECT NULL, id, public_id, off, failing_since FROM sub WHERE off IS NOT NULL AND was_active`,
    [
      col((c) => c.d.id),
      col((c) => c.d.attempts),
      col((c) => c.o.status),
      col((c) => c.o.nextAttemptAt),
      col((c) => c.o.statusCode),
      col((c) => c.o.error),
      col((c) => c.o.startedAt),
      col((c) => c.o.durationMs),
      col((c) => c.o.responseExcerpt.slice(0, 1024)),
      col((c) => c.o.deactivate ?? null),
      col((c) => c.d.subscription_id),
      col((c) => c.d.is_test ?? false),
      DISABLE_AFTER_FAILING_MS,
    ],
  );
  return {
    fenced: new Set(rows.filter((r) => r.id !== null).map((r) => Number(r.id))),
    disabled: rows
      .filter((r) => r.disabled_sub !== null)
      .map((r) => ({ subscription_id: Number(r.disabled_sub), reason: r.reason!, failing_since: r.failing_since })),
  };
}

export async function completeAttempt(
  db: Queryable,
  d: Completion['d'],
  o: AttemptOutcome,
  onDisabled?: OnDisabled,
): Promise<boolean> {
  const r = await completeAttempts(db, [{ d, o }]);
  if (r.disabled.length > 0) onDisabled?.(r.disabled);
  return r.fenced.has(Number(d.id));
}

/** Retries of an outcome statement while the database is unreachable: about 10 s. */
const OUTAGE_RETRIES = 20;
const OUTAGE_RETRY_MS = 500;

/**
 * Group commit for the outcomes of concurrent requests: one statement records a whole batch. A
 * batch goes out `delayMs` after its first outcome, or at once when `max` are waiting; while one
 * statement runs the next batch gathers, so under load batches grow instead of statements
 * queueing up (and a worker's own statements never wait on each other's row locks). A failed
 * statement (deadlock) is retried once, one that failed because the database is unreachable for
 * about 10 s, then the failure is reported to every waiter.
 */
export class CompletionBatcher {
  private queue: { c: Completion; resolve: (fenced: boolean) => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** statements sent and outcomes recorded, for the benchmark's cost per delivery */
  readonly stats = { statements: 0, outcomes: 0 };
  constructor(
    private readonly db: Queryable,
    private readonly max = 256,
    private readonly delayMs = 4,
    /** called after each recorded batch: the subscriptions' in-flight room has grown */
    private readonly onFlushed?: () => void,
    private readonly onDisabled?: OnDisabled,
  ) {}

  complete(d: Completion['d'], o: AttemptOutcome): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ c: { d, o }, resolve, reject });
      if (this.running) return;
      if (this.queue.length >= this.max) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
  }

  /** Records everything waiting, including what arrives while it runs. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      // an outcome that arrived after the last batch left but before this ran found a flush running
      if (this.queue.length > 0) this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.max);
      // one row per delivery and statement (a delivery cannot be completed twice in one statement)
      batch.sort((a, b) => a.c.d.subscription_id - b.c.d.subscription_id || a.c.d.id - b.c.d.id);
      let fenced: Set<number> | undefined;
      let error: unknown;
      for (let i = 0; !fenced; i++) {
        try {
          this.stats.statements++;
          const r = await completeAttempts(
            this.db,
            batch.map((b) => b.c),
          );
          fenced = r.fenced;
          if (r.disabled.length > 0) this.onDisabled?.(r.disabled);
        } catch (err) {
          error = err;
          // The database restarting: these requests were sent, so keep their outcomes and retry
          // for a while rather than let the leases expire and the receivers get them again.
          const outage = isDatabaseUnavailable(err) && i < OUTAGE_RETRIES;
          if (i >= 1 && !outage) break;
          if (outage) await new Promise((r) => setTimeout(r, OUTAGE_RETRY_MS));
        }
      }
      if (fenced) this.stats.outcomes += batch.length;
      for (const b of batch) {
        if (fenced) b.resolve(fenced.has(Number(b.c.d.id)));
        else b.reject(error);
      }
      this.onFlushed?.();
    }
  }
}

/** Seconds before attempt n+1 (n = attempts made so far), with ±10% jitter; undefined when exhausted. */
export function nextDelaySeconds(
  schedule: readonly number[],
  attemptsMade: number,
  random = Math.random,
): number | undefined {
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
