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
    '-1',
    '0',
    '1',
    '1.5',
    '1e3',
    '0x10',
    'abc',
    ' ',
    '%00',
    '%2F',
    '..',
    'null',
    'true',
    '[]',
    '{}',
    'NaN',
    'Infinity',
    '2147483648',
    '9007199254740993',
    '18446744073709551616',
    '9'.repeat(40),
    '10000000',
    '4294967297',
    '2024-13-01',
    '2024-02-30',
    '2024-01-01T25:00:00Z',
    '2024-01-01T00:00:00+99:99',
    'yesterday',
    '1700000000',
    'ZZ',
    'ca',
    'US',
    'DC',
    'X',
    'Bad Slug',
    'health-care',
    'UPPER',
    '-x-',
    '100001',
    '100000',
    '-5',
    '999999999999',
    "'; DROP TABLE bills; --",
    '\u0000',
    '\u202e',
    '😀',
    '%E0%A4%A',
    'a'.repeat(3000),
    'a\u0000b',
    'HB\u00001',
    '\u0001',
    '\t',
    'x\ny',
    '\u001b[0m',
    '\u007f',
    '\u0085',
    '\u009f',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: -1e12, max: 1e12 }).map(String),
  fc.double({ noNaN: false }).map(String),
);

const QUERY_NAMES = [
  'limit',
  'offset',
  'state',
  'since',
  'updated_since',
  'session_id',
  'status_id',
  'topic',
  'subject',
  'q',
  'cycle',
  'people_id',
  'bill_id',
  'last_event_id',
  'reasons',
  'states',
  'from',
  'to',
  'date',
  'chamber',
];

interface Target {
  path: string;
  method: string;
  params: string[];
  query: string[];
  may503: boolean;
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const { url, methods } of t.app.routeTable.urls()) {
    if (url.includes('*')) continue;
    const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const op = doc.paths[path]?.[method.toLowerCase()] as
        { parameters?: { name: string; in: string }[]; responses?: Record<string, unknown> } | undefined;
      const declared = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      // A documented 503 (snapshot or readiness unavailable) reflects the environment, not the input.
      out.push({
        path: url,
        method,
        params,
        query: [...new Set([...declared, ...QUERY_NAMES])],
        may503: Boolean(op?.responses?.['503']),
      });
    }
  }
  return out;
}

async function call(
  target: Target,
  pathVals: string[],
  query: [string, string][],
  body: string | undefined,
  withKey: boolean,
) {
  let path = target.path;
  target.params.forEach((p, i) => (path = path.replace(`:${p}`, encodeURIComponent(pathVals[i] ?? '1') || '1')));
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = withKey ? { 'x-api-key': t.key } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const ctl = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
    method: target.method,
    headers,
    body,
    signal: ctl,
    redirect: 'manual',
  });
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
      fc.option(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.json(),
          fc.constantFrom(
            '{"webhook_url":"http://127.0.0.1:1/x","events":["nope"]}',
            '{"x":',
            '[]',
            'null',
            '{"webhook_url":"https://example.com/h","events":["passed"],"filters":{"subjects":["Health\\u0000"]}}',
          ),
        ),
        { nil: undefined },
      ),
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
  for (const target of all)
    if (!seen.has(`${target.method} ${target.path}`))
      await call(target, ['abc', '-1', 'x'], [['limit', 'abc']], undefined, true).then((r) =>
        expect(r.status).toBeLessThan(500),
      );
}, 300_000);

// Control characters (NUL and the rest of C0, DEL, C1) in EVERY string parameter: each documented
// query parameter, each path parameter and each string field of each JSON body answers 400
// bad_request naming that parameter (PostgreSQL refuses a NUL in text: it used to surface as a 500).
const CONTROLS = ['\u0000', 'a\u0000b', '\u0001', '\t', '\n', '\u001b', '\u007f', '\u0085', '\u009f'];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** Every string leaf of a body schema as [field name, a body holding `value` there]. */
function stringLeaves(schema: JsonSchema, value: string, path: string[] = []): [string, unknown][] {
  const out: [string, unknown][] = [];
  const wrap = (v: unknown): unknown => path.reduceRight<unknown>((acc, k) => ({ [k]: acc }), v);
  for (const alt of schema.anyOf ?? [schema]) {
    if (alt.properties)
      for (const [k, sub] of Object.entries(alt.properties)) out.push(...stringLeaves(sub, value, [...path, k]));
    else if (alt.type === 'array' && alt.items) {
      for (const [name, body] of stringLeaves(alt.items, value, []))
        if (name === '') out.push([path.join('.'), wrap([body])]);
    } else if (alt.type === 'string' || (Array.isArray(alt.type) && alt.type.includes('string')))
      out.push([path.join('.'), wrap(value)]);
  }
  return out;
}

it('control characters in every query, path and body parameter answer 400 naming the parameter', async () => {
  const tested = new Set<string>();
  let requests = 0;
  for (const { url, methods } of t.app.routeTable.urls()) {
    if (url.includes('*')) continue;
    const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const op = doc.paths[path]?.[method.toLowerCase()] as
        | {
            parameters?: { name: string; in: string }[];
            requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
          }
        | undefined;
      const target: Target = { path: url, method, params, query: [], may503: false };
      const cases: { name: string; pathVals: string[]; query: [string, string][]; body?: string }[] = [];
      for (const c of CONTROLS) {
        for (const q of (op?.parameters ?? []).filter((p) => p.in === 'query'))
          cases.push({ name: q.name, pathVals: [], query: [[q.name, c]] });
        params.forEach((p, i) =>
          cases.push({ name: p, pathVals: params.map((_, j) => (j === i ? `1${c}` : '1')), query: [] }),
        );
        const schema = op?.requestBody?.content?.['application/json']?.schema;
        if (schema)
          for (const [name, body] of stringLeaves(schema, `x${c}`))
            cases.push({ name, pathVals: [], query: [], body: JSON.stringify(body) });
      }
      for (const k of cases) {
        const res = await call(
          target,
          k.pathVals,
          k.query,
          k.body ?? (method === 'GET' || method === 'DELETE' ? undefined : '{}'),
          true,
        );
        requests++;
        const where = `${method} ${url} ${JSON.stringify(k)} -> ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, where).toBe(400);
        const err = JSON.parse(res.text).error;
        expect(err, where).toMatchObject({ code: 'bad_request', field: k.name });
        expect(err.message, where).toMatch(/control character/);
        tested.add(`${url} ${k.name}`);
      }
    }
  }
  expect(requests).toBeGreaterThan(100);
  // The parameters the NUL-byte report named are among those exercised.
  for (const name of [
    '/v1/bills bill_number',
    '/v1/bills q',
    '/v1/bills subject',
    '/v1/bills sponsor_last_name',
    '/v1/bills title_contains',
    '/v1/legislators q',
    '/v1/legislators party',
    '/v1/legislators chamber',
    '/v1/legislators district',
    '/v1/committees chamber',
    '/v1/committees q',
    '/v1/subjects q',
    '/v1/candidates office',
    '/v1/candidates fec_id',
    '/v1/candidates bioguide',
    '/v1/webhooks filters.subjects',
    '/v1/push-mirror filters.subjects',
    '/v1/webhooks webhook_url',
  ])
    expect(tested, name).toContain(name);
}, 300_000);
