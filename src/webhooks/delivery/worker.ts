// Delivery workers: claim due deliveries (SKIP LOCKED, under a lease) and POST them. Any number of
// worker processes can run; a claim whose worker dies expires after timeout + margin and another
// worker retries it with the same webhook-id (at-least-once, idempotent by webhook-id).
//
// Round trips, not HTTP, bound a worker's throughput, so both ends are batched and pipelined:
// claims take up to `concurrency + prefetch` deliveries in one statement into a local queue, and
// the next claim is sent while requests are still in flight (when the queue runs low, when a
// batch of outcomes has been recorded and so freed room, on a wake-up and on the poll), so HTTP
// slots never wait for the database; outcomes are recorded by group commit (CompletionBatcher).
// The per-subscription cap is enforced by the claim across all workers: a subscription never has
// more than `perSubscription` deliveries claimed, queued locally or in flight, so one slow
// subscriber holds at most that many of a worker's slots and never delays the others.
//
// Wake-ups: a PostgreSQL notification (queue/enqueue.ts) wakes the workers of every process when
// deliveries are queued, replayed or recovered; a retry this worker scheduled wakes it at its time;
// a slow safety poll covers what neither announces (an expired lease of a dead worker, a
// notification lost while the listener reconnected).
import type { Background, BackgroundContext } from '../../background.js';
import { retryLog } from '../../db/health.js';
import { attemptDelivery, type DeliveryContext } from './attempt.js';
import type { Outbound } from './outbound.js';
import { logDisabled } from './disable.js';
import { listen } from '../../db/listen.js';
import { claimDue, releaseClaims, type ClaimedDelivery } from '../queue/claims.js';
import { DELIVERY_CHANNEL } from '../queue/enqueue.js';
import { CompletionBatcher, type AttemptOutcome } from '../queue/outcomes.js';
import type { DeliveryKinds, Rendered } from './kinds.js';
import { DueTimer } from '../../jobs/due-timer.js';

/** Deliveries claimed per subscription (all workers together): a hanging receiver holds at most these. */
export const PER_SUBSCRIPTION = 8;
/** Lease beyond the request timeout before another worker may take the delivery over. */
export const LEASE_MARGIN_MS = 15_000;

/** The safety poll: notifications and retry timers do the waking; this only bounds what they miss. */
export const SAFETY_POLL_MS = 2000;
const RETRY_WAKE_SLACK_MS = 5;
const MAX_RETRY_TIMERS = 10_000;

export interface WorkerOptions {
  pollMs?: number;
  concurrency?: number;
  perSubscription?: number;
  /** deliveries claimed ahead of free HTTP slots (default: concurrency) */
  prefetch?: number;
  leaseMarginMs?: number;
}

export interface DeliveryWorker extends Background {
  readonly inFlight: number;
  /** claim and completion statements sent, deliveries claimed and outcomes recorded so far */
  readonly stats: { claims: number; claimed: number; completions: number; recorded: number; released: number };
}

/** Pushes of one lane rendered ahead of the one being sent. */
const RENDER_AHEAD = 4;

const laneKey = (d: ClaimedDelivery): string | undefined =>
  d.lane === null ? undefined : `${d.subscription_id}:${d.lane}`;

interface Queued {
  d: ClaimedDelivery;
  claimedAt: number;
  /** a lane delivery's body, rendered while the pushes before it are sent */
  rendered?: Promise<Rendered>;
}

/**
 * What a delivery worker needs of the process: the pool, its own session for NOTIFY, the settings,
 * the kinds it sends and the process's outbound HTTP (connections per subscription, each its own
 * pool; the claim bounds its requests in flight). The process root owns and closes the outbound.
 */
export type WorkerDeps = Pick<BackgroundContext, 'db' | 'log' | 'config' | 'databaseUrl'> & {
  kinds: DeliveryKinds;
  outbound: Outbound;
};

export async function startDeliveryWorker(ctx: WorkerDeps, opts: WorkerOptions = {}): Promise<DeliveryWorker> {
  const { config, db, log, databaseUrl, kinds, outbound } = ctx;
  const concurrency = opts.concurrency ?? config.workerConcurrency;
  const perSub = opts.perSubscription ?? PER_SUBSCRIPTION;
  const prefetch = opts.prefetch ?? concurrency;
  const leaseMs = config.webhookTimeoutMs + (opts.leaseMarginMs ?? LEASE_MARGIN_MS);
  // A queued claim must still have a whole request timeout (and a second) left on its lease.
  const maxQueueWaitMs = Math.max(0, leaseMs - config.webhookTimeoutMs - 1000);
  const pollMs = opts.pollMs ?? SAFETY_POLL_MS;
  // Claim in batches: a claim for every finished request would double the statements per delivery.
  const minClaim = Math.max(1, Math.floor((concurrency + prefetch) / 8));
  let running = true;
  const stats = { claims: 0, claimed: 0, completions: 0, recorded: 0, released: 0 };
  const queue: Queued[] = [];
  let inFlight = 0;
  /** push-mirror lanes with a push of this worker in flight */
  const lanesBusy = new Set<string>();
  const recording = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  // The last claim found less than it asked for: claim again only on a trigger, not in a spin.
  let drained = false;
  // a database outage fails every poll's claim: one warning, not four a second
  const claimFailures = retryLog(log, 'delivery claim failed; retrying on the next poll');
  // A wake-up while a claim runs: that claim's snapshot may predate what woke us, so claim again
  // after it instead of letting its empty answer mark the queue drained.
  let wokenDuringClaim = false;
  const trigger = () => {
    drained = false;
    if (claiming) wokenDuringClaim = true;
    pump();
  };
  // Retries announce nothing: a timer wakes this worker when the earliest retry it scheduled is
  // due; beyond MAX_RETRY_TIMERS pending retries the safety poll picks the rest up.
  const retryWake = new DueTimer(trigger, { max: MAX_RETRY_TIMERS, slackMs: RETRY_WAKE_SLACK_MS, unref: true });
  const batcher = new CompletionBatcher(db, 256, 4, trigger, (off) => logDisabled(log, off));
  const complete = (d: ClaimedDelivery, o: AttemptOutcome) => {
    if (o.status === 'pending' && o.nextAttemptAt) retryWake.add(o.nextAttemptAt.getTime());
    return batcher.complete(d, o);
  };
  const dctx: DeliveryContext = { db, config, outbound, kinds, log, complete };
  const listener = listen(databaseUrl, DELIVERY_CHANNEL, trigger, log);
  const poll = setInterval(trigger, pollMs);

  function pump(): void {
    if (!running) return;
    const stale: Queued[] = [];
    // Recording is bounded too: outcomes waiting for the database hold memory, not slots.
    // A push-mirror lane's run waits in the queue in id order and goes one at a time: the next
    // starts when the one before it has its answer (claims.ts).
    for (let i = 0; i < queue.length && inFlight < concurrency && recording.size < 2 * concurrency;) {
      const q = queue[i]!;
      const key = laneKey(q.d);
      if (Date.now() - q.claimedAt > maxQueueWaitMs) stale.push(...queue.splice(i, 1));
      else if (key !== undefined && lanesBusy.has(key)) i++;
      else {
        queue.splice(i, 1);
        start(q, key);
      }
    }
    if (stale.length > 0) release(stale.map((q) => q.d));
    renderAhead();
    claimMore();
  }

  // The pushes of a lane's run are sent one at a time, but rendering them (a dozen reads and the
  // wire id map) need not wait: the next RENDER_AHEAD of each lane are rendered while the one
  // before them is sent, so the receiver's turn-around, not the render, bounds a lane. The body is
  // as of a moment after the claim, which follows the commit of the change that queued it; a
  // change made after that queues a push of its own.
  function renderAhead(): void {
    const ahead = new Map<string, number>();
    for (const q of queue) {
      const key = laneKey(q.d);
      if (key === undefined) continue;
      const n = ahead.get(key) ?? 0;
      if (n >= RENDER_AHEAD) continue;
      ahead.set(key, n + 1);
      const handler = q.rendered ? undefined : kinds.get(q.d.kind);
      if (!handler) continue;
      q.rendered = handler.render(db, q.d, config);
      q.rendered.catch(() => undefined); // the failure is reported by the attempt that awaits it
    }
  }

  function claimMore(): void {
    if (!running || claiming || drained) return;
    const want = concurrency + prefetch - inFlight - queue.length;
    if (want < minClaim) return;
    stats.claims++;
    claiming = claimDue(db, want, perSub, leaseMs)
      .then((rows) => {
        const now = Date.now();
        claimFailures.ok();
        stats.claimed += rows.length;
        // id order: a lane's run is sent in the order it was queued
        for (const d of rows.sort((a, b) => Number(a.id) - Number(b.id))) queue.push({ d, claimedAt: now });
        if (rows.length < want) drained = true;
      })
      .catch((err) => {
        if (running) claimFailures.failed(err);
        drained = true;
      })
      .finally(() => {
        claiming = undefined;
        if (wokenDuringClaim) {
          wokenDuringClaim = false;
          drained = false;
        }
        pump();
      });
  }

  function start({ d, rendered }: Queued, lane: string | undefined): void {
    inFlight++;
    if (lane !== undefined) lanesBusy.add(lane);
    let released = false;
    const free = () => {
      if (released) return;
      released = true;
      inFlight--;
      if (lane !== undefined) lanesBusy.delete(lane);
      pump();
    };
    const p: Promise<void> = (async () => {
      try {
        await attemptDelivery({ ...dctx, onResponse: free, rendered }, d);
      } catch (err) {
        // The claim stays in_flight and expires; another attempt follows. Nothing is lost.
        log.warn({ err, delivery: d.public_id }, 'delivery attempt failed to record');
      } finally {
        free();
      }
    })();
    recording.add(p);
    void p.finally(() => {
      recording.delete(p);
      pump();
    });
  }

  function release(items: ClaimedDelivery[]): Promise<void> {
    stats.released += items.length;
    return releaseClaims(db, items).catch((err) => {
      // Not released: the leases expire and the deliveries are retried then.
      log.warn({ err }, 'releasing unstarted claims failed');
    });
  }

  const halt = async () => {
    running = false;
    clearInterval(poll);
    retryWake.stop();
    await listener.close();
    await claiming;
  };

  return {
    name: 'delivery-worker',
    get inFlight() {
      return inFlight;
    },
    get stats() {
      return { ...stats, completions: batcher.stats.statements, recorded: batcher.stats.outcomes };
    },
    async stop() {
      await halt();
      await release(queue.splice(0).map((q) => q.d));
      await Promise.allSettled([...recording]);
      await batcher.flush();
    },
  };
}
