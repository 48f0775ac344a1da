// Stream benchmark: one gateway process (bench/stream/gateway.mjs), this process as load generator
// (raw sockets, hand-written HTTP, events counted by scanning the bytes) and writer (commits
// changes at a fixed rate, noting each commit time by bill id). Scenarios:
//   a) 10,000 clients, each filtered to one state, 100 changes/s spread across states
//   b) 1,000 clients on all states, 100 changes/s
// each against the real hub and against a naive broadcaster (the baseline), in the same run.
// Needs DATABASE_URL (a PostgreSQL server where it may create a database) and `npm run build`.
// Raise the descriptor limit first if needed: ulimit -n 65536.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { createKey } from '../../dist/keys/store.js';
import { migrate } from '../../dist/db/migrate.js';
import { createPool } from '../../dist/db/pool.js';
import { recordChanges } from '../../dist/changes/record.js';

const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = 100;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const dbName = `lds_bench_${process.pid}`;
const dbUrl = (() => { const u = new URL(ADMIN); u.pathname = '/' + dbName; return u.toString(); })();

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

const pct = (xs, p) => xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : null;

async function scenario(name, mode, clients, perState) {
  const gw = fork(new URL('./gateway.mjs', import.meta.url), [mode, dbUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((r) => gw.once('message', (m) => r(m.port)));
  const stats = () => new Promise((r) => { gw.once('message', r); gw.send('stats'); });
  await new Promise((r) => setTimeout(r, 500));
  const base = await stats();
  const commitAt = new Map();
  const latencies = [];
  const subs = new Map(); // state -> subscriber count
  let delivered = 0;
  let opened = 0;
  const sockets = [];
  const t0 = Date.now();
  await new Promise((resolve, reject) => {
    let started = 0;
    const openOne = () => {
      if (started >= clients) return;
      const i = started++;
      const state = perState ? states[i % states.length].abbr : null;
      if (state) subs.set(state, (subs.get(state) ?? 0) + 1);
      const sock = net.connect(port, '127.0.0.1');
      sockets.push(sock);
      let buf = '';
      let open = false;
      sock.setEncoding('utf8');
      sock.on('connect', () => sock.write(`GET /v1/stream${state ? `?states=${state}` : ''} HTTP/1.1\r\nHost: bench\r\nX-API-Key: ${key}\r\n\r\n`));
      sock.on('data', (d) => {
        buf += d;
        if (!open && buf.includes('lds-stream v1')) {
          open = true;
          if (++opened === clients) resolve();
          openOne();
        }
        const end = buf.lastIndexOf('\n\n');
        if (end < 0) return;
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (!block.includes('\nid: ')) return;
        const now = performance.now();
        for (const m of block.matchAll(/"bill_id":(\d+)/g)) {
          delivered++;
          const c = commitAt.get(Number(m[1]));
          if (c !== undefined) latencies.push(now - c);
        }
      });
      sock.on('error', reject);
    };
    // a bounded number of handshakes in flight, like a crowd reconnecting
    for (let k = 0; k < 200; k++) openOne();
  });
  const acceptMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  const idle = await stats();
  // writer: RATE changes per second, round-robin over states, each on a fresh bill id
  let expected = 0;
  const total = SECONDS * RATE;
  const startW = performance.now();
  const used = new Map();
  for (let n = 0; n < total; n++) {
    const s = states[n % states.length];
    const k = (used.get(s.abbr) ?? 0) + 1;
    used.set(s.abbr, k);
    const billId = 10_000_000 + s.state_id * 100_000 + k + (name.includes('naive') ? BILLS_PER_STATE / 2 : 0);
    const c = await pool.connect();
    await c.query('BEGIN');
    await recordChanges(c, [{ bill_id: Math.floor(billId), state_id: s.state_id, reason: 'StatusChange' }]);
    await c.query('COMMIT');
    c.release();
    commitAt.set(Math.floor(billId), performance.now());
    expected += perState ? (subs.get(s.abbr) ?? 0) : clients;
    const wait = startW + ((n + 1) / RATE) * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const loadEnd = performance.now();
  const busy = await stats();
  const deadline = Date.now() + 20_000;
  while (delivered < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  latencies.sort((a, b) => a - b);
  const cpuMs = (busy.cpu.user + busy.cpu.system - idle.cpu.user - idle.cpu.system) / 1000;
  const result = {
    scenario: name, mode, clients, changes: total, expected, delivered, lost: expected - delivered,
    latency_ms: { p50: +pct(latencies, 50).toFixed(2), p99: +pct(latencies, 99).toFixed(2), max: +latencies.at(-1).toFixed(2) },
    accept_ms: acceptMs,
    rss_per_idle_conn_kib: +((idle.rss - base.rss) / clients / 1024).toFixed(2),
    rss_mib: +(busy.rss / 1048576).toFixed(1),
    cpu_pct_under_load: +((cpuMs / (loadEnd - startW)) * 100).toFixed(1),
    cpu_us_per_delivery: +((cpuMs * 1000) / Math.max(1, delivered)).toFixed(2),
  };
  for (const s of sockets) s.destroy();
  gw.send('exit');
  await new Promise((r) => gw.once('exit', r));
  // reset the change log between scenarios so each gateway starts from an empty stream
  await pool.query('DELETE FROM changes');
  return result;
}

const results = [];
try {
  results.push(await scenario('a) 10k clients, one state each', 'hub', 10_000 * SCALE, true));
  results.push(await scenario('a) 10k clients, one state each (naive)', 'naive', 10_000 * SCALE, true));
  results.push(await scenario('b) 1k clients, all states', 'hub', 1_000 * SCALE, false));
  results.push(await scenario('b) 1k clients, all states (naive)', 'naive', 1_000 * SCALE, false));
} finally {
  await pool.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
console.table(results.map((r) => ({ scenario: r.scenario, clients: r.clients, expected: r.expected, delivered: r.delivered, p50: r.latency_ms.p50, p99: r.latency_ms.p99, max: r.latency_ms.max, accept_ms: r.accept_ms, 'KiB/conn': r.rss_per_idle_conn_kib, 'cpu%': r.cpu_pct_under_load, 'us/deliv': r.cpu_us_per_delivery })));
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
fs.writeFileSync(new URL('../results/stream.json', import.meta.url), JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, seconds: SECONDS, rate: RATE, results }, null, 2) + '\n');
