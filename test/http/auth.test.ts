// Authentication, the error envelope and the headers every response carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/keys/store.js';
import { createPool } from '../../src/db/pool.js';
import { KeyCache } from '../../src/http/auth.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

function expectEnvelope(
  res: { statusCode: number; headers: Record<string, unknown>; json(): any },
  status: number,
  code: string,
) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.request_id).toMatch(UUID);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(body.error.docs).toBe(`http://lds.test/docs/errors#${code}`);
  return body.error;
}

describe('authentication', () => {
  it('401 unauthorized without X-API-Key', async () => {
    const res = await t.app.inject({ url: '/v1/_meta/usage' });
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('ignores Authorization: Bearer and ?api_key=', async () => {
    expectEnvelope(
      await t.app.inject({ url: '/v1/_meta/usage', headers: { authorization: `Bearer ${t.key}` } }),
      401,
      'unauthorized',
    );
    expectEnvelope(await t.app.inject({ url: `/v1/_meta/usage?api_key=${t.key}` }), 401, 'unauthorized');
  });

  it('401 invalid_api_key for a key that was never issued', async () => {
    expectEnvelope(
      await t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': 'lds_not-a-real-key' } }),
      401,
      'invalid_api_key',
    );
    expectEnvelope(
      await t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': 'x'.repeat(5000) } }),
      401,
      'invalid_api_key',
    );
  });

  it('401 revoked_api_key once the key is revoked (seen within the cache TTL)', async () => {
    const k = await t.newKey();
    expect((await t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': k.api_key } })).statusCode).toBe(200);
    await revokeKey(t.db.pool, k.api_key_id);
    const call = () => t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': k.api_key } });
    await waitFor(
      'the revocation to be seen',
      async () => (await call()).statusCode === 401,
      t.config.keyCacheMs + 3000,
    );
    expectEnvelope(await call(), 401, 'revoked_api_key');
  });

  it('a cached miss lasts at most one second, so a key that missed once works right after', async () => {
    // A real miss: the key's row is unreachable (hash changed) during the first lookup, then restored,
    // as if the key were issued just after a client tried it. The cache's clock is ours, so the
    // boundaries are exact: the miss is served from the cache until 1 s, not for KEY_CACHE_MS (5 s here).
    const k = await t.newKey();
    const { rows } = await t.db.pool.query<{ key_hash: Buffer }>(
      'SELECT key_hash FROM api_keys WHERE api_key_id = $1',
      [k.api_key_id],
    );
    let now = 1_000_000;
    const cache = new KeyCache(t.db.pool, 5000, () => now);
    await t.db.pool.query(`UPDATE api_keys SET key_hash = '\\x00' WHERE api_key_id = $1`, [k.api_key_id]);
    expect(await cache.lookup(k.api_key)).toBeNull();
    await t.db.pool.query('UPDATE api_keys SET key_hash = $2 WHERE api_key_id = $1', [k.api_key_id, rows[0].key_hash]);
    now += 999;
    expect(await cache.lookup(k.api_key)).toBeNull();
    now += 2;
    expect((await cache.lookup(k.api_key))?.api_key_id).toBe(k.api_key_id);
    // A hit, unlike a miss, is kept for the whole KEY_CACHE_MS.
    await revokeKey(t.db.pool, k.api_key_id);
    now += 4998;
    expect((await cache.lookup(k.api_key))?.revoked).toBe(false);
    now += 3;
    expect((await cache.lookup(k.api_key))?.revoked).toBe(true);
  });

  it('public routes answer without a key and accept a valid one', async () => {
    for (const url of ['/v1/health', '/v1/status', '/v1/coverage', '/openapi.json', '/docs', '/docs/errors']) {
      const anon = await t.app.inject({ url });
      expect(anon.statusCode, url).toBeLessThan(400);
      expect(anon.headers['x-request-id']).toMatch(UUID);
      expect(anon.headers['x-ratelimit-limit']).toBeUndefined();
      const keyed = await t.app.inject({ url, headers: { 'x-api-key': t.key } });
      expect(keyed.statusCode, url).toBeLessThan(400);
    }
    const keyed = await t.app.inject({ url: '/v1/status', headers: { 'x-api-key': t.key } });
    expect(keyed.headers['x-ratelimit-limit']).toBe('10000000');
  });

  it('a bad key sent to a public data route is refused like anywhere else; the probes never read it', async () => {
    expectEnvelope(
      await t.app.inject({ url: '/v1/status', headers: { 'x-api-key': 'lds_nope' } }),
      401,
      'invalid_api_key',
    );
    expect((await t.app.inject({ url: '/v1/health', headers: { 'x-api-key': 'lds_nope' } })).statusCode).toBe(200);
  });

  it('unknown routes are 404 not_found with or without a key', async () => {
    expectEnvelope(await t.app.inject({ url: '/v1/nothing-here' }), 404, 'not_found');
    expectEnvelope(await t.app.inject({ url: '/v1/nothing-here', headers: { 'x-api-key': t.key } }), 404, 'not_found');
    expectEnvelope(
      await t.app.inject({ url: '/v1/nothing-here', headers: { 'x-api-key': 'lds_bad' } }),
      404,
      'not_found',
    );
  });

  it('405 method_not_allowed with Allow on a known path', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/health' });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toContain('GET');
  });
});

describe('headers and envelope', () => {
  it('authenticated success carries the rate-limit headers and a request id', async () => {
    const res = await t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': t.key } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(Number(res.headers['x-ratelimit-limit'])).toBe(10_000_000);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(10_000_000);
    const now = new Date();
    expect(Number(res.headers['x-ratelimit-reset'])).toBe(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000,
    );
  });

  it('authenticated failures carry them too', async () => {
    const res = await t.app.inject({ url: '/v1/nothing', method: 'GET', headers: { 'x-api-key': t.key } });
    expect(res.headers['x-request-id']).toMatch(UUID);
    const bad = await t.app.inject({ method: 'POST', url: '/v1/health', headers: { 'x-api-key': t.key } });
    expect(bad.statusCode).toBe(405);
  });

  it('413 payload_too_large and 400 for invalid JSON on a POST route', async () => {
    const post = t.app.routeTable.urls().find((r) => r.methods.includes('POST') && r.url.startsWith('/v1/'));
    expect(post).toBeDefined();
    const url = post!.url.replace(/:[^/]+/g, '1');
    const big = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'a'.repeat(t.config.bodyLimit + 10) }),
    });
    expectEnvelope(big, 413, 'payload_too_large');
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      payload: '{"x":',
    });
    expectEnvelope(bad, 400, 'bad_request');
  });

  it('usage reports the spec fields for the calling key', async () => {
    const k = await t.newKey({ tier: 'free', monthlyCap: 500 });
    await t.app.inject({ url: '/v1/states', headers: { 'x-api-key': k.api_key } });
    const res = await t.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': k.api_key } });
    const now = new Date();
    // A single record like any other: { data: {...} } (the spec serves only topics/{slug}, health and
    // coverage at the top level).
    expect(Object.keys(res.json())).toEqual(['data']);
    expect(res.json().data).toEqual({
      api_key_id: k.api_key_id,
      org_name: 'test-org',
      tier: 'free',
      monthly_request_cap: 500,
      monthly_requests_used: 2,
      monthly_requests_remaining: 498,
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
    expect(res.headers['x-ratelimit-remaining']).toBe('498');
  });
});

it('503 service_unavailable (not a bare 500) when the key store cannot be reached', async () => {
  const dead = createPool('postgres://postgres@127.0.0.1:1/none', 1);
  const down = await testApp({ db: t.db, deps: { db: dead }, config: { redisUrl: undefined, roles: ['api'] } });
  try {
    const res = await down.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': 'lds_never_seen_before' } });
    expectEnvelope(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
  } finally {
    await down.app.close();
    await dead.end();
  }
});
