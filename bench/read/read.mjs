// Read API benchmark: the app (`lds serve --role api`), a bare node:http baseline running the same
// repository SQL (baseline.mjs) and the load generator (load.mjs) each in a process of its own.
// Per endpoint, side by side: closed-loop maximum throughput of baseline and app, then a fixed
// open-loop rate (a quarter of the baseline's maximum by default) for both (p50/p99/max from each request's due time),
// with the CPU each server process spent per request.
//
// Usage (after `npm run build`; hold the machine's benchmark lock):
//   DATABASE_URL=postgres://.../db flock /work/bench.lock node bench/read/read.mjs --corpus 30k [--seconds 10] [--only bill,q_rare]
//     [--rate N: a fixed open-loop rate instead of --open-share (default 0.25) of the baseline's maximum] [--profile dir: the app and the baseline run under --cpu-prof, into dir/app and dir/baseline]
//     [--before dir: another build of the app measured beside it, e.g. the previous commit's]
//     [--before-env K=V,K=V: the --before app (this build when --before is not given) with these
//      variables, e.g. LOG_LEVEL=warn or NODE_OPTIONS=--max-semi-space-size=64, to measure one setting]
//     [--repeat N: each run N times, the servers taking turns, each turn starting with the next server; medians reported]
//     [--open-warmup S (default 1): each open-loop run first sends S seconds of the same schedule
//      uncounted, then measures; the warm-up's own p99/max are kept beside (load.mjs)]
//     [--server-warmup S (default 12): before the first case, each server gets S seconds of the
//      closed loop over every case's path in turn, so the first case measured does not meet a
//      server whose JIT is still compiling (the app's first 8 s of load compile about 100
//      functions a second); --warmup (default 2) still warms each case before it is measured]
//     [--perf: after the measured runs, one more open-loop run per server under Linux perf, which
//      splits each server's CPU per request by part (perf-split.mjs); needs `perf` installed]
// REDIS_URL and NATS_URL, when set, are passed to the app as a deployment sets them. Results of a
// corpus replace that corpus's entry in bench/results/read.json (a run with --only merges its cases).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { createPool } from '../../dist/db/pool.js';
import { createKey } from '../../dist/keys/store.js';
import { COMMON_WORD, RARE_WORD, readCases } from './cases.mjs';
import { perfTable, perRequest, removePerfMaps, startPerf, stopPerf } from './perf-split.mjs';

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    'server-warmup': { type: 'string', default: '12' },
    only: { type: 'string' },
    profile: { type: 'string' },
    before: { type: 'string' },
    'before-env': { type: 'string' },
    repeat: { type: 'string', default: '1' },
    rate: { type: 'string' },
    'open-share': { type: 'string', default: '0.25' },
    'open-warmup': { type: 'string', default: '1' },
    'no-save': { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
  },
});
const url = process.env.DATABASE_URL;
if (!url || !args.corpus) throw new Error('DATABASE_URL and --corpus <label> are required');
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const openWarmup = Number(args['open-warmup']);
const here = new URL('.', import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;
const CONNECTIONS = 50;
const POOL_SIZE = Number(process.env.DB_POOL_SIZE ?? 10);

const pool = createPool(url, 2, 'lds-bench');
const one = async (sql) => (await pool.query(sql)).rows[0];
const billCount = (await one('SELECT count(*)::int AS n FROM bills')).n;
const { bill_id: billId } = await one(
  'SELECT bill_id FROM bill_sponsors GROUP BY bill_id ORDER BY count(*) DESC, bill_id LIMIT 1',
);
const { state_abbr: state, state_id: stateId } =
  await one(`SELECT s.state_abbr::text AS state_abbr, s.state_id FROM bills b JOIN states s USING (state_id)
  GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`);
// The largest roll call by its header (counting member rows would read every member vote).
const { roll_call_id: rollCallId } = await one(
  'SELECT roll_call_id FROM roll_calls ORDER BY total DESC, roll_call_id LIMIT 1',
);
const ids = { billId, state, stateId, rollCallId, changesSince: '2000-01-01T00:00:00Z' };
const { api_key: key } = await createKey(pool, {
  org: 'bench-read',
  tier: 'enterprise',
  burst: 100_000_000,
  monthlyCap: 2_000_000_000,
});
await pool.end();

let cases = readCases(ids);
if (args.only) cases = cases.filter((c) => args.only.split(',').includes(c.key));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Every child is stopped when this process ends, however it ends.
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));
function runNode(argv, env, stdout = 'pipe') {
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function waitFor(fn, what, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await fn()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// The app as deployed: the CLI, role api, its default pool size and log level (access lines go
// to /dev/null here, but each is still formatted). Expensive reads (q=) keep their per-key slot
// bookkeeping, with room for every connection of the one benchmark key: the default of 1 would
// answer 429 to 49 of the 50 connections.
// --perf: JIT-compiled functions get names in perf's samples.
const perfFlags = args.perf ? ['--perf-basic-prof'] : [];
async function startApp(appRoot, profileDir, extraEnv = {}) {
  const port = await freePort();
  const argv = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...perfFlags,
    `${appRoot}bin/lds.js`,
    'serve',
    '--role',
    'api',
    '--port',
    String(port),
  ];
  // One key sends everything here, so the per-key shares of expensive reads (slots and time budget,
  // which keep one tenant's searches from crowding out the others) would answer most `q=` requests
  // 429; the capacity every key shares (the expensive-read pool) stays as deployed.
  const proc = runNode(
    argv,
    {
      DB_POOL_SIZE: String(POOL_SIZE),
      HOST: '127.0.0.1',
      EXPENSIVE_READS_PER_KEY: '1000',
      EXPENSIVE_READ_MS_PER_SEC: '0',
      ...extraEnv,
    },
    'ignore',
  );
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/v1/health`)).ok, 'app');
  return { proc, port };
}
const { proc: app, port: appPort } = await startApp(root, args.profile && `${args.profile}/app`);
// --before <dir>: another build of the app (a copy of bin/, dist/ and src/db/migrations with
// public/ and node_modules linked), measured in the same run for a before/after comparison.
const beforeEnv = Object.fromEntries(
  (args['before-env'] ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const before =
  args.before || args['before-env']
    ? await startApp((args.before ?? root).replace(/\/?$/, '/'), undefined, beforeEnv)
    : undefined;

// With --profile the baseline is profiled too (<dir>/baseline), so the two can be compared function by function.
const baseProf = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}/baseline`] : [];
const base = runNode([...baseProf, ...perfFlags, `${here}baseline.mjs`, JSON.stringify(ids)], {
  DB_POOL_SIZE: String(POOL_SIZE),
});
const basePort = await new Promise((resolve, reject) => {
  let out = '';
  base.stdout.on('data', (d) => {
    out += d;
    const m = /listening (\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  base.once('exit', (code) => reject(new Error(`baseline exited (${code})`)));
});

const headers = { 'x-api-key': key };
const target = (port, path) => `http://127.0.0.1:${port}${path}`;

function load(opts) {
  return new Promise((resolve, reject) => {
    const gen = runNode([`${here}load.mjs`, JSON.stringify(opts)], {});
    let out = '';
    gen.stdout.on('data', (d) => (out += d));
    gen.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`)),
    );
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

async function measured(pid, opts) {
  const cpu0 = cpuSeconds(pid);
  const r = await load(opts);
  const cpu = cpuSeconds(pid) - cpu0;
  // the server's CPU over the whole run, warm-up included, so per request of the whole run
  const answered = opts.mode === 'open' ? r.answered + (r.warmup_answered ?? 0) : r.rps * r.seconds;
  return { ...r, cpu_ms_per_req: answered ? Math.round((cpu * 1e6) / answered) / 1000 : null };
}

/** The app's and the baseline's bodies for a path, parsed: the two must serve the same data. */
async function sameBody(path) {
  const [a, b] = await Promise.all([
    fetch(target(appPort, path), { headers }).then(async (r) => ({ status: r.status, body: await r.json() })),
    fetch(target(basePort, path)).then(async (r) => ({ status: r.status, body: await r.json() })),
  ]);
  const rows = Array.isArray(a.body.data) ? a.body.data.length : undefined;
  return { same: a.status === 200 && isDeepStrictEqual(a.body, b.body), rows, bytes: JSON.stringify(a.body).length };
}

/** The run with the median of `field` (runs of one server, one mode), with every run's figures kept. */
function median(runs, field) {
  const sorted = [...runs].sort((a, b) => a[field] - b[field]);
  const m = sorted[(sorted.length - 1) >> 1];
  return runs.length === 1 ? m : { ...m, runs };
}
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
// Each turn starts with the next server: a server's place in the order moved its numbers (the one
// measured right after another's run found the machine busier), so over --repeat turns every
// server is measured at every place.
const inTurn = (list, turn) => list.map((_, i) => list[(i + turn) % list.length]);

// Servers measured per case: the baseline (its maximum sets the open rate), the app and the
// --before build. With --repeat N each mode runs N times, the servers taking turns (inTurn), and
// the medians are reported (throughput by req/s, latency by p99).
const servers = [
  { name: 'baseline', pid: base.pid, port: basePort, headers: {} },
  { name: 'app', pid: app.pid, port: appPort, headers },
  ...(before ? [{ name: 'before', pid: before.proc.pid, port: before.port, headers }] : []),
];
const repeat = Number(args.repeat);
// The fixed rate is a quarter of the baseline's closed-loop maximum by default (--open-share). At
// half, on 2 cores shared with PostgreSQL, the generator and other work, the baseline itself fell
// behind (p50 of seconds: one request at a time costs more than the closed loop's batches of 50),
// and latencies then measure how long the run lasted, not the server.
const openShare = Number(args['open-share']);

const serverWarmup = Number(args['server-warmup']);
if (serverWarmup > 0)
  for (const s of servers)
    for (const c of cases)
      await load({
        mode: 'closed',
        url: target(s.port, c.path),
        seconds: Math.max(1, Math.round(serverWarmup / cases.length)),
        connections: 10,
        headers: s.headers,
      });

/** The machine's CPU time stolen by the hypervisor (a virtual machine's neighbours), as a share of all, since `from`. */
function cpuTimes() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
}
const stealShare = (from) => {
  const now = cpuTimes();
  return now.total > from.total ? Math.round(((now.steal - from.steal) / (now.total - from.total)) * 1000) / 10 : 0;
};

const loadavgStart = os.loadavg();
const runStart = cpuTimes();
const results = [];
for (const c of cases) {
  const check = await sameBody(c.path);
  if (!check.same) console.error(`warning: ${c.name}: the app's and the baseline's bodies differ`);
  const loadavg = os.loadavg();
  const caseStart = cpuTimes();
  for (const s of servers)
    await load({ mode: 'closed', url: target(s.port, c.path), seconds: warmup, connections: 10, headers: s.headers });
  const closed = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let i = 0; i < repeat; i++) {
    for (const s of inTurn(servers, i))
      closed[s.name].push(
        await measured(s.pid, {
          mode: 'closed',
          url: target(s.port, c.path),
          seconds,
          connections: CONNECTIONS,
          headers: s.headers,
        }),
      );
  }
  const closedMed = Object.fromEntries(Object.entries(closed).map(([k, v]) => [k, median(v, 'rps')]));
  const rate = args.rate ? Number(args.rate) : Math.max(1, Math.round(closedMed.baseline.rps * openShare));
  const openRun = (s) => ({
    mode: 'open',
    url: target(s.port, c.path),
    seconds,
    rate,
    headers: s.headers,
    warmupSeconds: openWarmup,
  });
  const open = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let i = 0; i < repeat; i++) {
    for (const s of inTurn(servers, i)) open[s.name].push(await measured(s.pid, openRun(s)));
  }
  const openMed = Object.fromEntries(Object.entries(open).map(([k, v]) => [k, median(v, 'p99_ms')]));
  // --perf: one more open run per server, sampled, outside the medians (perf's own work would move them).
  const perf = {};
  if (args.perf) {
    for (const s of servers) {
      const file = `${os.tmpdir()}/lds-read-${s.name}-${process.pid}.perf.data`;
      const rec = await startPerf(s.pid, file);
      const o = await load(openRun(s));
      perf[s.name] = perRequest(await stopPerf(rec, file, s.pid), o.answered + (o.warmup_answered ?? 0));
    }
  }
  const r = {
    key: c.key,
    endpoint: c.name,
    path: c.path,
    same_body: check.same,
    rows: check.rows,
    body_bytes: check.bytes,
    loadavg,
    steal_pct: stealShare(caseStart),
    closed: {
      app: closedMed.app,
      baseline: closedMed.baseline,
      ratio: ratio(closedMed.app.rps, closedMed.baseline.rps),
    },
    open: {
      rate,
      app: openMed.app,
      baseline: openMed.baseline,
      p99_ratio: ratio(openMed.app.p99_ms, openMed.baseline.p99_ms),
    },
    ...(before
      ? {
          before: {
            closed: closedMed.before,
            open: openMed.before,
            ratio: ratio(closedMed.before.rps, closedMed.baseline.rps),
            p99_ratio: ratio(openMed.before.p99_ms, openMed.baseline.p99_ms),
          },
        }
      : {}),
    ...(args.perf ? { perf_us_per_req: perf } : {}),
  };
  results.push(r);
  const b = r.before;
  console.error(
    `${c.name}: closed ${r.closed.app.rps}/${r.closed.baseline.rps} (${r.closed.ratio}), open ${rate}/s p99 ${r.open.app.p99_ms}/${r.open.baseline.p99_ms} ms (${r.open.p99_ratio}x)` +
      `, CPU ${r.open.app.cpu_ms_per_req}/${r.open.baseline.cpu_ms_per_req} ms/req` +
      (b
        ? `; before: closed ${b.closed.rps} (${b.ratio}), p99 ${b.open.p99_ms} ms (${b.p99_ratio}x), CPU ${b.open.cpu_ms_per_req} ms/req`
        : '') +
      // the warm-up's own tail: what a server just back from idle (and a cold client) costs
      (openWarmup > 0
        ? `; warm-up p99/max by run: ${servers.map((s) => `${s.name} ${open[s.name].map((o) => `${o.warmup_p99_ms}/${o.warmup_max_ms}`).join(', ')}`).join('; ')} ms`
        : '') +
      // one run's p99 moves 2-5x from run to run on a shared machine: show every run's beside the medians
      (repeat > 1
        ? `; open p99 by run: ${servers.map((s) => `${s.name} ${open[s.name].map((o) => o.p99_ms).join('/')}`).join(', ')} ms` +
          `; closed req/s by run: ${servers.map((s) => `${s.name} ${closed[s.name].map((o) => o.rps).join('/')}`).join(', ')}` +
          `; open CPU ms/req by run: ${servers.map((s) => `${s.name} ${open[s.name].map((o) => o.cpu_ms_per_req).join('/')}`).join(', ')}`
        : ''),
  );
}
const loadavgEnd = os.loadavg();
const stealPct = stealShare(runStart);

// Each server's peak resident memory over the whole run (VmHWM): a runtime setting that buys CPU
// with memory (a larger young generation) shows its price here.
const peakRss = Object.fromEntries(
  servers.map((s) => {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${s.pid}/status`, 'utf8'));
    return [s.name, m ? Math.round(Number(m[1]) / 1024) : null];
  }),
);
const procs = [app, base, ...(before ? [before.proc] : [])];
for (const p of procs) p.kill('SIGTERM');
if (args.perf) removePerfMaps(procs.map((p) => p.pid));
await Promise.all(
  procs.map(
    (p) =>
      new Promise((r) => {
        const t = setTimeout(() => p.kill('SIGKILL'), 10_000);
        p.once('exit', () => r(clearTimeout(t)));
      }),
  ),
);

const la = (l) => l.map((x) => x.toFixed(2)).join(' ');
/** The open-loop generator could not send on schedule (its own process starved of CPU): its latencies then include its lag. */
const generatorBehind = (o) => o.max_send_lag_ms > 50 || o.achieved_rps < 0.95 * o.rate;
console.log(
  `\nRead API, ${billCount.toLocaleString('en-US')} bills (${args.corpus}); ${os.cpus().length} cores, loadavg ${la(loadavgStart)} → ${la(loadavgEnd)}, ${stealPct} % of CPU time stolen by the hypervisor`,
);
console.log(
  `closed: ${CONNECTIONS} connections, ${seconds} s; open: ${args.rate ? `${args.rate}/s` : `${openShare} of the baseline's max`}, ${seconds} s after ${openWarmup} s of warm-up; DB pool ${POOL_SIZE} each`,
);
console.log(`peak RSS: ${servers.map((s) => `${s.name} ${peakRss[s.name]} MiB`).join(', ')}\n`);
console.log(
  '| endpoint | app req/s | baseline req/s | ratio (≥ 0.9) | rate | app p50 / p99 / max | baseline p50 / p99 / max | p99 ratio (≤ 1.5) | CPU ms/req app / base |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const o = r.open;
  const failed = [r.closed.app, o.app, r.closed.baseline, o.baseline].some((x) => x.non2xx || x.errors)
    ? ' (non-2xx or errors: see JSON)'
    : '';
  const behind = [o.app, o.baseline].some(generatorBehind)
    ? ' (generator fell behind: latencies not valid, see JSON)'
    : '';
  console.log(
    `| ${r.endpoint}${r.same_body ? '' : ' (bodies differ)'}${failed}${behind} | ${r.closed.app.rps} | ${r.closed.baseline.rps} | ${r.closed.ratio} | ${o.rate}/s | ` +
      `${o.app.p50_ms} / ${o.app.p99_ms} / ${o.app.max_ms} ms | ${o.baseline.p50_ms} / ${o.baseline.p99_ms} / ${o.baseline.max_ms} ms | ${o.p99_ratio} | ` +
      `${r.open.app.cpu_ms_per_req} / ${r.open.baseline.cpu_ms_per_req} |`,
  );
}

if (args.perf) {
  console.log(`\nCPU per request by part, µs (perf, one more open run per server at the same rate; perf-split.mjs)\n`);
  console.log(
    perfTable(
      results.flatMap((r) =>
        Object.entries(r.perf_us_per_req).map(([server, us]) => ({ endpoint: r.endpoint, server, us })),
      ),
    ),
  );
}

if (!args['no-save']) {
  const file = new URL('../results/read.json', import.meta.url);
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const corpora = previous.corpora ?? {};
  const kept = args.only
    ? (corpora[args.corpus]?.results ?? []).filter((r) => !results.some((n) => n.key === r.key))
    : [];
  const order = readCases(ids).map((c) => c.key);
  corpora[args.corpus] = {
    measured_at: new Date().toISOString(),
    bills: billCount,
    cores: os.cpus().length,
    loadavg_start: loadavgStart,
    loadavg_end: loadavgEnd,
    steal_pct: stealPct,
    peak_rss_mib: peakRss,
    node: process.version,
    connections: CONNECTIONS,
    seconds_per_run: seconds,
    repeat,
    db_pool_size: POOL_SIZE,
    open_rate: args.rate ? Number(args.rate) : `${openShare} of the baseline's closed-loop maximum`,
    open_warmup_seconds: openWarmup,
    server_warmup_seconds: serverWarmup,
    redis: Boolean(process.env.REDIS_URL),
    nats: Boolean(process.env.NATS_URL),
    ids,
    ...(before ? { before: { dir: args.before ?? 'this build', env: beforeEnv } } : {}),
    words: { common: COMMON_WORD, rare: RARE_WORD },
    results: [...kept, ...results].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key)),
  };
  writeFileSync(
    file,
    JSON.stringify(
      { description: 'bench/read/read.mjs: app, baseline and load generator in separate processes', corpora },
      null,
      2,
    ) + '\n',
  );
}
