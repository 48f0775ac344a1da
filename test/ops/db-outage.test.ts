// A database outage seen by one process, in-process and fast (the full restart test is
// pg-restart.test.ts): the app's pool reaches PostgreSQL through a TCP proxy the test cuts, which
// breaks held connections and refuses new ones, as a restart does. Checks: answers are 503
// service_unavailable (never 500) with no internals, open SSE and WebSocket streams get one
// database_unavailable error each and stay open, the OpenAPI document lists the 503, and the
// classification of errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { MemoryBus } from '../../src/bus/memory.js';
import { isDatabaseUnavailable } from '../../src/db/health.js';
import { createPool, withTransaction, type Pool } from '../../src/db/pool.js';
import { createKey } from '../../src/keys/store.js';
import { CompletionBatcher } from '../../src/webhooks/queue/outcomes.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { openStream, type RawStream } from '../realtime/sse-client.js';
import { pgProxy, type PgProxy } from '../helpers/pg-proxy.js';
import { until } from '../helpers/wait.js';
import type { ChangeEvent } from '../../src/changes/events.js';

describe('database outage', () => {
  let db: TestDatabase;
  let proxy: PgProxy;
  let pool: Pool;
  let app: FastifyInstance;
  let url: string;
  let key: string;

  beforeAll(async () => {
    db = await freshDatabase();
    proxy = pgProxy(new URL(db.url));
    const via = new URL(db.url);
    via.hostname = '127.0.0.1';
    via.port = String(await proxy.listen());
    pool = createPool(via.toString(), 4, 'lds-test-outage');
    // a long key cache, so requests during the outage reach their route's own queries
    app = await buildTestApp(testConfig({ keyCacheMs: 60_000, streamHeartbeatMs: 500 }), {
      db: pool,
      logger: false,
      bus: new MemoryBus<ChangeEvent>(),
      databaseUrl: via.toString(),
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    key = (await createKey(db.pool, { org: 'outage', tier: 'enterprise', burst: 10_000 })).api_key;
  });

  afterAll(async () => {
    await app?.close();
    await pool?.end().catch(() => undefined);
    await proxy?.close();
    await db?.drop();
  });

  it('answers 503 service_unavailable, tells open streams once, and recovers', async () => {
    const get = (path: string) => fetch(`${url}${path}`, { headers: { 'x-api-key': key } });
    expect((await get('/v1/bills?limit=2')).status).toBe(200);
    const sse: RawStream = await openStream(`${url}/v1/stream`, { 'x-api-key': key });
    const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/stream/ws`, { headers: { 'x-api-key': key } });
    const wsMessages: { type: string; reason?: string; cursor?: string }[] = [];
    ws.on('message', (m: Buffer) => wsMessages.push(JSON.parse(m.toString())));
    await new Promise((r) => ws.once('open', r));
    // a transaction holding a client when the connection breaks (the client pg-pool no longer watches)
    const held = withTransaction(pool, async (c) => {
      await c.query('SELECT 1');
      proxy.down();
      await c.query('SELECT 1');
    });
    await expect(held).rejects.toSatisfy(isDatabaseUnavailable);
    await until(() => pool.status.down);

    for (const path of ['/v1/bills?limit=2', '/v1/states', '/v1/changes', '/v1/webhooks']) {
      const res = await get(path);
      const body = (await res.json()) as { error: { code: string; message: string; request_id: string; docs: string } };
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(body.error).toMatchObject({
        code: 'service_unavailable',
        request_id: expect.any(String),
        docs: expect.stringContaining('service_unavailable'),
      });
      expect(body.error.message).not.toMatch(/postgres|ECONN|terminat|connect|sql/i);
    }

    const sseError = await until(() => sse.events().find((e) => e.event === 'error'));
    expect(JSON.parse(sseError.data!)).toMatchObject({
      reason: 'database_unavailable',
      cursor: expect.stringMatching(/^\d{4}-/),
      retry_ms: expect.any(Number),
    });
    const wsError = await until(() => wsMessages.find((m) => m.type === 'error'));
    expect(wsError).toMatchObject({ reason: 'database_unavailable', cursor: expect.stringMatching(/^\d{4}-/) });

    proxy.up();
    await until(() => !pool.status.down);
    expect((await get('/v1/bills?limit=2')).status).toBe(200);
    // one notice per outage, and both streams are still open
    expect(sse.events().filter((e) => e.event === 'error')).toHaveLength(1);
    expect(wsMessages.filter((m) => m.type === 'error')).toHaveLength(1);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(sse.text().includes('event: rotate')).toBe(false);
    sse.close();
    ws.terminate();
  });

  it('keeps a delivery outcome through a short outage instead of dropping it (which would send it again)', async () => {
    const batcher = new CompletionBatcher(pool, 10, 1);
    proxy.down();
    const outcome = {
      status: 'delivered' as const,
      startedAt: new Date(),
      durationMs: 5,
      statusCode: 204,
      error: null,
      responseExcerpt: '',
      nextAttemptAt: null,
    };
    // no such delivery: once the database is back the statement runs and reports "claim not held"
    const recorded = batcher.complete({ id: 987_654_321, attempts: 1, subscription_id: 1 }, outcome);
    let settled = false;
    void recorded.finally(() => (settled = true)).catch(() => undefined);
    await until(() => batcher.stats.statements >= 3); // failed and retried while down
    expect(settled).toBe(false);
    proxy.up();
    await expect(recorded).resolves.toBe(false);
  });

  it('documents the 503 on every keyed route', async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const keyed = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => ({ p, m, r: op.responses ?? {} })))
      .filter((o) => o.r['401']);
    expect(keyed.length).toBeGreaterThan(30);
    expect(keyed.filter((o) => !o.r['503']).map((o) => `${o.m} ${o.p}`)).toEqual([]);
  });

  it('classifies connection failures as unavailable and query errors as not', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('invalid byte sequence'), { code: '22021' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
