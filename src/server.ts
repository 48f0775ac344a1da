// Starts a process: database (embedded or external), migrations, optional demo corpus, bus,
// background roles, HTTP. Shuts down in reverse order of start on SIGTERM/SIGINT: stop accepting,
// finish in-flight requests, stop background work, close the bus and pools, stop the embedded
// PostgreSQL.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Background, BackgroundContext } from './background.js';
import { createBus } from './bus/index.js';
import { startBulk } from './bulk/role.js';
import { startRelay, type Relay } from './changes/relay.js';
import type { Config, Role } from './config.js';
import { migrate } from './db/migrate.js';
import { openDatabase, type Database } from './db/open.js';
import { createKey, findKey } from './keys/store.js';
import type { Logger } from './logger.js';
import { startDiffWorker } from './texts/worker.js';
import { startDispatcher } from './webhooks/queue/dispatcher.js';
import { startDeliveryWorker } from './webhooks/delivery/worker.js';
import { deliveryKinds } from './delivery-kinds.js';
import { Outbound } from './webhooks/delivery/outbound.js';
import type { DeliveryKinds } from './webhooks/delivery/kinds.js';
import { seed } from './demo/seed.js';
import type { ChangeBus, ChangeEvent } from './changes/events.js';
import { closeRedis, createRedis } from './redis/client.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  db: Database;
  bus: ChangeBus;
  demoKey?: string;
  /** the shutdown step under way (for the log line when shutdown overruns) */
  readonly shutdownStep?: string;
  stop(): Promise<void>;
}

type Step = (() => Promise<void>) & { step: string };
/** What the background roles of a process are started from (tests start them from the same). */
export type ProcessContext = BackgroundContext & { kinds: DeliveryKinds; outbound: Outbound };
const named = (step: string, fn: () => Promise<void>): Step => Object.assign(fn, { step });

/**
 * Longest a graceful shutdown may take before the process exits anyway. Every step is bounded on
 * its own (streams get 1 s, deliveries their timeout); this is the backstop for a dependency that
 * stops answering mid-shutdown (e.g. PostgreSQL down with a statement in flight), well inside the
 * 100 s termination grace of the Kubernetes examples.
 */
export const SHUTDOWN_DEADLINE_MS = 45_000;

/** Demo bills seeded by `npm start` on an empty database. */
export const DEMO_BILLS = 30_000;

async function ensureDemo(config: Config, db: Database, log: Logger): Promise<string> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bills');
  if (rows[0].n === 0) {
    log.info({ bills: DEMO_BILLS }, 'empty database: seeding the demo corpus');
    const started = Date.now();
    const result = await seed(db.pool, { bills: DEMO_BILLS, seed: 1, progress: process.stdout.isTTY === true });
    log.info({ ms: Date.now() - started, counts: result.counts }, 'demo corpus seeded');
  }
  // The demo key is kept in plain text under DATA_DIR (mode 600) so every start can print it.
  const file = path.join(path.resolve(config.dataDir), 'demo-api-key.txt');
  const existing = await fs
    .readFile(file, 'utf8')
    .then((s) => s.trim())
    .catch(() => '');
  if (existing) {
    const found = await findKey(db.pool, existing);
    if (found && !found.revoked) return existing;
  }
  const created = await createKey(db.pool, { org: 'demo', tier: 'pro' }, config.defaultBurst);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, created.api_key + '\n', { mode: 0o600 });
  return created.api_key;
}

export async function startServer(config: Config, log: Logger, opts: { demo?: boolean } = {}): Promise<RunningServer> {
  const roles = new Set<Role>(config.roles);
  const db = await openDatabase(config, log, 'server');
  const stops: Step[] = [named('database', () => db.close())];
  try {
    await migrate(db.pool, log);
    const demoKey = opts.demo || config.demo ? await ensureDemo(config, db, log) : undefined;
    const bus = await createBus<ChangeEvent>(config, log, { namespace: config.natsNamespace });
    stops.push(named('bus', () => bus.close()));
    // One Redis client for the process (limits and readiness), like the bus; only processes that
    // serve the API or the stream count requests, so only they need Redis (and report it ready).
    const serving = roles.has('api') || roles.has('stream');
    const redis = serving && config.redisUrl ? createRedis(config.redisUrl, log) : undefined;
    if (redis) stops.push(named('redis', () => closeRedis(redis)));

    // The subscription kinds and the guarded outbound HTTP, one of each per process: the delivery
    // worker sends through them and so do the app's test calls. Closed after both have stopped.
    const kinds = deliveryKinds();
    const outbound = new Outbound({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs });
    stops.push(named('outbound', () => outbound.close()));
    const ctx: ProcessContext = {
      config,
      db: db.pool,
      dbRead: db.readPool,
      databaseUrl: db.url,
      bus,
      log,
      kinds,
      outbound,
    };
    const starters: [Role, (c: ProcessContext) => Promise<Background>][] = [
      ['relay', startRelay],
      ['dispatcher', startDispatcher],
      ['worker', startDeliveryWorker],
      ['worker', startDiffWorker],
      ['bulk', startBulk],
    ];
    let relay: Relay | undefined;
    for (const [role, start] of starters) {
      if (!roles.has(role)) continue;
      const bg = await start(ctx);
      if (bg.name === 'relay') relay = bg as Relay;
      log.debug({ background: bg.name }, 'started');
      stops.push(named(bg.name, () => bg.stop()));
    }

    // Every process listens on PORT: api and stream serve their routes there, and every role,
    // relay, dispatcher and worker included, serves /v1/health, /v1/ready and /metrics, so an
    // orchestrator probes and scrapes each process the same way.
    const app: FastifyInstance = await buildApp(config, {
      db: db.pool,
      dbRead: db.readPool,
      dbExpensive: db.expensivePool,
      dbStream: db.streamPool,
      logger: log,
      bus,
      redis,
      databaseUrl: db.url,
      relay,
      outbound,
      kinds,
    });
    const url = await app.listen({ port: config.port, host: config.host });
    stops.push(named('http', () => app.close()));
    let stopping: Promise<void> | undefined;
    let currentStep: string | undefined;
    return {
      get shutdownStep() {
        return currentStep;
      },
      app,
      url,
      db,
      bus,
      demoKey,
      stop() {
        stopping ??= (async () => {
          for (const stop of stops.reverse()) {
            currentStep = stop.step;
            await stop().catch((err) => log.error({ err, step: stop.step }, 'error during shutdown'));
          }
          currentStep = undefined;
        })();
        return stopping;
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw err;
  }
}

/** Exits once the last log lines are written (stdout is asynchronous), or after 1 s at most. */
function exitAfterFlush(log: Logger, code: number): void {
  setTimeout(() => process.exit(code), 1000).unref();
  try {
    log.flush(() => process.exit(code));
  } catch {
    process.exit(code);
  }
}

/** Wires SIGTERM/SIGINT to a graceful stop; a second signal exits at once. */
export function handleSignals(server: RunningServer, log: Logger): void {
  let signalled = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) {
      log.warn({ signal: sig }, 'second signal: exiting now');
      process.exit(1);
    }
    signalled = true;
    log.info({ signal: sig }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error(
        { step: server.shutdownStep, deadline_ms: SHUTDOWN_DEADLINE_MS },
        'shutdown did not finish in time; exiting without finishing it',
      );
      exitAfterFlush(log, 1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    server.stop().then(
      () => {
        log.info('shutdown complete');
        exitAfterFlush(log, 0);
      },
      () => exitAfterFlush(log, 1),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
