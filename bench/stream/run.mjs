// Stream benchmark: one gateway process (bench/stream/gateway.mjs), load generator processes
// (bench/stream/load.mjs: raw sockets, hand-written HTTP, events found by scanning bytes) and this
// process as the writer (commits changes at a fixed rate, noting each commit time). Scenarios:
//   a) 10,000 clients, each filtered to one state, 100 changes/s spread across states
//   b) 1,000 clients on all states, 100 changes/s
// each against the real hub and against a naive broadcaster (the baseline), in the same run.
// Latency is commit-to-client: the writer's commit time to the generator's receive time (both on
// the wall clock with sub-millisecond resolution), so it includes relay stamping and the bus.
// Needs DATABASE_URL (a PostgreSQL server where it may create a database) and `npm run build`.
// Raise the descriptor limit first: ulimit -n 65536.
//   node bench/stream/run.mjs [--scenario a|b|all] [--mode hub|naive|both] [--seconds 15]
//                             [--generators 2] [--scale 1] [--cpu-prof]
// --cpu-prof writes V8 profiles of the gateway and generators to bench/results/prof/.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '../../dist/keys/store.js';
import { migrate } from '../../dist/db/migrate.js';
import { createPool } from '../../dist/db/pool.js';
import { recordChanges } from '../../dist/changes/record.js';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    mode: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '15' },
    generators: { type: 'string', default: '2' },
    scale: { type: 'string', default: process.env.BENCH_SCALE ?? '1' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(args.seconds);
const RATE = 100;
const SCALE = Number(args.scale);
const GENERATORS = Number(args.generators);
const PROF_DIR = new URL('../results/prof/', import.meta.url).pathname;
const execArgv = (name) => (args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : []);
const dbName = `lds_bench_${process.pid}`;
const dbUrl = (() => { const u = new URL(ADMIN); u.pathname = '/' + dbName; return u.toString(); })();
const now = () => performance.timeOrigin + performance.now();

const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const pool = createPool(dbUrl, 6, 'lds-bench');
await migrate(pool);
const { rows: states } = await pool.query('SELECT state_id, state_abbr::text AS abbr FROM states ORDER BY state_id');
const BILLS_PER_STATE = Math.ceil((SECONDS * RATE * 4) / states.length) + 10;
for (const s of states) {
  await pool.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end) VALUES ($1, $2, 2026, 2026)`, [10_000_000 + s.state_id, s.state_id]);
  await pool.query(
    `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
     SELECT 10000000 + $1::int * 100000 + g, $1::smallint, 10000000 + $1::int, 'HB' || g, 'HB' || g, 1, 1, 'A bill concerning benchmark topic ' || g FROM generate_series(1, $2) g`,
    [s.state_id, BILLS_PER_STATE],
  );
}
const { api_key: key } = await createKey(pool, { org: 'bench', tier: 'enterprise', burst: 1_000_000 });

const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const ask = (proc, msg) => new Promise((r) => { proc.once('message', r); proc.send(msg); });
const cpuMs = (a, b) => (b.user + b.system - a.user - a.system) / 1000;

async function scenario(name, mode, clients, perState) {
  const gw = fork(new URL('./gateway.mjs', import.meta.url), [mode, dbUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: execArgv(`gateway-${mode}`) });
  const port = await new Promise((r) => gw.once('message', (m) => r(m.port)));
  const gens = [];
  for (let g = 0; g < GENERATORS; g++) {
    const p = fork(new URL('./load.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced', execArgv: execArgv(`load-${g}`) });
    await new Promise((r) => p.once('message', r));
    gens.push(p);
  }
  await new Promise((r) => setTimeout(r, 500));
  const base = await ask(gw, 'stats');
  const subs = new Map(); // state -> subscriber count
  const perGen = gens.map(() => []);
  for (let i = 0; i < clients; i++) {
    const state = perState ? states[i % states.length].abbr : null;
    if (state) subs.set(state, (subs.get(state) ?? 0) + 1);
    perGen[i % GENERATORS].push(state);
  }
  const t0 = Date.now();
  // a bounded number of handshakes in flight (200 in all), like a crowd reconnecting
  await Promise.all(gens.map((p, g) => ask(p, { cmd: 'open', port, key, states: perGen[g], concurrency: Math.ceil(200 / GENERATORS) })));
  const acceptMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  const idle = await ask(gw, 'stats');
  const genIdle = await Promise.all(gens.map((p) => ask(p, { cmd: 'stats' })));
  // writer: RATE changes per second, round-robin over states, each on a fresh bill id
  const commitAt = new Map();
  let expected = 0;
  const total = SECONDS * RATE;
  const startW = performance.now();
  const used = new Map();
  for (let n = 0; n < total; n++) {
    const s = states[n % states.length];
    const k = (used.get(s.abbr) ?? 0) + 1;
    used.set(s.abbr, k);
    const billId = 10_000_000 + s.state_id * 100_000 + k + (mode === 'naive' ? Math.floor(BILLS_PER_STATE / 2) : 0);
    const c = await pool.connect();
    await c.query('BEGIN');
    await recordChanges(c, [{ bill_id: billId, state_id: s.state_id, reason: 'StatusChange' }]);
    await c.query('COMMIT');
    c.release();
    commitAt.set(billId, now());
    expected += perState ? (subs.get(s.abbr) ?? 0) : clients;
    const wait = startW + ((n + 1) / RATE) * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const loadEnd = performance.now();
  const busy = await ask(gw, 'stats');
  const deadline = Date.now() + 20_000;
  let delivered = 0;
  let genBusy;
  for (;;) {
    genBusy = await Promise.all(gens.map((p) => ask(p, { cmd: 'stats' })));
    delivered = genBusy.reduce((a, g) => a + g.delivered, 0);
    if (delivered >= expected || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const latencies = [];
  for (const p of gens) {
    const { ids, times } = await ask(p, { cmd: 'collect' });
    for (let i = 0; i < ids.length; i++) {
      const c = commitAt.get(ids[i]);
      if (c !== undefined) latencies.push(times[i] - c);
    }
  }
  latencies.sort((a, b) => a - b);
  const loadMs = loadEnd - startW;
  const gwCpu = cpuMs(idle.cpu, busy.cpu);
  const genCpu = genBusy.reduce((a, g, i) => a + cpuMs(genIdle[i].cpu, g.cpu), 0);
  const result = {
    scenario: name, mode, clients, changes: total, expected, delivered, lost: expected - delivered,
    latency_ms: { p50: +pct(latencies, 50).toFixed(2), p99: +pct(latencies, 99).toFixed(2), max: +latencies.at(-1).toFixed(2) },
    accept_ms: acceptMs,
    rss_per_idle_conn_kib: +((idle.rss - base.rss) / clients / 1024).toFixed(2),
    rss_mib: +(busy.rss / 1048576).toFixed(1),
    cpu_pct_under_load: +((gwCpu / loadMs) * 100).toFixed(1),
    cpu_us_per_delivery: +((gwCpu * 1000) / Math.max(1, delivered)).toFixed(2),
    generator_cpu_pct: +((genCpu / loadMs) * 100).toFixed(1),
    generators: GENERATORS,
  };
  for (const p of gens) { p.send({ cmd: 'exit' }); await new Promise((r) => p.once('exit', r)); }
  gw.send('exit');
  await new Promise((r) => gw.once('exit', r));
  // reset the change log between scenarios so each gateway starts from an empty stream
  await pool.query('DELETE FROM changes');
  return result;
}

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
const plan = [];
for (const sc of ['a', 'b']) {
  if (args.scenario !== 'all' && args.scenario !== sc) continue;
  for (const mode of ['hub', 'naive']) {
    if (args.mode !== 'both' && args.mode !== mode) continue;
    const label = sc === 'a' ? 'a) 10k clients, one state each' : 'b) 1k clients, all states';
    plan.push([`${label}${mode === 'naive' ? ' (naive)' : ''}`, mode, (sc === 'a' ? 10_000 : 1_000) * SCALE, sc === 'a']);
  }
}
const results = [];
const loadBefore = loadavg();
try {
  for (const p of plan) results.push({ ...(await scenario(...p)), loadavg: loadavg() });
} finally {
  await pool.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
console.table(results.map((r) => ({ scenario: r.scenario, clients: r.clients, expected: r.expected, delivered: r.delivered, p50: r.latency_ms.p50, p99: r.latency_ms.p99, max: r.latency_ms.max, accept_ms: r.accept_ms, 'KiB/conn': r.rss_per_idle_conn_kib, 'cpu%': r.cpu_pct_under_load, 'us/deliv': r.cpu_us_per_delivery, 'gen cpu%': r.generator_cpu_pct, loadavg: r.loadavg })));
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const out = process.env.BENCH_OUT ?? new URL('../results/stream.json', import.meta.url).pathname;
fs.writeFileSync(out, JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, loadavg_before: loadBefore, seconds: SECONDS, rate: RATE, generators: GENERATORS, results }, null, 2) + '\n');
console.log(`saved ${out}`);
