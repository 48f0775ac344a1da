// Logging during a database outage: one warning per component when it starts, one line when it
// ends, never a line per retry or per request. The process's pool, its relay (lock session,
// listener, published cursor) and its HTTP app reach PostgreSQL through a TCP proxy the test cuts
// right as the relay publishes a change, so the relay's published cursor is left to write while
// the database is away; meanwhile keyed requests, /v1/status and /metrics keep coming.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MemoryBus } from '../../src/bus/memory.js';
import { startRelay, type Relay } from '../../src/changes/relay.js';
import { REASONS } from '../../src/changes/record.js';
import type { ChangeEvent } from '../../src/changes/events.js';
import { createPool, type Pool } from '../../src/db/pool.js';
import { createKey } from '../../src/keys/store.js';
import type { Logger } from '../../src/logger.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { pgProxy, type PgProxy } from '../helpers/pg-proxy.js';
import { waitFor } from '../helpers/wait.js';
import { insertBill } from '../webhooks/helpers.js';

interface Line {
  level: number;
  msg: string;
}
const WARN = 40;

describe('logs during a database outage', () => {
  const lines: Line[] = [];
  let db: TestDatabase;
  let proxy: PgProxy;
  let pool: Pool;
  let app: FastifyInstance;
  let relay: Relay;
  let bus: MemoryBus<ChangeEvent>;
  let url: string;
  let key: string;

  beforeAll(async () => {
    db = await freshDatabase();
    proxy = pgProxy(new URL(db.url));
    const via = new URL(db.url);
    via.hostname = '127.0.0.1';
    via.port = String(await proxy.listen());
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
        done();
      },
    });
    const log = pino({ level: 'debug' }, sink) as unknown as Logger;
    pool = createPool(via.toString(), 4, 'lds-test-log-storm');
    // as openDatabase does: the pool's status logs the outage's start and end
    pool.status.log = log;
    // a long key cache: keyed requests keep passing during the outage and leave usage to flush
    const config = testConfig({ keyCacheMs: 600_000, redisUrl: undefined, relayPollMs: 200 });
    bus = new MemoryBus<ChangeEvent>();
    app = await buildTestApp(config, { db: pool, logger: log, bus, databaseUrl: via.toString() });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    key = (await createKey(db.pool, { org: 'log-storm', tier: 'enterprise', burst: 10_000 })).api_key;
    relay = await startRelay({ config, db: pool, databaseUrl: via.toString(), bus, log });
    await waitFor('the relay to take its lock', () => relay.isActive());
  });

  afterAll(async () => {
    await relay?.stop();
    await app?.close();
    await pool?.end().catch(() => undefined);
    await proxy?.close();
    await db?.drop();
  });

  it('warns once per component when the outage starts and once when it ends', async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, { headers }).then(
        (r) => r.status,
        () => 0,
      );
    // Keyed requests are counted, so usage waits to be flushed (/v1/health never reads the key).
    // Not /v1/status: its snapshot would be cached for 60 s, and it must fail during the outage.
    expect(await get('/v1/changes', { 'x-api-key': key })).toBe(200);

    // The database goes away the moment the relay publishes: its published cursor is then written
    // by the stand-alone statement, which keeps failing until the database returns.
    let seq = 0;
    const from = lines.length;
    const off = bus.subscribe((e) => {
      seq = e.seq;
      proxy.down();
    });
    const bill = 10_990_000;
    await insertBill(db.pool, { bill_id: bill });
    await db.pool.query(`INSERT INTO changes (bill_id, state_id, reason_id, detail) VALUES ($1, 43, $2, '{}')`, [
      bill,
      REASONS.NewBill,
    ]);
    await db.pool.query(`SELECT pg_notify('lds_changes', '')`);
    await waitFor('the relay to publish', () => seq > 0, 20_000);
    off();

    // Traffic during the outage, until every component has failed more than once (repeats are
    // logged at debug level, so they are counted here too).
    const components = [
      'relay could not record its published cursor',
      'notification listener',
      'usage flush failed',
      'status snapshot failed',
      'metrics: database gauges unavailable',
    ];
    const quiet = () =>
      components.filter((prefix) => lines.slice(from).filter((l) => l.msg.startsWith(prefix)).length < 2);
    await waitFor(
      'every component to retry during the outage',
      async () => {
        await Promise.all([get('/v1/status', { 'x-api-key': key }), get('/v1/status'), get('/metrics')]);
        return quiet().length === 0;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; not retried twice: ${quiet().join(', ')}`);
    });
    const during = lines.slice(from);

    proxy.up();
    await waitFor(
      'the published cursor to be recorded',
      async () => {
        const { rows } = await db.pool.query<{ published_seq: number }>(
          'SELECT published_seq FROM relay_state WHERE id = 1',
        );
        return rows[0].published_seq >= seq;
      },
      60_000,
    );

    const loud = during.filter((l) => l.level >= WARN);
    const byMessage = new Map<string, number>();
    for (const l of loud) byMessage.set(l.msg, (byMessage.get(l.msg) ?? 0) + 1);
    console.log(
      `outage: ${during.length} lines in all, ${loud.length} at warn or above:`,
      Object.fromEntries(byMessage),
    );
    expect(loud.filter((l) => l.level > WARN).map((l) => l.msg)).toEqual([]);
    for (const [msg, n] of byMessage) expect(n, msg).toBe(1);
    expect(during.filter((l) => l.msg.startsWith('database unavailable'))).toHaveLength(1);
    await waitFor('the pool to see the database again', () => !pool.status.down, 30_000);
    expect(lines.slice(from).filter((l) => l.msg === 'database available again')).toHaveLength(1);
    // the listener's recovery is one info line too (its reconnection backs off up to 10 s)
    await waitFor(
      'the listener to be back',
      () => lines.slice(from).some((l) => l.msg.startsWith('notification listener') && l.msg.endsWith('recovered')),
      60_000,
    );
    // the outage ended: requests are served and counted again
    await waitFor('status to answer again', async () => (await get('/v1/status')) === 200, 30_000);
  }, 120_000);
});
