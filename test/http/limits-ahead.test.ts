// The Redis limiter's requests admitted ahead of Redis: a key far from both limits is admitted
// without waiting for a round trip and every such request is still counted in Redis; near the
// monthly cap every request waits and the cap stays exact, across two replicas too.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisLimiter, type LimitKey, type LimitOutcome } from '../../src/http/limits.js';
import { createKey } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { createRedis, type RedisClient } from '../../src/redis/client.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

const noRedis = !process.env.REDIS_URL;
const NO_REDIS = 'skipped: needs REDIS_URL (e.g. redis://127.0.0.1:6379; CI sets it, see .ci/run)';

let db: TestDatabase;
let redis: RedisClient;
beforeAll(async () => {
  if (noRedis) return;
  db = await freshDatabase(2);
  redis = createRedis(process.env.REDIS_URL!, createLogger('silent', { pretty: false }));
});
afterAll(async () => {
  redis?.disconnect();
  await db?.drop();
});

// A fixed clock inside one second: the burst window never turns over during a case.
const NOW = new Date();
const isPromise = (o: LimitOutcome | Promise<LimitOutcome>): o is Promise<LimitOutcome> => 'then' in o;

async function limitKey(burst: number, monthlyCap: number): Promise<LimitKey> {
  const k = await createKey(db.pool, { org: 'limits-ahead', burst, monthlyCap });
  return { api_key_id: k.api_key_id, burst_limit: burst, monthly_cap: monthlyCap };
}

/** Sends n requests one after another, each waiting for its answer; returns the outcomes. */
async function hits(limiters: RedisLimiter[], key: LimitKey, n: number): Promise<LimitOutcome[]> {
  const out: LimitOutcome[] = [];
  for (let i = 0; i < n; i++) out.push(await limiters[i % limiters.length].hit(key, NOW));
  return out;
}

describe('requests admitted ahead of Redis', () => {
  beforeEach((ctx) => ctx.skip(noRedis, NO_REDIS));
  const prefix = () => `lds:test:rl:${randomBytes(4).toString('hex')}`;

  it('far from both limits: answered without waiting for Redis, and every one is counted there', async () => {
    const p = prefix();
    const limiter = new RedisLimiter(db.pool, redis, p);
    const key = await limitKey(10_000, 1_000_000);
    // The first request of the second waits for Redis's counts; the next ones need not.
    expect(isPromise(limiter.hit(key, NOW))).toBe(true);
    await hits([limiter], key, 1);
    const ahead = Array.from({ length: 50 }, () => limiter.hit(key, NOW));
    expect(ahead.every((o) => !isPromise(o) && o.ok)).toBe(true);
    await limiter.close();
    const month = NOW.toISOString().slice(0, 7);
    expect(Number(await redis.get(`${p}:m:${key.api_key_id}:${month}`))).toBe(52);
    const { rows } = await db.pool.query<{ used: string }>('SELECT used FROM usage_counters WHERE api_key_id = $1', [
      key.api_key_id,
    ]);
    expect(Number(rows[0].used)).toBe(52);
  });

  it("sends its script directly on the process's client, not through automatic pipelining", async () => {
    // it writes one command or one pipeline per drain itself (limits.ts, redis/client.ts); an
    // automatically pipelined command builds a pipeline of its own
    await redis.ping(); // automatic pipelining only applies to a ready client
    const limiter = new RedisLimiter(db.pool, redis, prefix());
    const key = await limitKey(20, 1_000_000);
    const pipelines = vi.spyOn(redis, 'pipeline');
    try {
      const waiting = limiter.hit(key, NOW);
      expect(isPromise(waiting)).toBe(true);
      expect((await waiting).ok).toBe(true);
      expect(pipelines).not.toHaveBeenCalled();
      // the same client still pipelines other commands automatically
      await redis.ping();
      expect(pipelines).toHaveBeenCalled();
    } finally {
      pipelines.mockRestore();
      await limiter.close();
    }
  });

  it('a small burst limit is always counted in Redis first', async () => {
    const limiter = new RedisLimiter(db.pool, redis, prefix());
    const key = await limitKey(20, 1_000_000);
    await hits([limiter], key, 2);
    expect(isPromise(limiter.hit(key, NOW))).toBe(true);
    await limiter.close();
  });

  it('near the monthly cap every request waits, and the cap is exact across two replicas', async () => {
    const p = prefix();
    const a = new RedisLimiter(db.pool, redis, p);
    const b = new RedisLimiter(db.pool, redis, p);
    // 1,010 a month: requests go ahead only while at least 1,000 remain, i.e. for the first 10.
    const key = await limitKey(100_000, 1_010);
    const out = await hits([a, b], key, 1_015);
    expect(out.filter((o) => o.ok)).toHaveLength(1_010);
    expect(out.slice(1_010).every((o) => !o.ok && o.kind === 'monthly' && o.used === 1_010)).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('a key going ahead keeps going ahead into the next second, and a new second has its full burst', async () => {
    const p = prefix();
    const limiter = new RedisLimiter(db.pool, redis, p);
    const key = await limitKey(200, 1_000_000);
    const next = new Date(NOW.getTime() + 1000);
    const later = new Date(NOW.getTime() + 3000);
    await hits([limiter], key, 20); // the first waits for Redis, the others go ahead
    // the next second: no round trip first (every one answered at once)
    const first = Array.from({ length: 50 }, () => limiter.hit(key, next));
    expect(first.every((o) => !isPromise(o) && o.ok)).toBe(true);
    // and its burst limit is the whole 200 again, exact: 150 more pass, then 429
    const rest: LimitOutcome[] = [];
    for (let i = 0; i < 160; i++) rest.push(await limiter.hit(key, next));
    expect(rest.filter((o) => o.ok)).toHaveLength(150);
    expect(rest.slice(150).every((o) => !o.ok && o.kind === 'burst')).toBe(true);
    // a second that ended near the limit, or a pause of more than a second: Redis first
    expect(isPromise(limiter.hit(key, new Date(next.getTime() + 1000)))).toBe(true);
    expect(isPromise(limiter.hit(key, later))).toBe(true);
    await limiter.close();
    const month = NOW.toISOString().slice(0, 7);
    expect(Number(await redis.get(`${p}:m:${key.api_key_id}:${month}`))).toBe(20 + 200 + 2);
  });

  it('requests admitted ahead are counted once 100 wait (the rest of the turn waits), or when the flush time comes', async () => {
    const p = prefix();
    const limiter = new RedisLimiter(db.pool, redis, p);
    const key = await limitKey(100_000, 1_000_000);
    const month = NOW.toISOString().slice(0, 7);
    const counted = async () => Number(await redis.get(`${p}:m:${key.api_key_id}:${month}`));
    await hits([limiter], key, 1); // counted in Redis first; the key goes ahead from here
    // The flush time is frozen: only the count can send these. A drain writes its script call at
    // once and the test's GET follows it on the same connection, so each read sees what was sent.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ahead = Array.from({ length: 100 }, () => limiter.hit(key, NOW));
      expect(ahead.every((o) => !isPromise(o) && o.ok)).toBe(true);
      // the 101st of the same turn waits for Redis, with the 100 counted in the same drain
      const waiting = limiter.hit(key, NOW);
      expect(isPromise(waiting)).toBe(true);
      await new Promise((r) => setImmediate(r)); // the turn's end, where the drain runs
      expect(await counted()).toBe(102);
      expect(await waiting).toMatchObject({ ok: true, used: 102 });
      for (let i = 0; i < 5; i++) expect(isPromise(limiter.hit(key, NOW))).toBe(false);
      await new Promise((r) => setImmediate(r));
      expect(await counted()).toBe(102); // five wait for the flush time
      vi.advanceTimersByTime(200); // AHEAD_FLUSH_MS
      expect(await counted()).toBe(107);
    } finally {
      vi.useRealTimers();
    }
    await limiter.close();
  });

  it('several keys counted in the same turn (one pipeline) are each counted exactly', async () => {
    const p = prefix();
    const limiter = new RedisLimiter(db.pool, redis, p);
    // Small bursts: every request waits for Redis, so the three keys' requests of this turn are
    // one drain of three batches, and Redis has no monthly counter yet (each batch is seeded too).
    const [a, b, c] = await Promise.all([limitKey(10, 1_000), limitKey(10, 1_000), limitKey(10, 4)]);
    const turn = (key: LimitKey, n: number) => Promise.all(Array.from({ length: n }, () => limiter.hit(key, NOW)));
    const [outA, outB, outC] = await Promise.all([turn(a, 12), turn(b, 3), turn(c, 6)]);
    expect(outA.map((o) => o.ok)).toEqual([...Array(10).fill(true), false, false]);
    expect(outA.slice(10).every((o) => !o.ok && o.kind === 'burst')).toBe(true);
    expect(outA.slice(0, 10).map((o) => o.used)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outB.every((o) => o.ok)).toBe(true);
    expect(outC.map((o) => o.ok)).toEqual([true, true, true, true, false, false]);
    expect(outC.slice(4).every((o) => !o.ok && o.kind === 'monthly')).toBe(true);
    await limiter.close();
    const month = NOW.toISOString().slice(0, 7);
    const counted = await Promise.all([a, b, c].map((k) => redis.get(`${p}:m:${k.api_key_id}:${month}`)));
    expect(counted.map(Number)).toEqual([10, 3, 4]);
  });

  it('the burst limit is exact for one replica admitting ahead', async () => {
    const limiter = new RedisLimiter(db.pool, redis, prefix());
    const key = await limitKey(200, 1_000_000);
    // About the first half goes ahead, the rest waits for Redis, which counts the ones ahead first.
    const out = await hits([limiter], key, 210);
    expect(out.filter((o) => o.ok)).toHaveLength(200);
    expect(out.slice(200).every((o) => !o.ok && o.kind === 'burst')).toBe(true);
    await limiter.close();
  });
});
