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
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import { attemptDelivery, type DeliveryContext } from './deliver.js';
import { Outbound } from './outbound.js';
import { logDisabled } from './disable.js';
import { claimDue, CompletionBatcher, queueEvents, releaseClaims, type ClaimedDelivery } from './queue.js';
import type { Resolver } from './guard.js';

/** Deliveries claimed per subscription (all workers together): a hanging receiver holds at most these. */
export const PER_SUBSCRIPTION = 8;
/** Lease beyond the request timeout before another worker may take the delivery over. */
export const LEASE_MARGIN_MS = 15_000;

export interface WorkerOptions {
  pollMs?: number;
  concurrency?: number;
  perSubscription?: number;
  /** deliveries claimed ahead of free HTTP slots (default: concurrency) */
  prefetch?: number;
  leaseMarginMs?: number;
  resolver?: Resolver;
}

export interface DeliveryWorker extends Background {
  /** Simulates a killed process: stops at once and records nothing for requests in flight. */
  crash(): Promise<void>;
  readonly inFlight: number;
  /** claim and completion statements sent, deliveries claimed and outcomes recorded so far */
  readonly stats: { claims: number; claimed: number; completions: number; recorded: number; released: number };
}

interface Queued {
  d: ClaimedDelivery;
  claimedAt: number;
}

export async function startDeliveryWorker(ctx: BackgroundContext, opts: WorkerOptions = {}): Promise<DeliveryWorker> {
  const { config, db, log } = ctx;
  const concurrency = opts.concurrency ?? config.workerConcurrency;
  const perSub = opts.perSubscription ?? PER_SUBSCRIPTION;
  const prefetch = opts.prefetch ?? concurrency;
  const leaseMs = config.webhookTimeoutMs + (opts.leaseMarginMs ?? LEASE_MARGIN_MS);
  // A queued claim must still have a whole request timeout (and a second) left on its lease.
  const maxQueueWaitMs = Math.max(0, leaseMs - config.webhookTimeoutMs - 1000);
  const pollMs = opts.pollMs ?? 250;
  // Claim in batches: a claim for every finished request would double the statements per delivery.
  const minClaim = Math.max(1, Math.floor((concurrency + prefetch) / 8));
  const outbound = new Outbound({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs, resolver: opts.resolver, connectionsPerOrigin: perSub * 2 });
  let running = true;
  let crashed = false;
  // After crash() nothing may reach the database, as if the process had died mid-request.
  const fencedDb = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') return (...args: unknown[]) => (crashed ? Promise.reject(new Error('worker crashed')) : (target.query as (...a: unknown[]) => unknown)(...args));
      return Reflect.get(target, prop, receiver);
    },
  });
  const stats = { claims: 0, claimed: 0, completions: 0, recorded: 0, released: 0 };
  const queue: Queued[] = [];
  let inFlight = 0;
  const recording = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  // The last claim found less than it asked for: claim again only on a trigger, not in a spin.
  let drained = false;
  // a database outage fails every poll's claim: one warning, not four a second
  const claimFailures = retryLog(log, 'delivery claim failed; retrying on the next poll');
  const trigger = () => {
    drained = false;
    pump();
  };
  const batcher = new CompletionBatcher(fencedDb, 256, 4, trigger, (off) => logDisabled(log, off));
  const dctx: DeliveryContext = { db: fencedDb, config, outbound, log, complete: (d, o) => batcher.complete(d, o) };
  queueEvents.on('wake', trigger);
  const poll = setInterval(trigger, pollMs);

  function pump(): void {
    if (!running) return;
    const stale: Queued[] = [];
    // Recording is bounded too: outcomes waiting for the database hold memory, not slots.
    while (inFlight < concurrency && recording.size < 2 * concurrency && queue.length > 0) {
      const q = queue.shift()!;
      if (Date.now() - q.claimedAt > maxQueueWaitMs) stale.push(q);
      else start(q.d);
    }
    if (stale.length > 0) release(stale.map((q) => q.d));
    claimMore();
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
        for (const d of rows) queue.push({ d, claimedAt: now });
        if (rows.length < want) drained = true;
      })
      .catch((err) => {
        if (running) claimFailures.failed(err);
        drained = true;
      })
      .finally(() => {
        claiming = undefined;
        pump();
      });
  }

  function start(d: ClaimedDelivery): void {
    inFlight++;
    let released = false;
    const free = () => {
      if (released) return;
      released = true;
      inFlight--;
      pump();
    };
    const p: Promise<void> = (async () => {
      try {
        if (crashed) return;
        await attemptDelivery({ ...dctx, onResponse: free }, d);
      } catch (err) {
        // The claim stays in_flight and expires; another attempt follows. Nothing is lost.
        if (!crashed) log.warn({ err, delivery: d.public_id }, 'delivery attempt failed to record');
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
    return releaseClaims(fencedDb, items).catch((err) => {
      // Not released: the leases expire and the deliveries are retried then.
      if (!crashed) log.warn({ err }, 'releasing unstarted claims failed');
    });
  }

  const halt = async () => {
    running = false;
    clearInterval(poll);
    queueEvents.off('wake', trigger);
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
      await outbound.close();
    },
    async crash() {
      crashed = true;
      await halt();
      queue.length = 0;
      await outbound.agent.destroy().catch(() => undefined);
    },
  };
}
