// Webhook delivery benchmark: sustained signed deliveries per second from one process (dispatcher
// + worker) to 50 local receivers answering in 5 ms, first-attempt commit-to-receiver latency, and
// a receiver hanging 15 s beside them. Baseline in the same run: a bare undici loop posting the
// same bodies to the same receivers. Build first: npx tsc -p tsconfig.build.json
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/webhooks/deliveries.mjs
import { fork } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent } from 'undici';
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';
import { migrate } from '../../dist/db/migrate.js';
import { createKey } from '../../dist/keys/store.js';
import { createLogger } from '../../dist/logger.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { startDispatcher } from '../../dist/webhooks/dispatcher.js';
import { startDeliveryWorker } from '../../dist/webhooks/worker.js';
import { createSubscription } from '../../dist/webhooks/subscriptions.js';
import { generateSecret } from '../../dist/webhooks/signing.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RECEIVERS = 50;
const BACKLOG_CHANGES = Number(process.env.BENCH_CHANGES ?? 300); // x 50 subscriptions
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 8);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `lds_bench_wh_${process.pid}`;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const u = new URL(adminUrl);
u.pathname = '/' + dbName;
const db = createPool(u.toString(), 12, 'bench');
const child = fork(path.join(here, 'receivers.mjs'), [String(RECEIVERS), '5', '15000']);
const arrivals = [];
child.on('message', (m) => {
  if (m.arrivals) for (const a of m.arrivals) arrivals.push(a);
});
const { ports, hangPort } = await new Promise((resolve) => child.once('message', resolve));
const results = { receivers: RECEIVERS, receiver_delay_ms: 5 };

try {
  await migrate(db);
  console.error('migrated; baseline...');
  // --- baseline: bare undici, same body size, same receivers, same concurrency -----------------
  const body = JSON.stringify({ type: 'status_change', id: 'evt_0_status_change', api_version: 'v1', occurred_at: new Date().toISOString(), data: { bill: { bill_id: 1, state: 'TX', bill_number: 'HB1', title: 'x'.repeat(80), status_id: 2, status_date: '2026-11-01', updated: new Date().toISOString(), url: 'http://x/v1/bills/1' }, change: { reason: 'StatusChange', reason_id: 2, old_status_id: 1, new_status_id: 2 } } });
  const agent = new Agent({ connections: 16 });
  const total = BACKLOG_CHANGES * RECEIVERS;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next < total) {
      const i = next++;
      const res = await agent.request({ origin: `http://127.0.0.1:${ports[i % RECEIVERS]}`, path: '/hook', method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.body.dump();
    }
  }));
  const baseSecs = (performance.now() - t0) / 1000;
  results.baseline = { deliveries: total, seconds: +baseSecs.toFixed(2), per_second: Math.round(total / baseSecs) };
  await agent.close();
  arrivals.length = 0;

  // --- service: subscriptions, bills, dispatcher + worker --------------------------------------
  const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://bench.test', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? '64' });
  results.worker_concurrency = config.workerConcurrency;
  const keys = [await createKey(db, { org: 'bench' }), await createKey(db, { org: 'bench' }), await createKey(db, { org: 'bench' })];
  for (let i = 0; i < RECEIVERS; i++) {
    await createSubscription(db, { apiKeyId: keys[i % 2].api_key_id, orgName: 'bench', kind: 'webhook', url: `http://127.0.0.1:${ports[i]}/hook`, events: ['status_change'], states: [], subjects: [], secret: generateSecret() });
  }
  await db.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end) VALUES (19000000, 43, 2026, 2026)`);
  await db.query(`INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
                  SELECT g, 43, 19000000, 'HB' || g, 'HB' || g, 89, 89, 'Bench bill ' || g FROM generate_series(19000000, 19000999) g`);
  let billCursor = 0;
  const stamp = async (n) => {
    billCursor += n;
    const { rows } = await db.query(
      `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, seq, changed_at)
       SELECT 19000000 + (($2 + g) % 1000), 43, 2, 1, 2, (SELECT coalesce(max(seq), 0) FROM changes) + g, clock_timestamp() + g * interval '1 microsecond'
       FROM generate_series(1, $1) g RETURNING change_id`, [n, billCursor]);
    return { at: Date.now(), ids: rows.map((r) => r.change_id) };
  };
  const ctx = { config, db, dbRead: db, databaseUrl: u.toString(), bus: new MemoryBus(), log: createLogger('silent', { pretty: false }) };
  const dispatcher = await startDispatcher(ctx, { pollMs: 20 });
  const worker = await startDeliveryWorker(ctx, { pollMs: 20 });

  console.error('baseline', results.baseline, '; service backlog...');
  // throughput: drain a backlog
  const t1 = performance.now();
  await stamp(BACKLOG_CHANGES);
  const want = BACKLOG_CHANGES * RECEIVERS;
  while (arrivals.length < want) await new Promise((r) => setTimeout(r, 20));
  const secs = (performance.now() - t1) / 1000;
  results.service = { deliveries: want, seconds: +secs.toFixed(2), per_second: Math.round(want / secs) };
  results.ratio_to_baseline = +(results.service.per_second / results.baseline.per_second).toFixed(2);
  await new Promise((r) => setTimeout(r, 500));
  arrivals.length = 0;

  console.error('service', results.service, '; latency...');
  // latency under steady load, with one receiver hanging 15 s on every request
  const hangSecret = generateSecret();
  await createSubscription(db, { apiKeyId: keys[2].api_key_id, orgName: 'bench', kind: 'webhook', url: `http://127.0.0.1:${hangPort}/hook`, events: ['status_change'], states: [], subjects: [], secret: hangSecret });
  const commits = new Map();
  const perTick = Number(process.env.BENCH_TICK_CHANGES ?? 1); // changes every 100 ms; x 50 subscriptions = 500 deliveries/s per change
  const end = Date.now() + LATENCY_SECONDS * 1000;
  while (Date.now() < end) {
    const { at, ids } = await stamp(perTick);
    for (const id of ids) commits.set(`evt_${id}_status_change`, at);
    await new Promise((r) => setTimeout(r, 100));
  }
  const expected = commits.size * RECEIVERS;
  const deadline = Date.now() + 10_000;
  while (arrivals.filter((a) => a[0] !== 'hang').length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seen = new Set();
  const lat = [];
  for (const [id, t, msg] of arrivals) {
    if (id === 'hang' || seen.has(msg)) continue;
    seen.add(msg);
    if (commits.has(id)) lat.push(t - commits.get(id));
  }
  results.latency_first_attempt_ms = { samples: lat.length, expected, p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) };
  results.hanging_receiver = { requests_started: arrivals.filter((a) => a[0] === 'hang').length, others_delivered: lat.length, others_expected: expected };
  await worker.crash();
  await dispatcher.stop();
} finally {
  child.kill();
  await db.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}

console.table({
  'bare undici (baseline)': { 'deliveries/s': results.baseline.per_second, deliveries: results.baseline.deliveries },
  'service (signed, queued)': { 'deliveries/s': results.service.per_second, deliveries: results.service.deliveries },
});
console.table({ 'first attempt, commit to receiver (ms)': results.latency_first_attempt_ms });
console.log('ratio to baseline:', results.ratio_to_baseline, ' hanging receiver:', results.hanging_receiver);
mkdirSync(path.join(here, '../results'), { recursive: true });
writeFileSync(path.join(here, '../results/webhooks.json'), JSON.stringify({ ...results, at: new Date().toISOString(), node: process.version }, null, 2) + '\n');
process.exit(0);
