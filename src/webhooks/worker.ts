// Delivery workers: claim due deliveries (SKIP LOCKED, under a lease) and POST them. Any number of
// worker processes can run; a claim whose worker dies expires after timeout + margin and another
// worker retries it with the same webhook-id (at-least-once, idempotent by webhook-id).
import type { Background, BackgroundContext } from '../background.js';
import { attemptDelivery, type DeliveryContext } from './deliver.js';
import { Outbound } from './outbound.js';
import { claimDue, CompletionBatcher, queueEvents } from './queue.js';
import type { Resolver } from './guard.js';

/** Deliveries in flight per subscription in one worker: a hanging receiver holds at most these. */
export const PER_SUBSCRIPTION = 8;
/** Lease beyond the request timeout before another worker may take the delivery over. */
export const LEASE_MARGIN_MS = 15_000;

export interface WorkerOptions {
  pollMs?: number;
  concurrency?: number;
  perSubscription?: number;
  leaseMarginMs?: number;
  resolver?: Resolver;
}

export interface DeliveryWorker extends Background {
  /** Simulates a killed process: stops at once and records nothing for requests in flight. */
  crash(): Promise<void>;
  readonly inFlight: number;
}

export async function startDeliveryWorker(ctx: BackgroundContext, opts: WorkerOptions = {}): Promise<DeliveryWorker> {
  const { config, db, log } = ctx;
  const concurrency = opts.concurrency ?? config.workerConcurrency;
  const perSub = opts.perSubscription ?? PER_SUBSCRIPTION;
  const leaseMs = config.webhookTimeoutMs + (opts.leaseMarginMs ?? LEASE_MARGIN_MS);
  const pollMs = opts.pollMs ?? 250;
  const minBatch = Math.max(1, Math.floor(concurrency / 8));
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
  const batcher = new CompletionBatcher(fencedDb);
  const dctx: DeliveryContext = { db: fencedDb, config, outbound, log, complete: (d, o) => batcher.complete(d, o) };
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  const onWake = () => wake?.();
  queueEvents.on('wake', onWake);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (running) {
      // HTTP slots free up as soon as a response is in; the outcome is recorded in batches after.
      const free = Math.min(concurrency - inFlight, 2 * concurrency - pending.size);
      if (free <= 0) {
        await sleep(pollMs);
        continue;
      }
      let claimed;
      try {
        claimed = await claimDue(db, free, perSub, leaseMs);
      } catch (err) {
        if (running) log.warn({ err }, 'delivery claim failed; retrying');
        await sleep(1000);
        continue;
      }
      for (const d of claimed) {
        inFlight++;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          inFlight--;
          // Claim in batches: waking the loop for every finished request would double the
          // queries per delivery under load.
          if (concurrency - inFlight >= minBatch) onWake();
        };
        const p: Promise<void> = (async () => {
          try {
            if (crashed) return;
            await attemptDelivery({ ...dctx, onResponse: release }, d);
          } catch (err) {
            // The claim stays in_flight and expires; another attempt follows. Nothing is lost.
            if (!crashed) log.warn({ err, delivery: d.public_id }, 'delivery attempt failed to record');
          } finally {
            release();
          }
        })();
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
      if (claimed.length === 0 || claimed.length < free) await sleep(claimed.length === 0 ? pollMs : 5);
    }
  })();

  return {
    name: 'delivery-worker',
    get inFlight() {
      return inFlight;
    },
    async stop() {
      running = false;
      queueEvents.off('wake', onWake);
      wake?.();
      await loop;
      await Promise.allSettled([...pending]);
      await outbound.close();
    },
    async crash() {
      crashed = true;
      running = false;
      queueEvents.off('wake', onWake);
      wake?.();
      await loop;
      await outbound.agent.destroy().catch(() => undefined);
    },
  };
}
