// Burst and monthly limits, their 429 envelopes and headers, persistence across a restart, and
// (with REDIS_URL) one limit enforced by two app instances.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

// The cheapest keyed route (health is a probe: it never reads the key).
const get = (t: TestApp, key: string, url = '/v1/_meta/usage') => t.app.inject({ url, headers: { 'x-api-key': key } });

// The Redis cases are always declared, so a run without Redis lists them as skipped and says why.
const noRedis = !process.env.REDIS_URL;
const NO_REDIS =
  'skipped: the Redis limiter cases need REDIS_URL (e.g. redis://127.0.0.1:6379; CI sets it, see .ci/run)';
if (noRedis) console.warn(`limits: Redis cases ${NO_REDIS}`);

for (const mode of ['in-process', 'redis'] as const) {
  describe(`limits (${mode})`, () => {
    const skip = mode === 'redis' && noRedis;
    let t: TestApp;
    beforeAll(async () => {
      if (skip) return;
      t = await testApp({ db, config: mode === 'in-process' ? { redisUrl: undefined } : {} });
    });
    beforeEach((ctx) => ctx.skip(skip, NO_REDIS));
    afterAll(async () => t?.close());

    it('burst: 429 rate_limit_exceeded with Retry-After 1, limit and window', async () => {
      const k = await t.newKey({ burst: 2, monthlyCap: 1000 });
      const res = await Promise.all(Array.from({ length: 12 }, () => get(t, k.api_key)));
      const ok = res.filter((r) => r.statusCode === 200);
      const limited = res.filter((r) => r.statusCode === 429);
      expect(ok.length).toBeGreaterThanOrEqual(2);
      expect(limited.length).toBeGreaterThan(0);
      const r = limited[0];
      expect(r.headers['retry-after']).toBe('1');
      const err = r.json().error;
      expect(err).toMatchObject({ code: 'rate_limit_exceeded', limit: 2, window: '1s' });
      expect(err.request_id).toBe(r.headers['x-request-id']);
      expect(r.headers['x-ratelimit-limit']).toBe('1000');
      // 429s are not counted: the usage equals the successes.
      const remaining = Number(r.headers['x-ratelimit-remaining']);
      expect(remaining).toBeGreaterThanOrEqual(1000 - ok.length);
    });

    it('monthly: 429 with limit, used, resets_at and Retry-After to the next month', async () => {
      const k = await t.newKey({ burst: 1000, monthlyCap: 3 });
      for (let i = 0; i < 3; i++) {
        const r = await get(t, k.api_key);
        expect(r.statusCode).toBe(200);
        expect(r.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      }
      const r = await get(t, k.api_key);
      expect(r.statusCode).toBe(429);
      const now = new Date();
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      expect(r.json().error).toMatchObject({
        code: 'rate_limit_exceeded',
        limit: 3,
        used: 3,
        resets_at: next.toISOString(),
      });
      const wait = Number(r.headers['retry-after']);
      expect(Math.abs(wait - (next.getTime() - Date.now()) / 1000)).toBeLessThan(120);
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
      expect(r.headers['x-ratelimit-reset']).toBe(String(next.getTime() / 1000));
      // Still refused on another endpoint, and the rejection did not count.
      const u = await get(t, k.api_key, '/v1/states');
      expect(u.statusCode).toBe(429);
      expect(u.json().error.used).toBe(3);
    });

    it('/v1/health is a probe: a key sent there is never counted, limited or even checked', async () => {
      const k = await t.newKey({ burst: 1000, monthlyCap: 2 });
      for (let i = 0; i < 2; i++) expect((await get(t, k.api_key)).statusCode).toBe(200);
      expect((await get(t, k.api_key)).statusCode).toBe(429); // the month's plan is spent
      for (let i = 0; i < 5; i++) {
        const h = await get(t, k.api_key, '/v1/health');
        expect(h.statusCode).toBe(200);
        expect(h.json()).toMatchObject({ ok: true });
        expect(h.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // Nothing was counted: the key still has used exactly its 2.
      expect((await get(t, k.api_key, '/v1/states')).json().error).toMatchObject({
        code: 'rate_limit_exceeded',
        used: 2,
      });
      // Liveness does not depend on the key store either: an unknown or malformed key is not looked up.
      expect((await get(t, 'lds_never_issued', '/v1/health')).statusCode).toBe(200);
      expect((await get(t, 'x'.repeat(5000), '/v1/health')).statusCode).toBe(200);
    });

    it('4xx answers from a route count; wrong methods and unknown paths do not', async () => {
      const k = await t.newKey({ burst: 1000, monthlyCap: 100 });
      // Two answers a route gives: 400 for a bad parameter, 404 for an unknown bill. Both count.
      expect((await get(t, k.api_key, '/v1/bills?state=ZZ')).statusCode).toBe(400);
      expect((await get(t, k.api_key, '/v1/bills/2147483647')).statusCode).toBe(404);
      // No route answered these two: they do not count.
      expect(
        (await t.app.inject({ method: 'DELETE', url: '/v1/health', headers: { 'x-api-key': k.api_key } })).statusCode,
      ).toBe(405);
      expect((await t.app.inject({ url: '/v1/no-such-thing', headers: { 'x-api-key': k.api_key } })).statusCode).toBe(
        404,
      );
      const u = await get(t, k.api_key, '/v1/_meta/usage');
      // The two route answers, plus the usage call itself (counted before its handler runs).
      expect(u.json().data.monthly_requests_used).toBe(3);
    });

    it('monthly usage survives a restart (flushed to usage_counters on close)', async () => {
      const k = await t.newKey({ burst: 1000, monthlyCap: 50 });
      const a = await testApp({ db, config: mode === 'in-process' ? { redisUrl: undefined } : {} });
      for (let i = 0; i < 4; i++) expect((await get(a, k.api_key)).statusCode).toBe(200);
      await a.app.close();
      const { rows } = await db.pool.query<{ used: string }>(`SELECT used FROM usage_counters WHERE api_key_id = $1`, [
        k.api_key_id,
      ]);
      expect(Number(rows[0].used)).toBe(4);
      const b = await testApp({ db, config: { redisUrl: undefined } });
      const u = await get(b, k.api_key, '/v1/_meta/usage');
      expect(u.json().data.monthly_requests_used).toBe(5);
      await b.app.close();
    });
  });
}

describe('two instances sharing Redis', () => {
  beforeEach((ctx) => ctx.skip(noRedis, NO_REDIS));
  it('enforce one monthly cap and one burst limit', async () => {
    const a = await testApp({ db });
    const b = await testApp({ db });
    try {
      const k = await a.newKey({ burst: 1000, monthlyCap: 6 });
      const codes: number[] = [];
      for (let i = 0; i < 10; i++) codes.push((await get(i % 2 ? b : a, k.api_key)).statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(6);
      expect(codes.slice(6).every((c) => c === 429)).toBe(true);
      const u = await get(b, k.api_key, '/v1/_meta/usage');
      expect(u.json().error.used).toBe(6);

      const burst = await a.newKey({ burst: 3, monthlyCap: 1000 });
      const res = await Promise.all(Array.from({ length: 16 }, (_, i) => get(i % 2 ? b : a, burst.api_key)));
      const ok = res.filter((r) => r.statusCode === 200).length;
      // Three per clock second across both instances; the burst of 16 spans at most two seconds.
      expect(ok).toBeLessThanOrEqual(6);
      expect(res.some((r) => r.statusCode === 429 && r.json().error.window === '1s')).toBe(true);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });

  it('a revocation is seen by a second instance within a few seconds', async () => {
    const a = await testApp({ db });
    const b = await testApp({ db });
    try {
      const k = await a.newKey();
      expect((await get(a, k.api_key)).statusCode).toBe(200);
      expect((await get(b, k.api_key)).statusCode).toBe(200);
      await db.pool.query(`UPDATE api_keys SET revoked_at = now() WHERE api_key_id = $1`, [k.api_key_id]);
      await waitFor(
        'the second instance to see the revocation',
        async () => (await get(b, k.api_key)).statusCode === 401,
        b.config.keyCacheMs + 3000,
      );
      expect((await get(b, k.api_key)).json().error.code).toBe('revoked_api_key');
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });
});
