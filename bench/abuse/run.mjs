// Abuse benchmark: can one tenant slow the service for another? A quiet tenant sends 50 cheap reads a
// second (one bill, a short state page); a noisy tenant sends 10 of the most expensive reads that
// pass validation a second (deep pages, deep pages under q or title_contains, an exclusion PostgreSQL
// rechecks row by row), open loop, on a 200,000-bill corpus. The quiet tenant's p50/p99 is measured
// alone and beside the noisy one, against the service as shipped (statement timeout, per-key slots)
// and, as the baseline in the same run, against the same service with both turned off
// (READ_STATEMENT_TIMEOUT_MS=0, EXPENSIVE_READS_PER_KEY=0), and with 2 slots per key instead of 1. Server and each tenant's load run in
// separate processes. Streams are left out: a per-key stream cap has not landed yet, so the noisy
// tenant's streams would measure the stream role's fan-out rather than a bound.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/abuse/run.mjs [--seconds 20]
// Needs `npm run build`; creates (once) and reuses the database lds_abuse_bench (about 10 min to seed).
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPool } from '../../dist/db/pool.js';
import { createKey } from '../../dist/keys/store.js';
import { ensureCorpus } from './corpus.mjs';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '20' }, bills: { type: 'string', default: '200000' } } });
const SECONDS = Number(args.seconds);
const QUIET_RATE = 50;
const NOISY_RATE = 10;
const root = path.resolve(import.meta.dirname, '../..');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = await ensureCorpus(adminUrl, 'lds_abuse_bench', Number(args.bills));

const pool = createPool(url, 2, 'lds-bench');
const { rows: [ids] } = await pool.query('SELECT min(bill_id)::int AS min, max(bill_id)::int AS max, count(*)::int AS n FROM bills');
const quietKey = (await createKey(pool, { org: 'bench-quiet', tier: 'enterprise', burst: 1000 })).api_key;
const noisyKey = (await createKey(pool, { org: 'bench-noisy', tier: 'enterprise', burst: 10 })).api_key;
await pool.end();

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'bin/lds.js'), 'serve', '--role', 'api', '--port', String(port)], {
    env: { PATH: process.env.PATH, DATABASE_URL: url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', REDIS_URL: process.env.REDIS_URL ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

async function drain() {
  const admin = createPool(url, 1, 'lds-bench-drain');
  await admin.query(`SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`);
  for (let i = 0; i < 300; i++) {
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`);
    if (rows[0].n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await admin.end();
}

function load(base, kind, key, rate) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'load.mjs'), [JSON.stringify({ base, key, rate, seconds: SECONDS, kind, ids })]);
    child.once('message', resolve);
    child.once('error', reject);
  });
}

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;
}
function stats(results) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    requests: results.length,
    p50_ms: Math.round(pct(ms, 50)),
    p99_ms: Math.round(pct(ms, 99)),
    max_ms: Math.round(ms.at(-1) ?? 0),
    statuses,
    '5xx': results.filter((r) => r.status >= 500).length,
    errors: results.filter((r) => r.status === 0).length,
  };
}

const setups = {
  shipped: { label: 'as shipped: 5 s statement timeout, 1 expensive read per key', env: {} },
  two_slots: { label: 'the same with 2 expensive reads per key', env: { EXPENSIVE_READS_PER_KEY: '2' } },
  unprotected: { label: 'baseline: timeout and slots off', env: { READ_STATEMENT_TIMEOUT_MS: '0', EXPENSIVE_READS_PER_KEY: '0' } },
};

const out = { measured_at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, bills: ids.n, seconds_per_phase: SECONDS, quiet_rate: QUIET_RATE, noisy_rate: NOISY_RATE, redis: Boolean(process.env.REDIS_URL), streams: 'not measured: no per-key stream cap yet', runs: {} };
await drain();
for (const [name, setup] of Object.entries(setups)) {
  const server = await startServer(setup.env);
  // warm the caches the way the first phase would otherwise do for the second
  await load(server.base, 'quiet', quietKey, QUIET_RATE);
  const alone = await load(server.base, 'quiet', quietKey, QUIET_RATE);
  const [beside, noisy] = await Promise.all([load(server.base, 'quiet', quietKey, QUIET_RATE), load(server.base, 'noisy', noisyKey, NOISY_RATE)]);
  await server.stop();
  // PostgreSQL only notices a vanished client when it next writes to it: statements of the stopped
  // server (the baseline's run for minutes) would otherwise load the next setup's measurements.
  await drain();
  const run = { label: setup.label, quiet_alone: stats(alone.results), quiet_beside_noisy: stats(beside.results), noisy: stats(noisy.results) };
  run.p99_ratio = Math.round((run.quiet_beside_noisy.p99_ms / run.quiet_alone.p99_ms) * 100) / 100;
  out.runs[name] = run;
}

const rows = Object.entries(out.runs).map(([name, r]) => ({
  setup: name,
  'quiet alone p50/p99 ms': `${r.quiet_alone.p50_ms} / ${r.quiet_alone.p99_ms}`,
  'quiet + noisy p50/p99 ms': `${r.quiet_beside_noisy.p50_ms} / ${r.quiet_beside_noisy.p99_ms}`,
  'p99 ratio': r.p99_ratio,
  'quiet 5xx': r.quiet_alone['5xx'] + r.quiet_beside_noisy['5xx'],
  'noisy statuses': JSON.stringify(r.noisy.statuses),
}));
console.table(rows);
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench/results/abuse.json'), JSON.stringify(out, null, 2) + '\n');
console.log('wrote bench/results/abuse.json');
