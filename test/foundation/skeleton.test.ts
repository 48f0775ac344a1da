import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP skeleton', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it('GET /v1/health answers liveness with a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ ok: true, service: 'legislative-data-service', version: 'v1', ts: expect.any(String) });
    expect(Number.isNaN(Date.parse(body.ts))).toBe(false);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('unknown routes get the error envelope with the same request id as the header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: { 'x-api-key': t.key } });
    expect(res.statusCode).toBe(404);
    const { error } = res.json();
    expect(error.code).toBe('not_found');
    expect(error.request_id).toBe(res.headers['x-request-id']);
    expect(error.request_id).toMatch(UUID);
    expect(error.docs).toBe('http://lds.test/docs/errors#not_found');
    expect(typeof error.message).toBe('string');
  });
});
