// Builds the real app on a fresh database for a test file, with the parts a process root
// (src/server.ts) makes once per process: its Redis client when REDIS_URL is set, the guarded
// outbound HTTP and the delivery kinds.
import type { FastifyInstance } from 'fastify';
import { buildApp, type App, type AppDeps } from '../../src/app.js';
import { MemoryBus } from '../../src/bus/memory.js';
import type { ChangeBus, ChangeEvent } from '../../src/changes/events.js';
import { loadConfig, type Config } from '../../src/config.js';
import { deliveryKinds } from '../../src/delivery-kinds.js';
import { createKey, type CreateKeyInput } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis } from '../../src/redis/client.js';
import type { ProcessContext } from '../../src/server.js';
import { Outbound } from '../../src/webhooks/delivery/outbound.js';
import { freshDatabase, type TestDatabase } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  bus: ChangeBus;
  /** a ready API key with generous limits */
  key: string;
  newKey(input?: Partial<CreateKeyInput>): Promise<{ api_key: string; api_key_id: string }>;
  /** what the process's background roles (dispatcher, delivery worker, …) start from, sharing this app's parts */
  background(): ProcessContext;
  close(): Promise<void>;
}

/** What buildApp needs, where the test may leave out the parts a process root makes. */
export type TestAppDeps = Omit<AppDeps, 'outbound' | 'kinds'> & Partial<Pick<AppDeps, 'outbound' | 'kinds'>>;

/**
 * buildApp as a process root calls it: a Redis client of the app's own when the config names one
 * and the test passes none, the outbound HTTP and the delivery kinds; the parts made here close
 * with the app.
 */
export async function buildTestApp(config: Config, deps: TestAppDeps): Promise<App> {
  const redis = deps.redis ?? (config.redisUrl ? createRedis(config.redisUrl, quiet) : undefined);
  const outbound =
    deps.outbound ?? new Outbound({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs });
  const app = await buildApp(config, { ...deps, redis, outbound, kinds: deps.kinds ?? deliveryKinds() });
  app.addHook('onClose', async () => {
    if (!deps.outbound) await outbound.close();
    if (redis && !deps.redis) await closeRedis(redis);
  });
  return app;
}

const quiet = createLogger('silent', { pretty: false });

/** Test configuration: the defaults, with the environment's service URLs, plus overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {
      NATS_URL: process.env.NATS_URL,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: 'http://lds.test',
    },
    overrides,
  );
}

export async function testApp(
  opts: { config?: Partial<Config>; deps?: Partial<TestAppDeps>; db?: TestDatabase } = {},
): Promise<TestApp> {
  const db = opts.db ?? (await freshDatabase());
  const config = testConfig(opts.config);
  const bus = opts.deps?.bus ?? new MemoryBus<ChangeEvent>();
  const app = await buildTestApp(config, { db: db.pool, logger: false, bus, databaseUrl: db.url, ...opts.deps });
  await app.ready();
  const newKey = async (input: Partial<CreateKeyInput> = {}) =>
    createKey(db.pool, { org: 'test-org', tier: 'enterprise', burst: 10_000, ...input });
  const { api_key: key } = await newKey();
  return {
    app,
    db,
    config,
    bus,
    key,
    newKey,
    background: () => ({
      config,
      db: db.pool,
      dbRead: db.pool,
      databaseUrl: db.url,
      bus,
      log: quiet,
      kinds: app.kinds,
      outbound: app.outbound,
    }),
    async close() {
      await app.close();
      await bus.close();
      if (!opts.db) await db.drop();
    },
  };
}
