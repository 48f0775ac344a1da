// Timestamps with UTC offsets PostgreSQL cannot read (beyond ±15:59) are refused as 400 wherever a
// timestamp is a parameter, streams included (before they open); any PostgreSQL data exception
// (SQLSTATE class 22) a parameter still causes is a 400, never a 500 or a false database outage.
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/http/params.js';
import { buildTestApp, testApp, testConfig, type TestApp } from '../helpers/app.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await testApp({ config: { webhookAllowedHosts: ['127.0.0.1'] } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

const BAD = [
  '2024-01-01T00:00:00+99:99',
  '2024-01-01T00:00:00-2359',
  '2024-01-01T00:00:00+16:00',
  '2024-01-01T00:00+15:60',
];

function expect400(res: { statusCode: number; json(): { error: { code: string; field?: string } } }, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toMatchObject({ code: 'bad_request', field });
}

describe('UTC offsets beyond ±15:59', () => {
  it('are 400 on /v1/changes, /v1/bills and /v1/hearings', async () => {
    for (const v of BAD) {
      const q = encodeURIComponent(v);
      const get = (url: string) => t.app.inject({ url, headers: { 'x-api-key': t.key } });
      expect400(await get(`/v1/changes?since=${q}`), 'since');
      expect400(await get(`/v1/bills?updated_since=${q}`), 'updated_since');
      expect400(await get(`/v1/hearings?since=${q}`), 'since');
    }
  });

  it('are 400 on webhook recover since and until', async () => {
    const headers = { 'x-api-key': t.key };
    const sub = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers,
      payload: { webhook_url: 'http://127.0.0.1:9/h', events: ['status_change'] },
    });
    expect(sub.statusCode).toBe(201);
    const url = `/v1/webhooks/${sub.json().data.id}/recover`;
    expect400(await t.app.inject({ method: 'POST', url, headers, payload: { since: BAD[0] } }), 'since');
    expect400(
      await t.app.inject({ method: 'POST', url, headers, payload: { since: '2024-01-01', until: BAD[1] } }),
      'until',
    );
  });

  it('are refused with 400 before /v1/stream opens', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${base}/v1/stream?since=${encodeURIComponent(BAD[0])}`, {
      headers: { 'x-api-key': t.key },
      signal: ctl.signal,
    });
    const status = res.status;
    const body = (status === 400 ? await res.json() : undefined) as { error: unknown } | undefined;
    ctl.abort();
    expect(status).toBe(400);
    expect(body?.error).toMatchObject({ code: 'bad_request', field: 'since' });
  });

  it('are refused with 400 before /v1/stream/ws upgrades', async () => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/stream/ws?since=${encodeURIComponent(BAD[1])}`, {
      headers: { 'x-api-key': t.key },
    });
    const got = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req: unknown, res: { statusCode?: number }) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    ws.terminate();
    expect(got).toBe(400);
  });

  it('every timestamp the parser accepts, PostgreSQL reads', async () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    await fc.assert(
      fc.asyncProperty(two(99), two(99), fc.constantFrom('+', '-'), fc.boolean(), async (hh, mm, sign, colon) => {
        const raw = `2024-02-29T12:30:00${sign}${hh}${colon ? ':' : ''}${mm}`;
        let parsed: string | undefined;
        try {
          parsed = parseTimestamp(raw, 'since');
        } catch {
          return; // refused: fine either way
        }
        await t.db.pool.query('SELECT $1::timestamptz', [parsed]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('PostgreSQL data exceptions (class 22) caused by a parameter', () => {
  it('answer 400 bad_request, not 500 or 503', async () => {
    const app = await buildTestApp(testConfig(), { db: t.db.pool, logger: false, databaseUrl: t.db.url });
    // A route that hands its parameter to PostgreSQL unchecked stands for any validation gap.
    app.get('/probe', { config: { public: true } }, async (req) => {
      const { v, type } = req.query as { v: string; type: string };
      await app.db.query(type === 'int' ? 'SELECT $1::int' : 'SELECT $1::timestamptz', [v]);
      return { ok: true };
    });
    await app.ready();
    try {
      for (const [type, v] of [
        ['ts', '2024-01-01T00:00:00+99:99'],
        ['int', 'abc'],
        ['int', '99999999999'],
        ['ts', '2024-13-45'],
      ]) {
        const res = await app.inject({ url: `/probe?type=${type}&v=${encodeURIComponent(v)}` });
        expect(res.statusCode, `${type} ${v}`).toBe(400);
        expect(res.json().error.code).toBe('bad_request');
      }
    } finally {
      await app.close();
    }
  });
});
