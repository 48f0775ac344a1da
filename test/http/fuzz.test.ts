// Property: for EVERY registered route (the full app, so routes added by any module are covered),
// malformed ids, timestamps, limits, offsets, state codes, slugs and random strings in the path,
// query and body get a 2xx/4xx answer with the error envelope on every 4xx: never a 5xx, never a
// hang. Requests go over real HTTP so a stream route's headers can be checked and the call ended.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let base: string;
let doc: { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
beforeAll(async () => {
  // Errors are logged so a 5xx found by the property shows its stack.
  t = await testApp({ deps: { logger: createLogger('error', { pretty: false }) } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doc = (await t.app.inject({ url: '/openapi.json' })).json();
});
afterAll(async () => t?.close());

const nasty = fc.oneof(
  fc.constantFrom(
    '-1', '0', '1', '1.5', '1e3', '0x10', 'abc', ' ', '%00', '%2F', '..', 'null', 'true', '[]', '{}', 'NaN', 'Infinity',
    '2147483648', '9007199254740993', '18446744073709551616', '9'.repeat(40), '10000000', '4294967297',
    '2024-13-01', '2024-02-30', '2024-01-01T25:00:00Z', '2024-01-01T00:00:00+99:99', 'yesterday', '1700000000',
    'ZZ', 'ca', 'US', 'DC', 'X', 'Bad Slug', 'health-care', 'UPPER', '-x-', '100001', '100000', '-5', '999999999999',
    "'; DROP TABLE bills; --", '\u0000', '\u202e', '😀', '%E0%A4%A', 'a'.repeat(3000),
  ),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: -1e12, max: 1e12 }).map(String),
  fc.double({ noNaN: false }).map(String),
);

const QUERY_NAMES = ['limit', 'offset', 'state', 'since', 'updated_since', 'session_id', 'status_id', 'topic', 'subject', 'q', 'cycle', 'people_id', 'bill_id', 'last_event_id', 'reasons', 'states', 'from', 'to', 'date', 'chamber'];

interface Target { path: string; method: string; params: string[]; query: string[]; may503: boolean }

function targets(): Target[] {
  const out: Target[] = [];
  for (const { url, methods } of t.app.routeTable.urls()) {
    if (url.includes('*')) continue;
    const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const op = doc.paths[path]?.[method.toLowerCase()] as { parameters?: { name: string; in: string }[]; responses?: Record<string, unknown> } | undefined;
      const declared = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      // A documented 503 (snapshot or readiness unavailable) reflects the environment, not the input.
      out.push({ path: url, method, params, query: [...new Set([...declared, ...QUERY_NAMES])], may503: Boolean(op?.responses?.['503']) });
    }
  }
  return out;
}

async function call(target: Target, pathVals: string[], query: [string, string][], body: string | undefined, withKey: boolean) {
  let path = target.path;
  target.params.forEach((p, i) => (path = path.replace(`:${p}`, encodeURIComponent(pathVals[i] ?? '1') || '1')));
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = withKey ? { 'x-api-key': t.key } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const ctl = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, { method: target.method, headers, body, signal: ctl, redirect: 'manual' });
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, type, text: '' };
  }
  return { status: res.status, type, text: await res.text() };
}

it('every route answers malformed input with 2xx/4xx and the envelope, never 5xx or a hang', async () => {
  const all = targets();
  expect(all.length).toBeGreaterThan(5);
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: all.length - 1 }),
      fc.array(nasty, { minLength: 3, maxLength: 3 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), nasty), { maxLength: 4 }),
      fc.option(fc.oneof(fc.string({ maxLength: 60 }), fc.json(), fc.constantFrom('{"webhook_url":"http://127.0.0.1:1/x","events":["nope"]}', '{"x":', '[]', 'null')), { nil: undefined }),
      fc.boolean(),
      async (i, pathVals, rawQuery, rawBody, withKey) => {
        const target = all[i];
        seen.add(`${target.method} ${target.path}`);
        const query = rawQuery.map(([n, v]) => [target.query[n % target.query.length], v] as [string, string]);
        const body = target.method === 'GET' || target.method === 'DELETE' ? undefined : rawBody;
        const res = await call(target, pathVals, query, body, withKey);
        const where = `${target.method} ${target.path} ${JSON.stringify({ pathVals, query, body, withKey })} -> ${res.status} ${res.text.slice(0, 300)}`;
        if (!(res.status === 503 && target.may503)) expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400 && res.status < 500) {
          const err = JSON.parse(res.text).error;
          expect(typeof err.code, where).toBe('string');
          expect(err.request_id, where).toMatch(/^[0-9a-f-]{36}$/);
          expect(err.docs, where).toContain('/docs/errors#');
        }
      },
    ),
    { numRuns: Math.max(400, all.length * 8), interruptAfterTimeLimit: 240_000 },
  );
  // Every route was exercised at least once.
  for (const target of all) if (!seen.has(`${target.method} ${target.path}`)) await call(target, ['abc', '-1', 'x'], [['limit', 'abc']], undefined, true).then((r) => expect(r.status).toBeLessThan(500));
}, 300_000);
