// Per-key rules for open streams (issue 25 item 3): a cap on concurrent streams per key by tier,
// SSE and WebSocket together, shared by replicas through Redis when REDIS_URL is set (429
// stream_limit in the envelope beyond it); and a key revoked while its streams are open: they end
// within KEY_CACHE_MS with a final error naming the reason (one key used to hold 2,000 streams, and
// a revoked key's streams lived on until their rotation).
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/keys/store.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { realtimeEnv, until, type Env } from './env.js';
import { openStream, type RawStream } from './sse-client.js';

const SETTINGS = {
  streamConnectionsPerKey: { free: 2, standard: 3 },
  keyCacheMs: 500,
  streamRotateMs: 120_000,
  streamHeartbeatMs: 60_000,
  relayPollMs: 100,
};
const noRedis = !process.env.REDIS_URL;

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv(SETTINGS);
});
afterAll(async () => env?.close());

const sse = (base: string, key: string) => openStream(`${base}/v1/stream`, { 'x-api-key': key });

interface WsClient {
  ws: { terminate(): void };
  /** 'open' or the HTTP status of a refused upgrade */
  outcome: Promise<'open' | number>;
  messages: Record<string, unknown>[];
  closed?: number;
}

function ws(base: string, key: string): WsClient {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/v1/stream/ws`, { headers: { 'x-api-key': key } });
  const c: WsClient = { ws: socket, messages: [], outcome: undefined as unknown as Promise<'open' | number> };
  socket.on('message', (m: Buffer) => c.messages.push(JSON.parse(m.toString())));
  socket.on('close', (code: number) => (c.closed = code));
  socket.on('error', () => undefined);
  c.outcome = new Promise((resolve) => {
    socket.once('open', () => resolve('open'));
    socket.once('unexpected-response', (_req: unknown, res: { statusCode?: number; resume(): void }) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      socket.terminate();
    });
  });
  return c;
}

async function refusal(s: RawStream) {
  await s.ended;
  return {
    status: s.status,
    retryAfter: s.headers['retry-after'],
    body: JSON.parse(s.text()) as { error: Record<string, unknown> },
  };
}

describe('stream limits per key', () => {
  it('caps concurrent streams per key by tier, SSE and WebSocket together, with 429 stream_limit', async () => {
    const { api_key: key } = await env.newKey({ tier: 'free' });
    const first = await sse(env.url, key);
    const second = ws(env.url, key);
    expect(first.status).toBe(200);
    expect(await second.outcome).toBe('open');

    const third = await refusal(await sse(env.url, key));
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('5');
    expect(third.body.error).toMatchObject({
      code: 'stream_limit',
      limit: 2,
      request_id: expect.any(String),
      docs: expect.stringContaining('stream_limit'),
    });
    expect(await ws(env.url, key).outcome).toBe(429);

    // another key, and another tier, have their own counts
    const { api_key: other } = await env.newKey({ tier: 'standard' });
    const others = await Promise.all([sse(env.url, other), sse(env.url, other), sse(env.url, other)]);
    expect(others.map((s) => s.status)).toEqual([200, 200, 200]);
    expect((await sse(env.url, other)).status).toBe(429);

    // a closed stream frees its slot
    first.close();
    const again = await until(async () => {
      const s = await sse(env.url, key);
      if (s.status === 200) return s;
      await s.ended;
      return undefined;
    });
    again.close();
    second.ws.terminate();
    for (const s of others) s.close();
  });

  describe.skipIf(noRedis)('across replicas (Redis)', () => {
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      app = await buildTestApp(testConfig(SETTINGS), {
        db: env.db.pool,
        logger: false,
        bus: env.relayBus,
        databaseUrl: env.db.url,
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => app?.close());

    it('counts the streams a key holds on every replica', async () => {
      const { api_key: key } = await env.newKey({ tier: 'free' });
      const a = await sse(env.url, key);
      const b = await sse(url, key);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect((await refusal(await sse(env.url, key))).body.error.code).toBe('stream_limit');
      expect((await refusal(await sse(url, key))).body.error.code).toBe('stream_limit');
      b.close();
      const c = await until(async () => {
        const s = await sse(env.url, key);
        if (s.status === 200) return s;
        await s.ended;
        return undefined;
      });
      a.close();
      c.close();
    });
  });

  it('ends the open streams of a revoked key (SSE and WebSocket) with a final error, within KEY_CACHE_MS', async () => {
    const { api_key: key, api_key_id: id } = await env.newKey({ tier: 'standard' });
    const stream = await sse(env.url, key);
    const socket = ws(env.url, key);
    expect(stream.status).toBe(200);
    expect(await socket.outcome).toBe('open');
    await revokeKey(env.db.pool, id);

    await stream.ended;
    const last = stream.events().at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data!)).toEqual({ reason: 'revoked_api_key' });
    await until(() => socket.closed !== undefined);
    expect(socket.closed).toBe(1008);
    expect(socket.messages.at(-1)).toEqual({ type: 'error', reason: 'revoked_api_key' });
    // and the reconnect is refused at once, not served from a cached answer
    const res = await fetch(`${env.url}/v1/stream`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('revoked_api_key');
  });
});
