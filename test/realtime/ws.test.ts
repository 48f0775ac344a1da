import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { change, realtimeEnv, until, type Env } from './env.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ streamHeartbeatMs: 200, streamRotateMs: 1500, relayPollMs: 100 });
});
// No help from the test: the app itself must cut refused-upgrade sockets and open WebSockets on close.
afterAll(async () => env?.close(), 10_000);

const wsUrl = () => env.url.replace(/^http/, 'ws');

describe('GET /v1/stream/ws', () => {
  it('streams the same events as JSON messages with filters, heartbeat, rotate and resume', async () => {
    const msgs: { type: string; id?: string; data?: Record<string, unknown>; reason?: string; cursor?: string }[] = [];
    const ws = new WebSocket(`${wsUrl()}/v1/stream/ws?states=TX&since=2000-01-01`, {
      headers: { 'x-api-key': env.key },
    });
    let binary = 0;
    ws.on('message', (m: Buffer, isBinary: boolean) => {
      if (isBinary) binary++;
      msgs.push(JSON.parse(String(m)));
    });
    const closed = new Promise<number>((r) => ws.on('close', (code: number) => r(code)));
    await change(env.db, 'TX', 'Vote', 3);
    await change(env.db, 'CA', 'Vote', 3);
    const code = await closed;
    expect(code).toBe(1000);
    // every message is a text frame, shared pre-encoded frames included
    expect(binary).toBe(0);
    const events = msgs.filter((m) => m.type === 'bill_change');
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ state: 'TX', reason: 'Vote', bill_number: 'HB3', changed_at: events[0].id });
    expect(msgs.some((m) => m.type === 'ping')).toBe(true);
    const rotate = msgs.at(-1)!;
    expect(rotate).toEqual({ type: 'rotate', reason: 'wall_clock', cursor: events[0].id });
    // resume from the cursor: only what came after
    await change(env.db, 'TX', 'Text', 4);
    const again: typeof msgs = [];
    const ws2 = new WebSocket(`${wsUrl()}/v1/stream/ws?states=TX&last_event_id=${rotate.cursor}`, {
      headers: { 'x-api-key': env.key },
    });
    ws2.on('message', (m: Buffer) => again.push(JSON.parse(String(m))));
    await until(() => again.some((m) => m.type === 'bill_change'));
    ws2.close();
    expect(again.filter((m) => m.type === 'bill_change').map((m) => m.data?.reason)).toEqual(['Text']);
  });

  it('refuses a bad parameter or a missing key before the upgrade', async () => {
    for (const [q, headers, status] of [
      ['states=ZZ', { 'x-api-key': env.key }, 400],
      ['', {}, 401],
    ] as const) {
      const ws = new WebSocket(`${wsUrl()}/v1/stream/ws?${q}`, { headers });
      const got = await new Promise<number>((r) => {
        ws.on('unexpected-response', (_req: unknown, res: { statusCode?: number }) => r(res.statusCode ?? 0));
        ws.on('open', () => r(101));
        ws.on('error', () => undefined);
      });
      ws.terminate();
      expect(got).toBe(status);
    }
  });
  it('closes promptly with an open WebSocket and a refused upgrade left behind', async () => {
    const app = await buildTestApp(testConfig(), {
      db: env.db.pool,
      logger: false,
      bus: env.relayBus,
      databaseUrl: env.db.url,
    });
    const url = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const open = new WebSocket(`${url}/v1/stream/ws?states=CA`, { headers: { 'x-api-key': env.key } });
    const msgs: { type: string; reason?: string }[] = [];
    open.on('message', (m: Buffer) => msgs.push(JSON.parse(String(m))));
    await new Promise((r) => open.once('open', r));
    // a refused upgrade whose client keeps its socket open
    const refused = new WebSocket(`${url}/v1/stream/ws`);
    refused.on('error', () => undefined);
    await new Promise((r) => refused.once('unexpected-response', r));
    const closed = new Promise<number>((r) => open.once('close', (code: number) => r(code)));
    // would wait forever on the leftover sockets (vitest's timeout fails the test)
    await app.close();
    expect(await closed).toBe(1000);
    expect(msgs.at(-1)).toMatchObject({ type: 'rotate', reason: 'server_shutdown' });
  });
});
