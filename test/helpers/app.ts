// Builds the real app on a fresh database for a test file.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.js';
import { MemoryBus } from '../../src/bus/memory.js';
import type { ChangeBus, ChangeEvent } from '../../src/changes/events.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createKey, type CreateKeyInput } from '../../src/keys/store.js';
import { freshDatabase, type TestDatabase } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  bus: ChangeBus;
  /** a ready API key with generous limits */
  key: string;
  newKey(input?: Partial<CreateKeyInput>): Promise<{ api_key: string; api_key_id: string }>;
  close(): Promise<void>;
}

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
  opts: { config?: Partial<Config>; deps?: Partial<AppDeps>; db?: TestDatabase } = {},
): Promise<TestApp> {
  const db = opts.db ?? (await freshDatabase());
  const config = testConfig(opts.config);
  const bus = opts.deps?.bus ?? new MemoryBus<ChangeEvent>();
  const app = await buildApp(config, { db: db.pool, logger: false, bus, databaseUrl: db.url, ...opts.deps });
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
    async close() {
      await app.close();
      await bus.close();
      if (!opts.db) await db.drop();
    },
  };
}
