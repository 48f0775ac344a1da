// A realtime test environment: app listening on a real port, relay running, bus chosen like
// production (NATS when NATS_URL is set, in-process otherwise), a few bills to change.
import pino from 'pino';
import type { Config } from '../../src/config.js';
import { createBus } from '../../src/bus/index.js';
import { startRelay, type Relay } from '../../src/changes/relay.js';
import type { ChangeBus, ChangeEvent } from '../../src/changes/events.js';
import { recordChanges, type ChangeInput, type ReasonName } from '../../src/changes/record.js';
import { withTransaction, type Pool, type Queryable } from '../../src/db/pool.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { testApp, testConfig, type TestApp } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

export const silent = pino({ level: 'silent' });
export const usingNats = Boolean(process.env.NATS_URL);

/** Bills created by seedBills: 20 per state for CA, NY, TX, FL. */
export const STATE_IDS: Record<string, number> = { CA: 5, NY: 32, TX: 43, FL: 9 };

/** A bus like production's; on NATS each test database gets its own namespace (subjects and stream). */
export async function newBus(config: Config, namespace: string): Promise<ChangeBus> {
  return createBus<ChangeEvent>(config, silent, { namespace });
}

export async function destroyBus(bus: ChangeBus): Promise<void> {
  const b = bus as ChangeBus & { destroy?: () => Promise<void> };
  await b.destroy?.();
}

export async function seedBills(db: Queryable): Promise<void> {
  let id = 10_000_000;
  for (const [abbr, sid] of Object.entries(STATE_IDS)) {
    const session = 10_000_000 + sid;
    await db.query(
      `INSERT INTO sessions (session_id, state_id, year_start, year_end, session_name) VALUES ($1, $2, 2026, 2026, 'Regular Session')`,
      [session, sid],
    );
    for (let i = 1; i <= 20; i++) {
      id++;
      await db.query(
        `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
         VALUES ($1, $2, $3, $4, $4, 1, 1, $5)`,
        [id, sid, session, `HB${i}`, `${abbr} bill ${i} "quoted" title`],
      );
    }
  }
}

/** bill ids of a state (seedBills order). */
export function billOf(state: string, i = 1): number {
  const idx = Object.keys(STATE_IDS).indexOf(state);
  return 10_000_000 + idx * 20 + i;
}

export async function change(
  db: TestDatabase | { pool: TestDatabase['pool'] },
  state: string,
  reason: ReasonName = 'StatusChange',
  i = 1,
  detail: Record<string, unknown> = {},
) {
  const input: ChangeInput = { bill_id: billOf(state, i), state_id: STATE_IDS[state], reason, detail };
  await withTransaction(db.pool, (c) => recordChanges(c, [input]));
}

export interface Env extends TestApp {
  url: string;
  relay: Relay;
  relayBus: ChangeBus;
}

/**
 * A seeded database, an app listening on a port, its bus and a relay. `pools` replaces the app's
 * read or stream-replay pool (the caller ends them after close()).
 */
export async function realtimeEnv(
  config: Partial<Config> = {},
  opts: { relay?: boolean; pools?: (db: TestDatabase) => { dbRead?: Pool; dbStream?: Pool } } = {},
): Promise<Env> {
  const db = await freshDatabase(12);
  await seedBills(db.pool);
  const cfg = testConfig(config);
  const bus = await newBus(cfg, db.name);
  const t = await testApp({ db, config, deps: { bus, dbRead: db.pool, ...opts.pools?.(db) } });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const relay = await startRelay({ config: cfg, db: db.pool, databaseUrl: db.url, bus, log: silent });
  if (opts.relay === false) await relay.stop();
  return {
    ...t,
    url,
    relay,
    relayBus: bus,
    async close() {
      await relay.stop();
      await destroyBus(bus);
      await t.close();
      await db.drop();
    },
  };
}

/** n status changes in one transaction over the seed's states, then waits until the relay stamped (and published) them. */
export async function writeMany(env: Pick<Env, 'db'>, n: number): Promise<void> {
  const states = Object.keys(STATE_IDS);
  const inputs: ChangeInput[] = Array.from({ length: n }, (_, i) => {
    const state = states[i % states.length];
    return { bill_id: billOf(state, 1 + (i % 20)), state_id: STATE_IDS[state], reason: 'StatusChange', detail: {} };
  });
  await withTransaction(env.db.pool, (c) => recordChanges(c, inputs));
  await untilStamped(env.db, 30_000);
}

/** Waits until the relay has stamped every change written so far. */
export async function untilStamped(db: { pool: Pool }, timeoutMs?: number): Promise<void> {
  await until(
    async () => (await db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    timeoutMs,
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns a truthy value, and returns that value (narrowed: never false/null/undefined). */
export { until } from '../helpers/wait.js';
