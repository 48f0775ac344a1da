// What the key check and the limits cost: /v1/health without a key (baseline) and with a key, with
// counters in-process and (when REDIS_URL is set) in Redis. Target: the authenticated path keeps at
// least 80% of the baseline throughput with Redis.
//   DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379 node bench/http-auth.mjs
// Needs a compiled tree: npx tsc -p tsconfig.build.json
import { writeFile, mkdir } from 'node:fs/promises';
import autocannon from 'autocannon';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { createPool } from '../dist/db/pool.js';
import { migrate } from '../dist/db/migrate.js';
import { MemoryBus } from '../dist/bus/memory.js';
import { createKey } from '../dist/keys/store.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// A database of its own, so the bench never writes into a real one.
const databaseUrl = (() => { const u = new URL(adminUrl); u.pathname = '/lds_bench_http'; return u.toString(); })();
{
  const admin = createPool(adminUrl, 1);
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'lds_bench_http'`);
  if (!rowCount) await admin.query('CREATE DATABASE lds_bench_http');
  await admin.end();
}

async function start(redisUrl) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'silent', LDS_ROLES: 'api' });
  const db = createPool(databaseUrl, 4);
  const bus = new MemoryBus();
  const app = await buildApp(config, { db, logger: false, bus, databaseUrl });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, db, bus };
}

function run(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${url}/v1/health`, connections: CONNECTIONS, duration: DURATION, headers }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

const pool = createPool(databaseUrl, 2);
await migrate(pool);
const key = await createKey(pool, { org: 'bench', tier: 'enterprise', monthlyCap: 2_000_000_000, burst: 10_000_000 });

const modes = [['in-process', undefined], ...(process.env.REDIS_URL ? [['redis', process.env.REDIS_URL]] : [])];
const rows = [];
for (const [mode, redisUrl] of modes) {
  const s = await start(redisUrl);
  await run(s.url, {}); // warm-up is the first measured run's cost otherwise
  // Interleaved pairs, so drift in the load of a shared machine hits both sides alike.
  const a1 = await run(s.url, {});
  const k1 = await run(s.url, { 'x-api-key': key.api_key });
  const k2 = await run(s.url, { 'x-api-key': key.api_key });
  const a2 = await run(s.url, {});
  const merge = (x, y) => ({ non2xx: x.non2xx + y.non2xx, requests: { average: (x.requests.average + y.requests.average) / 2 }, latency: { p99: Math.max(x.latency.p99, y.latency.p99) } });
  const anon = merge(a1, a2);
  const keyed = merge(k1, k2);
  const ok = keyed.non2xx === 0 && anon.non2xx === 0;
  rows.push({
    mode,
    anon_rps: Math.round(anon.requests.average),
    keyed_rps: Math.round(keyed.requests.average),
    anon_p99_ms: anon.latency.p99,
    keyed_p99_ms: keyed.latency.p99,
    ratio: Number((keyed.requests.average / anon.requests.average).toFixed(3)),
    all_2xx: ok,
  });
  await s.app.close();
  await s.db.end();
  await s.bus.close();
}
await pool.query('DELETE FROM usage_counters WHERE api_key_id = $1', [key.api_key_id]);
await pool.query('DELETE FROM api_keys WHERE api_key_id = $1', [key.api_key_id]);
await pool.end();

console.table(rows);
const out = { name: 'http-auth', date: new Date().toISOString(), node: process.version, duration_s: DURATION, connections: CONNECTIONS, target_ratio: 0.8, rows };
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/http-auth.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
