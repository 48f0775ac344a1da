// lds_stream_connections is the stream autoscaler's signal: it must count the SSE and WebSocket
// connections open in this process, and fall when they close.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, type RawStream } from '../realtime/sse-client.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { metricValue } from '../helpers/metrics.js';

describe('lds_stream_connections', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp({ config: { streamHeartbeatMs: 60_000, streamRotateMs: 600_000 } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  const gauge = () => metricValue(t.app, 'lds_stream_connections');

  /** Waits until the gauge reads `want` (connections register and leave asynchronously). */
  const until = (want: number) => waitFor(`the gauge to read ${want}`, async () => (await gauge()) === want);

  it('counts open SSE and WebSocket connections and drops closed ones', async () => {
    expect(await gauge()).toBe(0);
    const sse: RawStream[] = [];
    for (let i = 0; i < 3; i++) sse.push(await openStream(`${base}/v1/stream`, { 'x-api-key': t.key }));
    for (const s of sse) expect(s.status).toBe(200);
    const sockets: WebSocket[] = [];
    for (let i = 0; i < 2; i++) {
      const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/stream/ws`, { headers: { 'x-api-key': t.key } });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      sockets.push(ws);
    }
    await until(5);

    sse[0].close();
    sockets[0].close();
    await until(3);

    for (const s of sse.slice(1)) s.close();
    sockets[1].close();
    await until(0);
  }, 30_000);
});
