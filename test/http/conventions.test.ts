// CORS, compression, ETag/Cache-Control, OpenAPI document and the offline docs.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp, testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

describe('CORS', () => {
  it('answers a preflight without a key, allowing X-API-Key', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/_meta/usage',
      headers: {
        origin: 'https://newsroom.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-api-key');
  });

  it('exposes the rate-limit and request-id headers on actual responses', async () => {
    const res = await t.app.inject({
      url: '/v1/_meta/usage',
      headers: { origin: 'https://newsroom.example', 'x-api-key': t.key },
    });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
    for (const h of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
      expect(exposed).toContain(h);
    const denied = await t.app.inject({ url: '/v1/_meta/usage', headers: { origin: 'https://newsroom.example' } });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('compression', () => {
  it('gzips JSON when asked, and not otherwise', async () => {
    const gz = await t.app.inject({ url: '/v1/coverage', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).states_total).toBe(52);
    const br = await t.app.inject({ url: '/v1/coverage', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    const plain = await t.app.inject({ url: '/v1/coverage' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses text/event-stream', async () => {
    const stream = t.app.routeTable.urls().find((r) => r.url === '/v1/stream');
    if (stream) {
      // The real stream never ends, so only its headers are inspected.
      const addr = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const ctl = new AbortController();
      const res = await fetch(`${addr}/v1/stream`, {
        headers: { 'x-api-key': t.key, 'accept-encoding': 'gzip, br' },
        signal: ctl.signal,
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      expect(res.headers.get('content-encoding') ?? 'identity').toBe('identity');
      ctl.abort();
    }
    // Independently of the stream module: a route sending text/event-stream through reply.send.
    const app = await buildTestApp(t.config, { db: t.db.pool, logger: false, bus: t.bus });
    app.get('/test-sse', { config: { public: true } }, async (_req, reply) =>
      reply.type('text/event-stream').send(': ping\n\n'.repeat(500)),
    );
    await app.ready();
    const sse = await app.inject({ url: '/test-sse', headers: { 'accept-encoding': 'gzip' } });
    expect(sse.headers['content-encoding']).toBeUndefined();
    await app.close();
  });
});

describe('ETag and Cache-Control', () => {
  for (const [url, cc] of [
    ['/v1/states', 'private, max-age=3600'],
    ['/v1/sessions', 'private, max-age=3600'],
    ['/v1/sessions?state=CA', 'private, max-age=3600'],
    ['/v1/status', 'public, max-age=60'],
    ['/v1/coverage', 'public, max-age=300'],
    ['/v1/health', 'private, no-cache'],
  ] as const) {
    it(`${url}: ${cc}, and If-None-Match gives 304`, async () => {
      expect(t.app.routeTable.allowed(url.split('?')[0])).toContain('GET');
      const first = await t.app.inject({ url, headers: { 'x-api-key': t.key } });
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toContain(cc);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      // Their bodies carry the time of the response (to the second), so the tag changes between
      // calls in different seconds: 304 while it still matches, else 200 with a new tag.
      if (url === '/v1/health' || url === '/v1/coverage') {
        const next = await t.app.inject({ url, headers: { 'x-api-key': t.key, 'if-none-match': etag } });
        if (next.statusCode === 304) expect(next.headers.etag).toBe(etag);
        else expect([next.statusCode, next.headers.etag === etag]).toEqual([200, false]);
        return;
      }
      const again = await t.app.inject({ url, headers: { 'x-api-key': t.key, 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      const other = await t.app.inject({ url, headers: { 'x-api-key': t.key, 'if-none-match': '"nope"' } });
      expect(other.statusCode).toBe(200);
    });
  }
});

describe('OpenAPI and docs', () => {
  it('serves a valid OpenAPI 3.1 document listing every registered route', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const v = new Validator();
    const result = await v.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    const listed = t.app.routeTable.urls().filter((r) => r.url.startsWith('/v1/') && !r.hidden);
    expect(listed.length).toBeGreaterThan(3);
    for (const { url, methods } of listed) {
      const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/$/, '');
      expect(doc.paths[path], `${url} missing from openapi.json`).toBeDefined();
      for (const m of methods) if (m !== 'HEAD') expect(doc.paths[path][m.toLowerCase()], `${m} ${url}`).toBeDefined();
    }
    const health = doc.paths['/v1/health'].get;
    expect(health.security).toEqual([]);
    expect(health.responses['200'].headers['X-Request-Id']).toBeDefined();
    const usage = doc.paths['/v1/_meta/usage'].get;
    expect(usage.security).toBeUndefined();
    expect(usage.responses['200'].headers['X-RateLimit-Remaining']).toBeDefined();
    expect(usage.responses['429']).toBeDefined();
    expect(usage.operationId).toBe('getUsage');
  });

  it('/docs works offline: no external scripts, styles or images', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const html = page.body;
    const refs = [...html.matchAll(/(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(r, r).not.toMatch(/^(https?:)?\/\//);
    for (const r of refs) {
      const url = new URL(r, 'http://lds.test/docs/').pathname;
      const asset = await t.app.inject({ url });
      expect(asset.statusCode, url).toBe(200);
      if (url.endsWith('initializer.js')) expect(asset.body).not.toMatch(/["'`]https?:\/\//);
    }
  });

  it('lists /v1/stream/ws, and the 400/405/413/415 answers', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const ws = doc.paths['/v1/stream/ws']?.get;
    expect(ws, '/v1/stream/ws').toBeDefined();
    expect(ws.operationId).toBe('streamChangesWebSocket');
    expect(ws.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['states', 'since', 'reason', 'last_event_id']),
    );
    for (const name of ['BadRequest', 'MethodNotAllowed', 'PayloadTooLarge', 'UnsupportedMediaType'])
      expect(doc.components.responses[name], name).toBeDefined();
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
    const create = doc.paths['/v1/webhooks'].post;
    for (const status of ['400', '405', '413', '415'])
      expect(create.responses[status], `POST /v1/webhooks ${status}`).toBeDefined();
    for (const [path, ops] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses['400'], `${method} ${path} 400`).toBeDefined();
        expect(op.responses['405'], `${method} ${path} 405`).toBeDefined();
      }
    }
    expect(doc.info.description).toMatch(/405 method_not_allowed/);
  });

  it('/docs/errors lists every error code with its status', async () => {
    const res = await t.app.inject({ url: '/docs/errors' });
    expect(res.headers['content-type']).toContain('text/html');
    for (const code of [
      'bad_request',
      'unauthorized',
      'invalid_api_key',
      'revoked_api_key',
      'not_found',
      'diff_not_computed',
      'subscription_inactive',
      'rate_limit_exceeded',
      'subscription_limit',
      'internal_error',
      'status_unavailable',
      'coverage_unavailable',
      'method_not_allowed',
      'payload_too_large',
    ]) {
      expect(res.body).toContain(`id="${code}"`);
    }
  });
});

describe("a newcomer's first requests", () => {
  it('GET / points at /docs, /dashboard and /openapi.json: JSON by default, HTML for browsers', async () => {
    const json = await t.app.inject({ url: '/' });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    expect(json.json().links).toMatchObject({
      docs: 'http://lds.test/docs',
      openapi: 'http://lds.test/openapi.json',
      dashboard: 'http://lds.test/dashboard',
    });
    const html = await t.app.inject({
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    for (const p of ['/docs', '/dashboard', '/openapi.json']) expect(html.body).toContain(`http://lds.test${p}`);
  });

  it('/favicon.ico is not a 404', async () => {
    const res = await t.app.inject({ url: '/favicon.ico' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toContain('max-age');
  });

  it('error docs links use the public base URL', async () => {
    const res = await t.app.inject({ url: '/v1/nope' });
    expect(res.json().error.docs).toBe('http://lds.test/docs/errors#not_found');
  });
});

describe('plugin wiring', () => {
  it('registers every shared plugin under its own name', () => {
    for (const name of [
      'lds-envelope',
      'lds-request-id',
      'lds-route-table',
      'lds-unknown-params',
      'lds-http',
      'lds-docs',
      'lds-ops',
      'lds-webhooks',
    ])
      expect(t.app.hasPlugin(name), name).toBe(true);
  });

  it('refuses to register the HTTP plumbing before the error envelope it depends on', async () => {
    // A plugin registered out of order fails at boot, naming what it needs, instead of at the first request.
    const { default: Fastify } = await import('fastify');
    const { httpPlugin } = await import('../../src/http/index.js');
    const bare = Fastify({ logger: false });
    bare.decorate('config', t.config);
    bare.decorate('db', t.db.pool);
    bare.decorate('redis', undefined);
    bare.register(httpPlugin);
    await expect(bare.ready()).rejects.toThrow(/lds-envelope/);
    await bare.close().catch(() => undefined);
  });
});
