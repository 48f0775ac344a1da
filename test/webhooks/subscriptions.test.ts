// Subscription endpoints against the real app and database: validation, the cap, isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const post = (key: string, url: string, body: unknown, raw?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: raw ?? JSON.stringify(body),
  });
const good = { webhook_url: 'http://127.0.0.1:9/hook', events: ['status_change'] };

beforeAll(async () => {
  t = await testApp({ config: { webhookAllowedHosts: ['127.0.0.1'] } });
});
afterAll(async () => t?.close());

describe('POST /v1/webhooks', () => {
  it('creates an active subscription and shows its secret once', async () => {
    const res = await post(t.key, '/v1/webhooks', {
      ...good,
      events: ['signed', 'passed'],
      filters: { states: ['tx', 'CA'], subjects: ['Education'] },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(body.data).toMatchObject({
      kind: 'webhook',
      active: true,
      events: ['signed', 'passed'],
      filters: { states: ['TX', 'CA'], subjects: ['Education'] },
      last_delivery: null,
    });
    expect(Number.isSafeInteger(body.data.id)).toBe(true);
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': t.key } });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.secret);
    expect(list.json().data.map((s: { id: string }) => s.id)).toContain(body.data.id);
  });

  const invalid: [string, unknown, string | undefined][] = [
    ['http (not allowed host)', { ...good, webhook_url: 'http://example.com/hook' }, 'webhook_url'],
    ['credentials', { ...good, webhook_url: 'https://user:pw@example.com/hook' }, 'webhook_url'],
    ['not a URL', { ...good, webhook_url: 'not a url' }, 'webhook_url'],
    ['ftp scheme', { ...good, webhook_url: 'ftp://example.com/' }, 'webhook_url'],
    ['loopback literal', { ...good, webhook_url: 'https://127.0.0.2/hook' }, 'webhook_url'],
    ['private literal', { ...good, webhook_url: 'https://10.1.2.3/hook' }, 'webhook_url'],
    ['metadata literal', { ...good, webhook_url: 'https://169.254.169.254/latest/meta-data' }, 'webhook_url'],
    ['CGNAT', { ...good, webhook_url: 'https://100.64.0.1/' }, 'webhook_url'],
    ['IPv4-mapped IPv6', { ...good, webhook_url: 'https://[::ffff:127.0.0.1]/hook' }, 'webhook_url'],
    ['IPv6 loopback', { ...good, webhook_url: 'https://[::1]/hook' }, 'webhook_url'],
    ['unique-local', { ...good, webhook_url: 'https://[fd00:ec2::254]/' }, 'webhook_url'],
    ['localhost name', { ...good, webhook_url: 'https://localhost/hook' }, 'webhook_url'],
    ['*.localhost name', { ...good, webhook_url: 'https://api.localhost/hook' }, 'webhook_url'],
    ['metadata name', { ...good, webhook_url: 'https://metadata.google.internal/' }, 'webhook_url'],
    ['missing url', { events: ['passed'] }, 'webhook_url'],
    ['unknown event', { ...good, events: ['bill_signed'] }, 'events'],
    ['no events', { ...good, events: [] }, 'events'],
    ['events a single unknown string', { ...good, events: 'bill_signed' }, 'events'],
    ['bad state', { ...good, filters: { states: ['TX', 'ZZ'] } }, 'filters.states'],
    ['empty subject', { ...good, filters: { subjects: [''] } }, 'filters.subjects'],
    ['unknown field', { ...good, secret: 'mine' }, undefined],
  ];
  for (const [name, body, field] of invalid) {
    it(`400 bad_request: ${name}`, async () => {
      const res = await post(t.key, '/v1/webhooks', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
      if (field) expect(res.json().error.field).toBe(field);
    });
  }

  it('400 on invalid JSON', async () => {
    const res = await post(t.key, '/v1/webhooks', undefined, '{"webhook_url": ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('bad_request');
  });

  it('never accepts an arbitrary private IPv4 literal', async () => {
    const priv = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    );
    await fc.assert(
      fc.asyncProperty(priv, fc.boolean(), async (parts, mapped) => {
        const ip = parts.join('.');
        const res = await post(t.key, '/v1/webhooks', {
          ...good,
          webhook_url: mapped ? `https://[::ffff:${ip}]/h` : `https://${ip}/h`,
        });
        expect(res.statusCode).toBe(400);
      }),
      { numRuns: 40 },
    );
  });

  it('401 without a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', payload: good });
    expect(res.statusCode).toBe(401);
  });
});

describe('cap of 25 active subscriptions per key', () => {
  it('lets exactly 25 of 30 concurrent creates through; the rest get 429 subscription_limit', async () => {
    const { api_key } = await t.newKey({ org: 'cap-org' });
    const results = await Promise.all(Array.from({ length: 30 }, () => post(api_key, '/v1/webhooks', good)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(25);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const limited = results.find((r) => r.statusCode === 429)!;
    expect(limited.json().error.code).toBe('subscription_limit');
    // every 429 carries Retry-After (spec, Errors rule 1)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': api_key } });
    expect(list.json().data.filter((s: { active: boolean }) => s.active)).toHaveLength(25);
    // deleting one frees a slot
    const id = list.json().data[0].id;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers: { 'x-api-key': api_key } }))
        .statusCode,
    ).toBe(204);
    expect((await post(api_key, '/v1/webhooks', good)).statusCode).toBe(201);
    expect((await post(api_key, '/v1/webhooks', good)).statusCode).toBe(429);
  });
});

describe('isolation between organisations', () => {
  it("another org's key never sees or touches a subscription (404); a second key of the same org does", async () => {
    const created = (await post(t.key, '/v1/webhooks', good)).json();
    const id = created.data.id;
    const other = await t.newKey({ org: 'other-org' });
    const sameOrg = await t.newKey({ org: 'test-org' });
    const h = (k: string) => ({ 'x-api-key': k });
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: h(other.api_key) });
    expect(list.json().data.map((s: { id: string }) => s.id)).not.toContain(id);
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
      ['POST', '/reactivate'],
    ] as const) {
      const res = await t.app.inject({ method, url: `/v1/webhooks/${id}${path}`, headers: h(other.api_key) });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const recover = await post(other.api_key, `/v1/webhooks/${id}/recover`, { since: '2020-01-01' });
    expect(recover.statusCode).toBe(404);
    const seen = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: h(sameOrg.api_key) });
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain(created.secret);
  });

  it('ids in paths are integers: 404 for an unknown one, 400 for a non-integer, 404 after delete', async () => {
    const h = { 'x-api-key': t.key };
    for (const id of ['999999999', '99999999999999999999999']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: h });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    for (const id of ['wh_doesnotexist', '12a', '-1', '1.5']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: h });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/webhooks/999999999/deliveries/msg_x/retry', headers: h }))
        .statusCode,
    ).toBe(404);
    const id = (await post(t.key, '/v1/webhooks', good)).json().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers: h })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers: h })).statusCode).toBe(404);
  });
});
