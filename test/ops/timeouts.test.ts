// Slow-client protection: a client that does not finish sending its headers is cut off after
// HEADERS_TIMEOUT_MS, while a long-lived stream response on another connection is not.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

describe('server timeouts', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await testApp({ config: { headersTimeoutMs: 1000, streamHeartbeatMs: 200, streamRotateMs: 60_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t?.close());

  function open(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s));
      s.on('error', reject);
    });
  }

  it('closes a connection whose headers never finish, but keeps a stream alive past that time', async () => {
    const slow = await open();
    const slowClosed = new Promise<number>((resolve) => {
      const started = Date.now();
      slow.on('close', () => resolve(Date.now() - started));
    });
    slow.resume(); // consume whatever arrives, so the end of the socket is seen
    slow.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n'); // and never the blank line

    const stream = await open();
    let received = '';
    stream.on('data', (c) => (received += c.toString()));
    stream.write(`GET /v1/stream HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.key}\r\nAccept: text/event-stream\r\n\r\n`);

    const elapsed = await slowClosed;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    // The stream started before the slow client was cut and is still receiving heartbeats after.
    const before = (received.match(/: ping /g) ?? []).length;
    await new Promise((r) => setTimeout(r, 1500));
    const after = (received.match(/: ping /g) ?? []).length;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(after).toBeGreaterThan(before);
    expect(stream.destroyed).toBe(false);
    stream.destroy();
  });
});
