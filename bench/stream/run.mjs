// Stream benchmark: one gateway process (bench/stream/gateway.mjs), load generator processes
// (bench/stream/load.mjs: raw sockets, hand-written HTTP, events found by scanning bytes) and this
// process as the writer (commits changes at a fixed rate, one transaction each, noting each commit
// time). Scenarios, each at 100 changes/s round-robin over the 52 state codes:
//   a) 10,000 clients, each filtered to one state
//   b) 18,000 clients, each filtered to one state
//   c) 1,000 clients on all states
//   d) reconnect storm: 10,000 one-state clients, each dropping its connection at a random moment
//      within 10 s while changes flow and reconnecting with Last-Event-ID
// each against the real app (mode hub) and against the bare baseline (mode bare: node:http writing
// one pre-built frame per matching client), in the same run, with the same relay and writer.
// Latency is commit-to-client: the writer's commit time to the generator's receive time (both on
// the wall clock with sub-millisecond resolution), so it includes NOTIFY, relay stamping and the bus.
// Bill ids follow commit order, so every client must see strictly increasing ids: the generators
// count a repeated id as a duplicate, and lost = expected - distinct delivered.
// Needs DATABASE_URL (a PostgreSQL server where it may create a database) and `npm run build`.
// Raise the descriptor limit first (18,000 clients in one process): ulimit -n 65536, or up to the
// hard limit where that is lower; the limit in force is saved with the results.
//   node bench/stream/run.mjs [--scenario a|b|c|d|all] [--mode hub|bare|both] [--seconds 15]
//                             [--generators 2] [--scale 1] [--cpu-prof]
// --scale multiplies client counts (small runs while the machine is shared); --cpu-prof writes V8
// profiles of the gateway and generators to bench/results/prof/.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '../../dist/keys/store.js';
import { migrate } from '../../dist/db/migrate.js';
import { createPool } from '../../dist/db/pool.js';
import { recordChanges } from '../../dist/changes/record.js';
import { machineCpu, profileShare, report, summary } from './report.mjs';

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
const STORM = { afterMs: 2000, windowMs: 10_000 };
const SCENARIOS = {
  a: { label: 'a) 10,000 clients, one state each', clients: 10_000, perState: true },
  b: { label: 'b) 18,000 clients, one state each', clients: 18_000, perState: true },
  c: { label: 'c) 1,000 clients, all states', clients: 1_000, perState: false },
  d: {
    label: 'd) reconnect storm: 10,000 one-state clients resume within 10 s',
    clients: 10_000,
    perState: true,
    storm: STORM,
  },
};
// the storm needs changes flowing before, during and after it
const secondsOf = (sc) => (sc.storm ? Math.max(SECONDS, (STORM.afterMs + STORM.windowMs) / 1000 + 3) : SECONDS);
const PROF_DIR = new URL('../results/prof/', import.meta.url).pathname;
const profName = (name) => `${name}-${process.pid}-${Date.now()}.cpuprofile`;
const execArgv = (file) =>
  args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`, `--cpu-prof-name=${file}`] : [];
const dbName = `lds_bench_${process.pid}`;
const dbUrl = (() => {
  const u = new URL(ADMIN);
  u.pathname = '/' + dbName;
  return u.toString();
})();
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ask = (proc, msg) =>
  new Promise((r) => {
    proc.once('message', r);
    proc.send(msg);
  });
const cpuMs = (a, b) => ({ user: (b.user - a.user) / 1000, system: (b.system - a.system) / 1000 });
const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);

const plan = [];
for (const [key, sc] of Object.entries(SCENARIOS)) {
  if (args.scenario !== 'all' && !args.scenario.split(',').includes(key)) continue;
  for (const mode of ['hub', 'bare'])
    if (args.mode === 'both' || args.mode === mode)
      plan.push({ key, ...sc, clients: Math.round(sc.clients * SCALE), mode });
}

const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const pool = createPool(dbUrl, 6, 'lds-bench');
await migrate(pool);
const { rows: states } = await pool.query('SELECT state_id, state_abbr::text AS abbr FROM states ORDER BY state_id');
// One bill per change of the whole run, ids in commit order, bill n in state n mod 52.
const BILL_BASE = 10_000_000;
const totalChanges = plan.reduce((a, p) => a + secondsOf(p) * RATE, 0);
for (const s of states) {
  await pool.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end) VALUES ($1, $2, 2026, 2026)`, [
    BILL_BASE + s.state_id,
    s.state_id,
  ]);
}
await pool.query(
  `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
   SELECT $1::int + g, s.state_id, $1::int + s.state_id, 'HB' || g, 'HB' || g, 1, 1, 'A bill concerning benchmark topic ' || g
   FROM generate_series(0, $2::int - 1) g JOIN (SELECT state_id, (row_number() OVER (ORDER BY state_id) - 1)::int AS i FROM states) s ON s.i = g % $3::int`,
  [BILL_BASE, totalChanges, states.length],
);
const { api_key: key } = await createKey(pool, { org: 'bench', tier: 'enterprise', burst: 1_000_000 });
let nextBill = 0;

async function scenario(p) {
  const gwProf = profName(`gateway-${p.key}-${p.mode}`);
  const gw = fork(new URL('./gateway.mjs', import.meta.url), [p.mode, dbUrl], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: execArgv(gwProf),
  });
  const port = await new Promise((r) => gw.once('message', (m) => r(m.port)));
  const gens = [];
  for (let g = 0; g < GENERATORS; g++) {
    const proc = fork(new URL('./load.mjs', import.meta.url), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      execArgv: execArgv(profName(`load-${p.key}-${p.mode}-${g}`)),
    });
    await new Promise((r) => proc.once('message', r));
    gens.push(proc);
  }
  await sleep(500);
  const base = await ask(gw, 'stats');
  const subs = new Map(); // state -> subscriber count
  const perGen = gens.map(() => []);
  for (let i = 0; i < p.clients; i++) {
    const state = p.perState ? states[i % states.length].abbr : null;
    if (state) subs.set(state, (subs.get(state) ?? 0) + 1);
    perGen[i % GENERATORS].push(state);
  }
  // an explicit since (before any change of this run) so a client that saw nothing yet resumes from it
  const since = new Date().toISOString().replace('Z', '000Z');
  const t0 = Date.now();
  // a bounded number of handshakes in flight (200 in all), like a crowd reconnecting
  await Promise.all(
    gens.map((proc, g) =>
      ask(proc, { cmd: 'open', port, key, since, states: perGen[g], concurrency: Math.ceil(200 / GENERATORS) }),
    ),
  );
  const acceptMs = Date.now() - t0;
  await sleep(1000);
  const idle = await ask(gw, 'stats');
  const genIdle = await Promise.all(gens.map((proc) => ask(proc, { cmd: 'stats' })));
  const cpuBefore = machineCpu();
  // writer: RATE changes per second, round-robin over states, each on a fresh bill id
  const commitAt = new Map();
  let expected = 0;
  const total = secondsOf(p) * RATE;
  const startW = performance.now();
  const storm = p.storm
    ? sleep(p.storm.afterMs).then(() =>
        Promise.all(gens.map((proc) => ask(proc, { cmd: 'storm', port, key, since, windowMs: p.storm.windowMs }))),
      )
    : undefined;
  for (let n = 0; n < total; n++) {
    const g = nextBill++;
    const s = states[g % states.length];
    const billId = BILL_BASE + g;
    const c = await pool.connect();
    await c.query('BEGIN');
    await recordChanges(c, [{ bill_id: billId, state_id: s.state_id, reason: 'StatusChange' }]);
    await c.query('COMMIT');
    c.release();
    commitAt.set(billId, now());
    expected += p.perState ? (subs.get(s.abbr) ?? 0) : p.clients;
    const wait = startW + ((n + 1) / RATE) * 1000 - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const loadMs = performance.now() - startW;
  const busy = await ask(gw, 'stats');
  const cpuAfter = machineCpu();
  const stormResult = storm ? await storm : undefined;
  const deadline = Date.now() + 20_000;
  let genBusy;
  for (;;) {
    genBusy = await Promise.all(gens.map((proc) => ask(proc, { cmd: 'stats' })));
    if (genBusy.reduce((a, g) => a + g.delivered, 0) >= expected || Date.now() > deadline) break;
    await sleep(200);
  }
  const latencies = [];
  let duplicates = 0;
  for (const proc of gens) {
    const { ids, times, duplicates: d } = await ask(proc, { cmd: 'collect' });
    duplicates += d;
    for (let i = 0; i < ids.length; i++) {
      const c = commitAt.get(ids[i]);
      if (c !== undefined) latencies.push(times[i] - c);
    }
  }
  latencies.sort((a, b) => a - b);
  const delivered = latencies.length;
  const gwCpu = cpuMs(idle.cpu, busy.cpu);
  const genCpu = genBusy.reduce((a, g, i) => {
    const c = cpuMs(genIdle[i].cpu, g.cpu);
    return a + c.user + c.system;
  }, 0);
  const machine = cpuAfter.minus(cpuBefore);
  const result = {
    scenario: p.label,
    key: p.key,
    mode: p.mode,
    clients: p.clients,
    connected: idle.connections,
    changes: total,
    expected,
    delivered,
    lost: expected - delivered,
    duplicates,
    latency_ms: {
      p50: +pct(latencies, 50).toFixed(2),
      p99: +pct(latencies, 99).toFixed(2),
      max: +(latencies.at(-1) ?? NaN).toFixed(2),
    },
    accept_ms: acceptMs,
    rss_per_conn_kib: +((idle.rss - base.rss) / p.clients / 1024).toFixed(2),
    rss_mib: +(busy.rss / 1048576).toFixed(1),
    gateway_cpu_pct: +(((gwCpu.user + gwCpu.system) / loadMs) * 100).toFixed(1),
    gateway_cpu_user_pct: +((gwCpu.user / loadMs) * 100).toFixed(1),
    gateway_cpu_system_pct: +((gwCpu.system / loadMs) * 100).toFixed(1),
    gateway_cpu_us_per_delivery: +(((gwCpu.user + gwCpu.system) * 1000) / Math.max(1, delivered)).toFixed(2),
    generator_cpu_pct: +((genCpu / loadMs) * 100).toFixed(1),
    machine_cpu: machine,
    generators: GENERATORS,
  };
  if (stormResult) {
    result.storm = {
      window_ms: p.storm.windowMs,
      resumed: stormResult.reduce((a, s) => a + s.resumed, 0),
      with_last_event_id: stormResult.reduce((a, s) => a + s.with_last_event_id, 0),
      all_back_ms: +Math.max(...stormResult.map((s) => s.all_back_ms)).toFixed(0),
      last_left_ms: +Math.max(...stormResult.map((s) => s.last_left_ms)).toFixed(0),
      reconnect_p50_ms: +Math.max(...stormResult.map((s) => s.reconnect_p50_ms)).toFixed(1),
      reconnect_max_ms: +Math.max(...stormResult.map((s) => s.reconnect_max_ms)).toFixed(1),
    };
  }
  for (const proc of gens) {
    proc.send({ cmd: 'exit' });
    await new Promise((r) => proc.once('exit', r));
  }
  gw.send('exit');
  await new Promise((r) => gw.once('exit', r));
  if (args['cpu-prof']) result.gateway_profile = profileShare(PROF_DIR + gwProf, idle.hrUs, busy.hrUs);
  // reset the change log between runs so each gateway starts from an empty stream
  await pool.query('DELETE FROM changes');
  return result;
}

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
const fdLimit = /Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1];
const results = [];
const loadBefore = loadavg();
try {
  for (const p of plan) {
    results.push({ ...(await scenario(p)), loadavg: loadavg() });
    console.log(summary(results.at(-1)));
  }
} finally {
  await pool.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
report(results);
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const out = process.env.BENCH_OUT ?? new URL('../results/stream.json', import.meta.url).pathname;
fs.writeFileSync(
  out,
  JSON.stringify(
    {
      measured_at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      fd_limit: Number(fdLimit),
      loadavg_before: loadBefore,
      seconds: SECONDS,
      rate: RATE,
      generators: GENERATORS,
      scale: SCALE,
      results,
    },
    null,
    2,
  ) + '\n',
);
console.log(`saved ${out}`);
