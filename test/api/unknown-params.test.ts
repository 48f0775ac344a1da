// Unknown query parameters are refused with 400 bad_request naming the accepted ones, on every /v1
// route, while every parameter the spec names stays accepted where the spec names it.
import { describe, expect, it } from 'vitest';
import { F } from '../helpers/fixtures.js';
import { useFixtureApp } from './helpers.js';

const r = useFixtureApp();
const B = F.bills.hb1;
const P = F.people.alice;

// Parameter names and a valid value, from the Endpoints tables of the spec.
const SPEC: [string, Record<string, string>][] = [
  ['/v1/sessions', { state: 'TX', limit: '5' }],
  [
    '/v1/bills',
    {
      state: 'TX',
      session_id: '1',
      bill_number: 'HB1',
      q: 'school',
      topic: 'education',
      subject: 'Taxation',
      sponsor_last_name: 'Brown',
      status_id: '2',
      title_contains: 'school',
      updated_since: '2020-01-01',
      limit: '5',
      offset: '0',
    },
  ],
  [`/v1/bills/${B}/changes`, { include_whitespace: '1' }],
  [`/v1/bills/${B}/diff`, { from: '1', to: '2' }],
  [
    '/v1/legislators',
    { state: 'TX', q: 'a', party: 'Dem', chamber: 'House', district: 'HD-1', limit: '5', offset: '0' },
  ],
  [`/v1/legislators/${P}/votes`, { limit: '5', offset: '0' }],
  [`/v1/legislators/${P}/bills`, { limit: '5', offset: '0' }],
  ['/v1/committees', { state: 'TX', chamber: 'House', q: 'ed', limit: '5' }],
  ['/v1/hearings', { state: 'TX', since: '2020-01-01', limit: '5' }],
  ['/v1/subjects', { state: 'TX', q: 'tax', limit: '5' }],
  [
    '/v1/candidates',
    { state: 'TX', office: 'House', cycle: '2026', fec_id: 'H6TX01001', bioguide: 'L000123', limit: '5', offset: '0' },
  ],
  ['/v1/changes', { since: '2020-01-01', state: 'TX', reason: 'Vote', limit: '5' }],
];

describe('unknown query parameters', () => {
  it('every parameter the spec names is accepted on its endpoint', async () => {
    for (const [path, params] of SPEC) {
      const res = await r.get(`${path}?${new URLSearchParams(params)}`);
      if (res.status === 400) expect(res.body.error.message, path).not.toMatch(/Unknown query parameter/);
      expect([200, 404], `${path} ${JSON.stringify(res.body?.error)}`).toContain(res.status);
    }
  });

  it('a parameter an endpoint does not list is 400 bad_request naming it and the accepted ones', async () => {
    for (const [path, params] of SPEC) {
      const res = await r.get(`${path}?${new URLSearchParams({ ...params, sate: 'MS' })}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
      expect(res.body.error.field).toBe('sate');
      expect(res.body.error.message).toContain("'sate'");
      for (const name of Object.keys(params)) expect(res.body.error.message, `${path} ${name}`).toContain(name);
    }
  });

  it('an endpoint without query parameters refuses any', async () => {
    for (const path of [
      `/v1/bills/${B}/sponsors`,
      '/v1/states',
      '/v1/topics',
      `/v1/legislators/${P}`,
      '/v1/webhooks',
    ]) {
      const res = await r.get(`${path}?limit=5`);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toMatch(/takes no query parameters/);
    }
    // one bill takes include= only
    expect((await r.get(`/v1/bills/${B}?limit=5`)).body.error.message).toMatch(/accepted: include\./);
  });

  it('every parameter given empty (or only spaces) is 400 naming it, never read as "no filter"', async () => {
    // updated_since= used to answer every bill, state= every state; session_id= was already 400.
    for (const [path, params] of SPEC) {
      for (const name of Object.keys(params)) {
        if (name === 'include_whitespace') continue; // the spec: any value but 1 excludes
        for (const empty of ['', '%20%20']) {
          const res = await r.get(
            `${path}?${new URLSearchParams({ ...params, [name]: 'X' })}`.replace(`${name}=X`, `${name}=${empty}`),
          );
          expect([path, name, res.status], JSON.stringify(res.body?.error)).toEqual([path, name, 400]);
          expect(res.body.error).toMatchObject({ code: 'bad_request', field: name });
          expect(res.body.error.message).toContain(`'${name}'`);
        }
      }
    }
    for (const url of ['/v1/stream?states=', '/v1/bills?state=TX&state=']) {
      expect((await r.get(url)).status, url).toBe(400);
    }
    expect((await r.get(`/v1/bills/${B}/changes?include_whitespace=`)).status).toBe(200);
  });

  it('a request without a key still gets 401 first', async () => {
    const res = await r.t.app.inject({ url: '/v1/bills?sate=MS' });
    expect(res.statusCode).toBe(401);
  });
});
