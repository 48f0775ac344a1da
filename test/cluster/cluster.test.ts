// A local cluster on the machine's PostgreSQL, NATS (JetStream) and Redis: three stream processes,
// two api processes, an active + standby relay, two dispatchers and two delivery workers, all real
// `lds serve --role ...` processes. Under `lds simulate`, one process of each role is killed with
// SIGKILL in turn. Every stream client (reconnecting with Last-Event-ID to a surviving stream
// process) must end with exactly the expected changes, each once; the webhook receiver must have
// every expected event at least once (deduplicated by webhook-id); the monthly cap must hold across
// the api processes. Needs DATABASE_URL, NATS_URL and REDIS_URL (CI sets them).
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, eventsForChange } from '../../src/domain/events.js';
import { seed } from '../../src/demo/seed.js';
import { createKey } from '../../src/keys/store.js';
import { ensureBuilt } from '../helpers/build.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { ResumingSseClient } from '../helpers/resuming-sse.js';
import { waitFor } from '../helpers/wait.js';
import { lockTable } from '../helpers/locks.js';

const enabled = Boolean(process.env.DATABASE_URL && process.env.NATS_URL && process.env.REDIS_URL);
if (!enabled)
  console.warn('cluster suite skipped: it needs DATABASE_URL, NATS_URL and REDIS_URL (CI sets them; see .ci/run)');

const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// 60 s by default: these suites restart databases and processes.
const until = (what: string, fn: () => Promise<boolean> | boolean, ms = 60_000) => waitFor(what, fn, ms);

interface Proc {
  name: string;
  role: string;
  child: ChildProcess;
  url?: string;
  output: string;
}

describe.skipIf(!enabled)('local cluster under failures', () => {
  let db: TestDatabase;
  const procs: Proc[] = [];
  let receiver: http.Server;
  const deliveries = new Map<string, string>(); // webhook-id -> payload id
  let badSignatures = 0;
  let key: string;
  let secret = '';

  const env = () => ({
    ...process.env,
    DATABASE_URL: db.url,
    NATS_NAMESPACE: db.name,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: '0,1,1,2,2,3,3,5',
    STREAM_ROTATE_MS: '6000',
    STREAM_HEARTBEAT_MS: '1000',
    RELAY_POLL_MS: '250',
  });

  function start(role: string, name: string): Promise<Proc> {
    const child = spawn(process.execPath, [path.join(root, 'bin/lds.js'), 'serve', '--role', role], {
      cwd: root,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc: Proc = { name, role, child, output: '' };
    procs.push(proc);
    const http = role === 'api' || role === 'stream';
    return new Promise((resolve, reject) => {
      const onData = (c: Buffer) => {
        proc.output += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(proc.output);
        if (m && !proc.url) {
          proc.url = m[1];
          resolve(proc);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (c: Buffer) => (proc.output += c.toString()));
      child.on('exit', (code) =>
        reject(new Error(`${name} exited (${code}) before it was ready: ${proc.output.slice(-800)}`)),
      );
      if (!http) setTimeout(() => resolve(proc), 2500);
    });
  }

  const alive = (role: string) =>
    procs.filter((p) => p.role === role && p.child.exitCode === null && p.child.signalCode === null);
  const kill = (p: Proc) => p.child.kill('SIGKILL');

  beforeAll(async () => {
    ensureBuilt();
    db = await freshDatabase();
    await seed(db.pool, { bills: 300, seed: 5 });
    key = (await createKey(db.pool, { org: 'cluster', tier: 'enterprise', burst: 10_000 })).api_key;

    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          deliveries.set(String(req.headers['webhook-id']), JSON.parse(body).id);
        } catch {
          badSignatures++;
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));

    // Relay A starts first so it is the active one; B stands by.
    await start('relay', 'relay-a');
    await start('relay', 'relay-b');
    await Promise.all([
      start('stream', 'stream-1'),
      start('stream', 'stream-2'),
      start('stream', 'stream-3'),
      start('api', 'api-1'),
      start('api', 'api-2'),
      start('dispatcher', 'dispatcher-a'),
      start('dispatcher', 'dispatcher-b'),
      start('worker', 'worker-a'),
      start('worker', 'worker-b'),
    ]);
  }, 240_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    receiver?.close();
    await db?.drop();
  });

  it('delivers every change to every stream client once and to the webhook receiver at least once', async () => {
    const api = alive('api');
    // The monthly cap holds across api processes (counters in Redis).
    const capped = (await createKey(db.pool, { org: 'capped', monthlyCap: 10, burst: 10_000 })).api_key;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${api[i % 2].url}/v1/states`, { headers: { 'x-api-key': capped } });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);

    const created = await fetch(`${api[0].url}/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: EVENT_NAMES,
        filters: {},
      }),
    });
    expect(created.status).toBe(201);
    secret = ((await created.json()) as { secret: string }).secret;

    // Start from a quiet point: everything recorded so far (the seed's changes) is stamped.
    await until(
      'the relay to stamp the seed changes',
      async () => (await db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    );
    const {
      rows: [{ cursor, last }],
    } = await db.pool.query(
      `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor, last_seq AS last FROM relay_state`,
    );

    const streamUrls = () => alive('stream').map((p) => p.url!);
    const clients = [0, 1, 2].map((i) => new ResumingSseClient(streamUrls, key, cursor, { turn: i }));
    clients.forEach((c) => c.start());

    const sim = spawn(
      process.execPath,
      [path.join(root, 'bin/lds.js'), 'simulate', '--rate', '12', '--duration', '22s'],
      { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let simOut = '';
    sim.stdout.on('data', (c) => (simOut += c));
    sim.stderr.on('data', (c) => (simOut += c));
    const simDone = new Promise<number | null>((r) => sim.on('exit', (code) => r(code)));

    // One process of each role, in turn.
    const schedule: [number, () => Proc][] = [
      [3000, () => alive('stream')[0]],
      [6000, () => procs.find((p) => p.name === 'relay-a')!],
      [9000, () => alive('dispatcher')[0]],
      [12000, () => alive('worker')[0]],
      [15000, () => alive('api')[1]],
    ];
    const killed: string[] = [];
    const t0 = Date.now();
    for (const [at, pick] of schedule) {
      await sleep(Math.max(0, at - (Date.now() - t0)));
      const p = pick();
      kill(p);
      killed.push(p.name);
    }
    expect(await simDone, simOut).toBe(0);
    expect(killed).toEqual(['stream-1', 'relay-a', 'dispatcher-a', 'worker-a', 'api-2']);

    // Expected: every change stamped after the starting cursor. The diff worker may still be
    // turning the simulator's text pairs into TextDiff changes (the restarted worker catches up
    // late): held here (its queue locked; a pair in progress commits first) until the end, so the
    // changes read below are all there are.
    const resumeDiffs = await lockTable(db.pool, 'text_diff_queue');
    try {
      await until(
        'the standby relay to stamp everything',
        async () => (await db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
      );
      const { rows } = await db.pool.query<{
        id: string;
        change_id: number;
        reason: string;
        new_status: number | null;
      }>(
        `SELECT to_char(c.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS id, c.change_id, r.reason_name AS reason, c.new_status
         FROM changes c JOIN change_reasons r USING (reason_id) WHERE c.seq > $1 ORDER BY c.seq`,
        [last],
      );
      expect(rows.length).toBeGreaterThan(100);
      const expectedIds = rows.map((r) => r.id);
      const expectedEvents = new Set(
        rows.flatMap((r) => eventsForChange(r.reason, r.new_status).map((t) => `evt_${r.change_id}_${t}`)),
      );

      await until(
        'every stream client to have every change',
        () => clients.every((c) => c.ids.length >= expectedIds.length),
        60_000,
      ).catch(() => undefined);
      await until(
        'the receiver to have every event',
        () => new Set(deliveries.values()).size >= expectedEvents.size,
        90_000,
      ).catch(() => undefined);
      clients.forEach((c) => c.stop());

      console.log(
        `cluster: ${expectedIds.length} changes, ${expectedEvents.size} webhook events, ${deliveries.size} deliveries received; stream reconnects ${clients.map((c) => c.reconnects).join('/')}; killed ${killed.join(', ')}`,
      );
      for (const c of clients) {
        expect(c.ids).toEqual(expectedIds); // every change, once, in order, across reconnects
        expect(c.reconnects).toBeGreaterThan(0);
      }
      expect(badSignatures).toBe(0);
      expect(new Set(deliveries.values())).toEqual(expectedEvents);
    } finally {
      await resumeDiffs();
    }
  }, 240_000);
});
