// Standard EventSource clients through a real PostgreSQL outage (issue 24 item 2). The `eventsource`
// package, like browsers, gives up for good on any non-200 answer to a reconnect. The test starts a
// PostgreSQL of its own (embedded binaries, own data directory and port), runs the gateway and the
// relay against it, connects EventSource clients, then stops PostgreSQL (`pg_ctl stop -m immediate`,
// a crash as clients see it) for longer than a connection's life plus EventSource's 5 s reconnect
// delay and longer than KEY_CACHE_MS, then starts it again. Before the fix every client ended
// CLOSED: rotations went on during the outage and the reconnect's key check answered 503. Checks:
// every client is told (`event: error`) and stays OPEN, a client connecting during the outage
// with a key confirmed shortly before gets its stream (200, then `event: error`), and after the
// database returns every client receives new changes, each change exactly once, and rotates again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../src/bus/memory.js';
import type { ChangeEvent } from '../../src/changes/events.js';
import { startRelay, type Relay } from '../../src/changes/relay.js';
import { controlEmbedded, startEmbedded, type EmbeddedHandle } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool, type Pool } from '../../src/db/pool.js';
import { createKey } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { change, seedBills } from '../realtime/env.js';

const CLIENTS = 20;
const root = path.resolve(import.meta.dirname, '../..');
const silent = createLogger('silent', { pretty: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = (what: string, fn: () => boolean | Promise<boolean>, ms = 60_000) => waitFor(what, fn, ms);
// a connection's life, the key cache and EventSource's reconnect delay (retry: 5000) all pass
// during the outage
const CONFIG = {
  keyCacheMs: 500,
  streamRotateMs: 2000,
  streamRotateJitter: 10,
  streamHeartbeatMs: 500,
  relayPollMs: 100,
};
const OUTAGE_MS = 9000;

class Client {
  readonly ids: string[] = [];
  opens = 0;
  /** `event: error` frames sent by the server (MessageEvents), as opposed to transport errors */
  serverErrors = 0;
  readonly es: EventSource;
  constructor(url: string, key: string) {
    this.es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-api-key': key } }),
    });
    this.es.onopen = () => this.opens++;
    this.es.addEventListener('bill_change', (e) => this.ids.push((e as MessageEvent).lastEventId));
    this.es.addEventListener('error', (e) => {
      if (e instanceof MessageEvent) this.serverErrors++;
    });
  }
  get open() {
    return this.es.readyState === EventSource.OPEN;
  }
}

describe('EventSource clients through a PostgreSQL outage', () => {
  let pg: EmbeddedHandle;
  let dataDir: string;
  let writer: Pool;
  let appPool: Pool;
  let app: FastifyInstance;
  let relay: Relay;
  let bus: MemoryBus<ChangeEvent>;
  let url: string;
  let key: string;

  beforeAll(async () => {
    dataDir = path.join(root, 'data', `es-outage-${process.pid}`);
    pg = await startEmbedded({ dataDir, preferredPort: 0, log: silent, mode: 'server', database: 'lds' });
    writer = createPool(pg.url, 2, 'lds-test-writer');
    await migrate(writer);
    await seedBills(writer);
    key = (await createKey(writer, { org: 'outage', tier: 'enterprise', burst: 100_000 })).api_key;
    appPool = createPool(pg.url, 6, 'lds-test-gateway');
    bus = new MemoryBus<ChangeEvent>();
    const config = testConfig(CONFIG);
    app = await buildTestApp(config, { db: appPool, logger: false, bus, databaseUrl: pg.url });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    relay = await startRelay({ config, db: appPool, databaseUrl: pg.url, bus, log: silent });
  }, 120_000);

  afterAll(async () => {
    await relay?.stop();
    await app?.close();
    await bus?.close();
    await appPool?.end().catch(() => undefined);
    await writer?.end().catch(() => undefined);
    await controlEmbedded(dataDir, { start: pg.port }, silent).catch(() => undefined); // pg.stop() needs it up
    await pg?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`keeps ${CLIENTS} EventSource clients OPEN through the outage and delivers every change once afterwards`, async () => {
    const cursor = async () =>
      (
        await writer.query<{ t: string }>(
          `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM relay_state`,
        )
      ).rows[0].t;
    const start = await cursor();
    const streamUrl = `${url}/v1/stream?since=${start}`;
    const clients = Array.from({ length: CLIENTS }, () => new Client(streamUrl, key));
    await until('every client to open', () => clients.every((c) => c.open));
    await change({ pool: writer }, 'CA', 'StatusChange', 1);
    await until('every client to get the first change', () => clients.every((c) => c.ids.length === 1));

    await controlEmbedded(dataDir, { stop: 'immediate' }, silent);
    await until('the gateway to see the outage', () => appPool.status.down);
    await until('every client to be told', () => clients.every((c) => c.serverErrors > 0));
    // The outage lasts beyond a connection's life, the key cache and a reconnect delay.
    await sleep(OUTAGE_MS);
    // A stream (re)connecting now, its key confirmed by the database a moment ago, gets its stream.
    const late = new Client(streamUrl, key);
    await until(
      'the client connecting during the outage to be told',
      () => late.serverErrors > 0 || late.es.readyState === EventSource.CLOSED,
    );
    expect(late.open).toBe(true);
    const during = clients.map((c) => c.es.readyState);
    expect(during.filter((s) => s !== EventSource.OPEN)).toEqual([]);

    await controlEmbedded(dataDir, { start: pg.port }, silent);
    await until('the gateway to see the database again', () => !appPool.status.down);
    const all = [...clients, late];
    await change({ pool: writer }, 'TX', 'Vote', 2);
    const expected = async () =>
      (
        await writer.query<{ t: string }>(
          `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE changed_at > $1::timestamptz ORDER BY changed_at`,
          [start],
        )
      ).rows.map((r) => r.t);
    const want = await until('the change to be stamped', async () => (await expected()).length === 2).then(expected);
    await until(
      'every client to get the change made after the outage',
      () => all.every((c) => c.ids.length >= 2),
      60_000,
    );
    // Rotations resume after the outage: every client reconnects (a 200 again) and never gives
    // up (between a rotation and its reconnect a client is CONNECTING, so all of them need not be
    // OPEN at the same moment; the change below reaches each of them)
    const opened = all.map((c) => c.opens);
    await until('every client to rotate after the outage', () => all.every((c, i) => c.opens > opened[i]), 60_000);
    expect(all.filter((c) => c.es.readyState === EventSource.CLOSED)).toEqual([]);
    await change({ pool: writer }, 'NY', 'Text', 3);
    await until('every client to get a change after rotating', () => all.every((c) => c.ids.length >= 3), 60_000);
    const final = await expected();
    for (const c of all) c.es.close();
    expect(all.map((c) => c.ids)).toEqual(all.map(() => final));
    expect(final.slice(0, 2)).toEqual(want);
  }, 180_000);
});
