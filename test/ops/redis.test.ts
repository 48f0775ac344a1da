// Redis outages, against a real redis-server this test starts and kills on its own port (never the
// shared one): readiness reports Redis down, keyed requests answer 503 at once while it is known
// down (no command waits behind the reconnection), and everything recovers by itself when it returns.
// Also the production wiring: startServer creates the one Redis client and /v1/ready reads it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createKey } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) {
        s.destroy();
        resolve(got.startsWith('+PONG'));
      }
    });
    s.on('error', () => resolve(false));
  });
}

/** Polls a condition (each attempt is a real round trip) until it holds; fails after `tries`. */

class OwnRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start() {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor('redis-server to answer PING', () => pong(this.port));
  }
  async kill() {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
}

const keyed = (t: TestApp) => t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': t.key } });

describe('Redis outage', () => {
  let redis: OwnRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    t = await testApp({ config: { redisUrl: redis.url } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
  });

  it('readiness and keyed requests follow Redis down and back up, failing fast while it is down', async () => {
    const ready = () => t.app.inject({ url: '/v1/ready' });
    let r = await ready();
    expect(r.statusCode).toBe(200);
    expect(r.json().checks.redis).toBe(true);
    expect((await keyed(t)).statusCode).toBe(200);

    await redis.kill();
    await waitFor('readiness to report Redis down', async () => (await ready()).statusCode === 503);
    r = await ready();
    expect(r.json().error).toMatchObject({ code: 'service_unavailable', checks: { redis: false, database: true } });
    expect(r.json().error.message).toMatch(/redis/);

    const down = await keyed(t);
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.json().error).toMatchObject({ code: 'service_unavailable', request_id: down.headers['x-request-id'] });

    // Fail fast: while Redis is known down the limiter settles before the event loop's next turn,
    // i.e. without a Redis round trip or a reconnection wait (the old code queued the command).
    const key = { api_key_id: 'k_probe', monthly_cap: 100, burst_limit: 100 };
    const settled = await Promise.race([
      Promise.resolve(t.app.limiter.hit(key, new Date())).then(
        () => 'answered',
        () => 'refused',
      ),
      new Promise((resolve) => setImmediate(() => resolve('still waiting'))),
    ]);
    expect(settled).toBe('refused');

    // Not timed in an assertion (timings vary with the machine); printed for the record.
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await keyed(t);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`keyed request while Redis is down: median ${times[25].toFixed(2)} ms, max ${times[49].toFixed(2)} ms`);

    await redis.start();
    await waitFor('a keyed request to succeed again', async () => (await keyed(t)).statusCode === 200);
    r = await ready();
    expect(r.statusCode).toBe(200);
    expect(r.json().checks.redis).toBe(true);
  }, 60_000);
});

describe('startServer with an unreachable REDIS_URL', () => {
  let db: TestDatabase;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('/v1/ready answers 503 naming redis, and keyed requests 503 too', async () => {
    const closed = await freePort();
    const config = loadConfig({
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${closed}`,
      PORT: '0',
      LDS_ROLES: 'api',
      LOG_LEVEL: 'silent',
    });
    server = await startServer(config, createLogger('silent', { pretty: false }));
    const url = server.url!;
    await waitFor('readiness to report Redis down', async () => (await fetch(`${url}/v1/ready`)).status === 503);
    const body = (await (await fetch(`${url}/v1/ready`)).json()) as { error: { message: string } };
    expect(body.error).toMatchObject({ code: 'service_unavailable', checks: { redis: false } });
    expect(body.error.message).toMatch(/redis/);
    const { api_key } = await createKey(db.pool, { org: 'redis-down', tier: 'pro' });
    const res = await fetch(`${url}/v1/_meta/usage`, { headers: { 'x-api-key': api_key } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
  }, 60_000);
});
