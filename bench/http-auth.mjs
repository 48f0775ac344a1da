// What the key check and the limits cost: /v1/status (public, a cached snapshot) without a key (baseline)
// and with a key (/v1/health is a probe and never reads the key), with
// counters in-process and (when REDIS_URL is set) in Redis. Target: the authenticated path keeps at
// least 80% of the baseline throughput with Redis.
//   DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379 node bench/http-auth.mjs
// Needs a compiled tree: npx tsc -p tsconfig.build.json
//
// The server runs in a child process (as in production) so the load generator does not share its
// event loop; BENCH_PROFILE=1 starts it with --cpu-prof (profiles land in bench/results/prof/).
import { writeFile, mkdir, readFile } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// A database of its own, so the bench never writes into a real one.
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = '/lds_bench_http';
  return u.toString();
})();

if (process.argv[2] === '--serve') {
  const { buildApp } = await import('../dist/app.js');
  const { loadConfig } = await import('../dist/config.js');
  const { createPool } = await import('../dist/db/pool.js');
  const { MemoryBus } = await import('../dist/bus/memory.js');
  const redisUrl = process.argv[3] || undefined;
  const config = loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'silent', LDS_ROLES: 'api' });
  const db = createPool(databaseUrl, 4);
  const bus = new MemoryBus();
  const { createRedis } = await import('../dist/redis/client.js');
  const { deliveryKinds } = await import('../dist/delivery-kinds.js');
  const { Outbound } = await import('../dist/webhooks/delivery/outbound.js');
  const { createLogger } = await import('../dist/logger.js');
  const redis = redisUrl ? createRedis(redisUrl, createLogger('silent', { pretty: false })) : undefined;
  const outbound = new Outbound({ allowedHosts: [], timeoutMs: config.webhookTimeoutMs });
  const app = await buildApp(config, { db, logger: false, bus, databaseUrl, redis, outbound, kinds: deliveryKinds() });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send({ url });
  process.on('message', async () => {
    await app.close();
    await db.end();
    await bus.close();
    process.exit(0);
  });
} else {
  const autocannon = (await import('autocannon')).default;
  const { createPool } = await import('../dist/db/pool.js');
  const { migrate } = await import('../dist/db/migrate.js');
  const { createKey } = await import('../dist/keys/store.js');
  {
    const admin = createPool(adminUrl, 1);
    const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'lds_bench_http'`);
    if (!rowCount) await admin.query('CREATE DATABASE lds_bench_http');
    await admin.end();
  }

  const profDir = fileURLToPath(new URL('./results/prof/', import.meta.url));
  function start(redisUrl) {
    const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
    const child = fork(fileURLToPath(import.meta.url), ['--serve', redisUrl ?? ''], { execArgv });
    return new Promise((resolve, reject) => {
      child.once('message', (m) =>
        resolve({
          url: m.url,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.send('stop');
            }),
        }),
      );
      child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
  }

  function run(url, headers, duration = DURATION) {
    return new Promise((resolve, reject) => {
      autocannon({ url: `${url}/v1/status`, connections: CONNECTIONS, duration, headers }, (err, r) =>
        err ? reject(err) : resolve(r),
      );
    });
  }

  const pool = createPool(databaseUrl, 2);
  await migrate(pool);
  const key = await createKey(pool, { org: 'bench', tier: 'enterprise', monthlyCap: 2_000_000_000, burst: 10_000_000 });

  const modes = [['in-process', undefined], ...(process.env.REDIS_URL ? [['redis', process.env.REDIS_URL]] : [])];
  const rows = [];
  const load = [loadavg()[0]];
  for (const [mode, redisUrl] of modes) {
    const s = await start(redisUrl);
    // Warm-up (JIT, key cache, counter seed) on both paths.
    await run(s.url, {}, 2);
    await run(s.url, { 'x-api-key': key.api_key }, 2);
    // Interleaved pairs, so drift in the load of a shared machine hits both sides alike.
    const a1 = await run(s.url, {});
    const k1 = await run(s.url, { 'x-api-key': key.api_key });
    const k2 = await run(s.url, { 'x-api-key': key.api_key });
    const a2 = await run(s.url, {});
    const merge = (x, y) => ({
      non2xx: x.non2xx + y.non2xx,
      errors: x.errors + y.errors,
      requests: { average: (x.requests.average + y.requests.average) / 2 },
      latency: { p99: Math.max(x.latency.p99, y.latency.p99) },
    });
    const anon = merge(a1, a2);
    const keyed = merge(k1, k2);
    rows.push({
      mode,
      anon_rps: Math.round(anon.requests.average),
      keyed_rps: Math.round(keyed.requests.average),
      anon_p99_ms: anon.latency.p99,
      keyed_p99_ms: keyed.latency.p99,
      ratio: Number((keyed.requests.average / anon.requests.average).toFixed(3)),
      all_2xx: keyed.non2xx === 0 && anon.non2xx === 0 && keyed.errors === 0 && anon.errors === 0,
    });
    await s.stop();
    load.push(loadavg()[0]);
  }
  await pool.query('DELETE FROM usage_counters WHERE api_key_id = $1', [key.api_key_id]);
  await pool.query('DELETE FROM api_keys WHERE api_key_id = $1', [key.api_key_id]);
  await pool.end();

  console.table(rows);
  const procLoadavg = (await readFile('/proc/loadavg', 'utf8').catch(() => '')).trim();
  const out = {
    name: 'http-auth',
    date: new Date().toISOString(),
    node: process.version,
    duration_s: DURATION,
    connections: CONNECTIONS,
    server: 'child process (load generator in the parent)',
    target_ratio: 0.8,
    loadavg_1m_during: load,
    proc_loadavg_end: procLoadavg,
    rows,
  };
  console.log('loadavg', procLoadavg);
  if (!process.env.BENCH_NO_SAVE) {
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/http-auth.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
  }
}
