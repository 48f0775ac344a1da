import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it('GET /v1/ready reports database, bus, redis and relay lag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ready).toBe(true);
    // redis: true when REDIS_URL is set (the limiter's client is pinged), null when it is not
    expect(body.checks).toEqual({ database: true, bus: true, redis: t.config.redisUrl ? true : null, relay: null });
    expect(body.relay_lag_seconds).toBe(0);
    expect(body.roles).toEqual(['api', 'stream', 'relay', 'dispatcher', 'worker', 'bulk']);
  });

  it('relay lag reflects the oldest unpublished change', async () => {
    await t.db.pool.query(
      `INSERT INTO changes (bill_id, state_id, reason_id, created_at) VALUES (1, 5, 1, clock_timestamp() - interval '90 seconds')`,
    );
    const res = await t.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(res.json().relay_lag_seconds).toBeGreaterThanOrEqual(90);
    await t.db.pool.query(`DELETE FROM changes`);
  });

  it('GET /v1/ready answers 503 when the bus is down', async () => {
    const saved = t.bus.healthy.bind(t.bus);
    t.bus.healthy = () => false;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/v1/ready' });
      expect(res.statusCode).toBe(503);
      const { error } = res.json();
      expect(error).toMatchObject({
        code: 'service_unavailable',
        request_id: res.headers['x-request-id'],
        ready: false,
        checks: { bus: false, database: true },
      });
      expect(error.message).toMatch(/\bbus\b/);
      expect(error.message).not.toMatch(/database/);
      expect(error.docs).toMatch(/\/docs\/errors#service_unavailable$/);
      expect(error).toHaveProperty('relay_lag_seconds');
    } finally {
      t.bus.healthy = saved;
    }
  });

  it('GET /metrics serves Prometheus text to loopback callers and hides itself from others', async () => {
    await t.app.inject({ method: 'GET', url: '/v1/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(/lds_http_requests_total\{route="\/v1\/health",method="GET",status="200"\} \d+/);
    expect(res.body).toContain('lds_http_request_duration_seconds_bucket');
    expect(res.body).toContain('lds_relay_lag_seconds');
    expect(res.body).toContain('lds_delivery_queue_depth');
    expect(res.body).toMatch(/^lds_stream_connections 0$/m);
    expect(res.body).toContain('# TYPE lds_reconnects_total counter');
    expect(res.body).toContain('# TYPE lds_webhook_attempts_total counter');
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(404);
  });
});

describe('metrics token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ config: { metricsToken: 's3cret-token' } });
  });
  afterAll(async () => t?.close());

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer s3cret-token' },
      remoteAddress: '203.0.113.9',
    });
    expect(ok.statusCode).toBe(200);
  });
});
