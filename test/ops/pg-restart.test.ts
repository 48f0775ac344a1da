// PostgreSQL restarts under load (issue 13, item 1). The test starts a PostgreSQL cluster of its
// own (embedded binaries, its own data directory and port) and a real `lds serve` process with
// every role against it, then runs an SSE client (resuming with Last-Event-ID), a writer committing
// changes through recordChanges, a loop of API requests and a webhook subscription pointing at a
// local receiver, and restarts PostgreSQL ten times, alternating `pg_ctl stop -m immediate` (a crash
// as clients see it) and `-m fast`. It checks: the process stays up, no answer is a 500, 503
// service_unavailable is answered while the database is down, the stream client is told
// (`event: error`) and ends with every committed change exactly once, and every webhook event
// arrives. Then: a shutdown during an outage finishes, and a start while the database is down
// waits for it (or gives up with a clear message).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { recordChanges, type ReasonName } from '../../src/changes/record.js';
import { controlEmbedded, startEmbedded, type EmbeddedHandle } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool, withTransaction, type Pool } from '../../src/db/pool.js';
import { seed } from '../../src/demo/seed.js';
import { createKey } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { EVENT_NAMES, eventsForChange } from '../../src/domain/events.js';
import { ResumingSseClient } from '../helpers/resuming-sse.js';
import { ensureBuilt } from '../helpers/build.js';
import { lockTable } from '../helpers/locks.js';
import { waitFor } from '../helpers/wait.js';

const RESTARTS = 10;
const root = path.resolve(import.meta.dirname, '../..');
const silent = createLogger('silent', { pretty: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// 60 s by default: these suites restart databases and processes.
const until = (what: string, fn: () => Promise<boolean> | boolean, ms = 60_000) => waitFor(what, fn, ms);

interface Server {
  child: ChildProcess;
  url?: string;
  /** log lines other than per-request ones */
  log: string[];
  exited: Promise<number | null>;
}

function serve(env: NodeJS.ProcessEnv): Server {
  const child = spawn(process.execPath, [path.join(root, 'bin/lds.js'), 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const srv: Server = { child, log: [], exited: new Promise((r) => child.on('exit', (code) => r(code))) };
  let partial = '';
  const onData = (c: Buffer) => {
    partial += c.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (line.includes('"incoming request"') || line.includes('"request completed"')) continue;
      srv.log.push(line);
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) srv.url = m[1].replace('localhost', '127.0.0.1');
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return srv;
}

/** The same over WebSocket: resume with last_event_id after any close or refusal. */
class WsClient {
  readonly ids: string[] = [];
  errors = 0;
  refused = 0;
  reconnects = 0;
  private ws?: { close(): void; terminate(): void };
  private stopped = false;
  constructor(
    private readonly url: string,
    private readonly key: string,
    private last: string,
  ) {}
  start() {
    if (this.stopped) return;
    const ws = new WebSocket(
      `${this.url.replace('http', 'ws')}/v1/stream/ws?last_event_id=${encodeURIComponent(this.last)}`,
      { headers: { 'x-api-key': this.key } },
    );
    this.ws = ws;
    ws.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as { type: string; id?: string; cursor?: string };
      if (m.type === 'bill_change' && m.id) {
        this.ids.push(m.id);
        this.last = m.id;
      } else if (m.type === 'rotate' && m.cursor) this.last = m.cursor;
      else if (m.type === 'error') this.errors++;
    });
    ws.on('unexpected-response', (_req: unknown, res: http.IncomingMessage) => {
      this.refused++;
      res.resume();
      ws.terminate();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.stopped) return;
      this.reconnects++;
      setTimeout(() => this.start(), 200);
    });
  }
  stop() {
    this.stopped = true;
    this.ws?.terminate();
  }
}

describe('PostgreSQL restarts under load', () => {
  let pg: EmbeddedHandle;
  let dataDir: string;
  let pool: Pool;
  let server: Server;
  let receiver: http.Server;
  let key: string;
  const received = new Set<string>(); // webhook payload ids (evt_<change>_<type>)
  let posts = 0; // deliveries received, repeats included (at-least-once: a repeat is allowed)
  let env: NodeJS.ProcessEnv;
  /** ends the pause of the server's diff worker (the test's last reads) */
  let resumeDiffs: (() => Promise<void>) | undefined;

  const stopDb = (mode: 'fast' | 'immediate') => controlEmbedded(dataDir, { stop: mode }, silent);
  const startDb = () => controlEmbedded(dataDir, { start: pg.port }, silent);

  beforeAll(async () => {
    ensureBuilt();
    dataDir = path.join(root, 'data', `pg-restart-${process.pid}`);
    pg = await startEmbedded({ dataDir, preferredPort: 0, log: silent, mode: 'server', database: 'lds' });
    pool = createPool(pg.url, 4, 'lds-test-writer');
    await migrate(pool);
    await seed(pool, { bills: 200, seed: 7 });
    key = (await createKey(pool, { org: 'restart', tier: 'enterprise', burst: 100_000 })).api_key;
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.add((JSON.parse(body) as { id: string }).id);
        posts++;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    env = {
      ...process.env,
      DATABASE_URL: pg.url,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '3000',
      STREAM_ROTATE_MS: '7000',
      STREAM_HEARTBEAT_MS: '1000',
      RELAY_POLL_MS: '250',
      KEY_CACHE_MS: '1000',
      DB_POOL_SIZE: '6',
    };
    for (const k of ['NATS_URL', 'REDIS_URL', 'DATABASE_READ_URL', 'METRICS_TOKEN', 'PUBLIC_BASE_URL', 'LDS_ROLES'])
      delete env[k];
    server = serve(env);
    await until('the server to listen', () => server.url !== undefined || server.child.exitCode !== null, 60_000);
    expect(server.url, server.log.join('\n')).toBeDefined();
  }, 180_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    receiver?.close();
    await resumeDiffs?.().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await startDb().catch(() => undefined); // a failed test may leave it stopped; pg.stop() needs it up
    await pg?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`keeps serving through ${RESTARTS} restarts: no 500, 503 while down, every change once on the stream, every webhook`, async () => {
    const hooked = await fetch(`${server.url}/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: EVENT_NAMES,
        filters: {},
      }),
    });
    expect(hooked.status).toBe(201);
    await until(
      'the seed changes to be stamped',
      async () => (await pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    );
    const {
      rows: [start],
    } = await pool.query<{ cursor: string; last: number }>(
      `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor, last_seq AS last FROM relay_state`,
    );
    const bills = (
      await pool.query<{ bill_id: number; state_id: number }>(
        'SELECT bill_id, state_id FROM bills ORDER BY bill_id LIMIT 40',
      )
    ).rows;

    const client = new ResumingSseClient(() => [server.url!], key, start.cursor, { retryMs: 200 });
    client.start();
    const wsClient = new WsClient(server.url!, key, start.cursor);
    wsClient.start();

    // The writer: the real writer path (recordChanges in the writer's transaction), retried while down.
    let writing = true;
    let committed = 0;
    const reasons: ReasonName[] = ['StatusChange', 'Amendment', 'Vote', 'Text'];
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const b = bills[i % bills.length];
        try {
          await withTransaction(pool, (c) =>
            recordChanges(c, [
              {
                bill_id: b.bill_id,
                state_id: b.state_id,
                reason: reasons[i % reasons.length],
                new_status: i % reasons.length === 0 ? 1 + (i % 6) : null,
              },
            ]),
          );
          committed++;
          await sleep(40);
        } catch {
          await sleep(100);
        }
      }
    })();

    // The request loop: every answer's status; any 5xx body is kept.
    let requesting = true;
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let unavailable = 0;
    const paths = [
      '/v1/bills?state=CA&limit=5',
      `/v1/bills/${bills[0].bill_id}`,
      `/v1/changes?since=${start.cursor}&limit=5`,
      '/v1/legislators?limit=3',
      '/v1/webhooks',
      '/v1/states',
    ];
    const requests = (async () => {
      for (let i = 0; requesting; i++) {
        try {
          const res = await fetch(`${server.url}${paths[i % paths.length]}`, {
            headers: { 'x-api-key': key },
            signal: AbortSignal.timeout(15_000),
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 503) {
            unavailable++;
            const body = JSON.parse(text) as {
              error: { code: string; message: string; request_id: string; docs: string };
            };
            expect(body.error).toMatchObject({
              code: 'service_unavailable',
              request_id: expect.any(String),
              docs: expect.any(String),
            });
            expect(res.headers.get('retry-after')).not.toBeNull();
            if (/postgres|ECONN|terminat|connect|sql/i.test(body.error.message)) bad.push(`internals in 503: ${text}`);
          } else if (res.status >= 500 || res.status === 400 || res.status === 404)
            bad.push(`${res.status} ${paths[i % paths.length]}: ${text}`);
        } catch (err) {
          bad.push(`request failed: ${(err as Error).message}`);
        }
        await sleep(15);
      }
    })();

    for (let n = 0; n < RESTARTS; n++) {
      const mode = n % 2 === 0 ? 'immediate' : 'fast';
      // Working again before the next restart: a change committed now reaches the stream client.
      const seen = client.ids.length;
      const committedNow = committed;
      const wsSeen = wsClient.ids.length;
      await until(
        `changes to flow before restart ${n + 1}`,
        () => committed > committedNow + 5 && client.ids.length > seen + 5 && wsClient.ids.length > wsSeen + 5,
      );
      const [errors, refused, wsErrors, wsRefused, down503] = [
        client.errors,
        client.refused,
        wsClient.errors,
        wsClient.refused,
        unavailable,
      ];
      await stopDb(mode);
      // While it is down: the API answers 503 and the open stream is told (or, reconnecting, refused).
      await until(`a 503 during outage ${n + 1}`, () => unavailable > down503, 30_000);
      await until(
        `the SSE client to hear of outage ${n + 1}`,
        () => client.errors > errors || client.refused > refused,
        30_000,
      );
      await until(
        `the WebSocket client to hear of outage ${n + 1}`,
        () => wsClient.errors > wsErrors || wsClient.refused > wsRefused,
        30_000,
      );
      await startDb();
    }

    writing = false;
    await writer;
    // The diff worker is still turning the seed's text pairs into TextDiff changes: held here (its
    // queue locked; a pair in progress commits first), so the changes read below are all there are.
    resumeDiffs = await lockTable(pool, 'text_diff_queue');
    await until(
      'every change to be stamped',
      async () => (await pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    );
    const { rows } = await pool.query<{ id: string; change_id: number; reason: string; new_status: number | null }>(
      `SELECT to_char(c.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS id, c.change_id, r.reason_name AS reason, c.new_status
       FROM changes c JOIN change_reasons r USING (reason_id) WHERE c.seq > $1 ORDER BY c.seq`,
      [start.last],
    );
    const expectedIds = rows.map((r) => r.id);
    const expectedEvents = rows.flatMap((r) =>
      eventsForChange(r.reason, r.new_status).map((t) => `evt_${r.change_id}_${t}`),
    );
    await until(
      'the stream clients to have every change',
      () => client.ids.length >= expectedIds.length && wsClient.ids.length >= expectedIds.length,
      60_000,
    ).catch(() => undefined);
    await until(
      'the receiver to have every webhook event',
      () => expectedEvents.every((e) => received.has(e)),
      90_000,
    ).catch(() => undefined);
    requesting = false;
    await requests;
    client.stop();
    wsClient.stop();
    await resumeDiffs();
    resumeDiffs = undefined;

    if (process.env.PG_RESTART_LOG) await fs.writeFile(process.env.PG_RESTART_LOG, server.log.join('\n'));
    console.log(
      `pg-restart: ${RESTARTS} restarts; ${expectedIds.length} changes committed (${committed} acknowledged), ${expectedEvents.length} webhook events, ` +
        `${received.size} received (${posts - received.size} repeats); SSE errors ${client.errors}, reconnects ${client.reconnects}, refused ${client.refused}; WebSocket errors ${wsClient.errors}, reconnects ${wsClient.reconnects}, refused ${wsClient.refused}; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(server.child.exitCode, server.log.slice(-40).join('\n')).toBeNull();
    // nothing crashed or escaped as a bug (outage lines are warnings; the key check logs its own)
    expect(server.log.filter((l) => /Unhandled|uncaught|"level":60|"msg":"unhandled error"/i.test(l))).toEqual([]);
    expect(bad).toEqual([]);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(unavailable).toBeGreaterThan(0);
    expect(client.errors).toBeGreaterThan(0);
    expect(expectedIds.length).toBeGreaterThan(RESTARTS * 3);
    expect(wsClient.errors).toBeGreaterThan(0);
    expect(client.ids).toEqual(expectedIds); // every change, once, in order, across outages and reconnects
    expect(wsClient.ids).toEqual(expectedIds);
    expect(expectedEvents.filter((e) => !received.has(e))).toEqual([]);
  }, 240_000);

  it('shuts down during an outage without hanging', async () => {
    await stopDb('immediate');
    server.child.kill('SIGTERM');
    const code = await server.exited;
    expect(code, server.log.slice(-20).join('\n')).toBe(0);
    expect(server.log.some((l) => l.includes('shutdown complete'))).toBe(true);
  }, 60_000);

  it('waits for PostgreSQL at start, saying so, then serves; gives up after DB_START_TIMEOUT_MS', async () => {
    // still down from the previous test
    const quick = serve({ ...env, DB_START_TIMEOUT_MS: '1500' });
    expect(await quick.exited).toBe(1);
    expect(quick.log.join('\n')).toMatch(
      /cannot connect to PostgreSQL: still unreachable after \d+ s \(DB_START_TIMEOUT_MS\)/,
    );

    const patient = serve({ ...env, DB_START_TIMEOUT_MS: '120000' });
    try {
      await until('the waiting line', () =>
        patient.log.some((l) => l.includes('waiting for PostgreSQL to accept connections')),
      );
      await startDb();
      await until('the server to listen', () => patient.url !== undefined || patient.child.exitCode !== null);
      expect(patient.url, patient.log.join('\n')).toBeDefined();
      const res = await fetch(`${patient.url}/v1/states`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
    } finally {
      patient.child.kill('SIGTERM');
      await patient.exited;
    }
  }, 120_000);
});
