// Slow-client protection: a client that does not finish sending its headers is cut off after
// HEADERS_TIMEOUT_MS, one that does not finish its whole request (body included: a trickled body,
// a chunk size that never ends) after REQUEST_TIMEOUT_MS with a 408 envelope, and an
// unauthenticated connection as soon as its 401 is sent; long-lived stream responses (SSE and
// WebSocket) on other connections are not cut.
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

describe('server timeouts', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await testApp({
      config: { headersTimeoutMs: 1000, requestTimeoutMs: 1500, streamHeartbeatMs: 200, streamRotateMs: 60_000 },
    });
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
    const pings = () => (received.match(/: ping /g) ?? []).length;
    const before = pings();
    await waitFor('a heartbeat after the slow client was cut', () => pings() > before || stream.destroyed);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(pings()).toBeGreaterThan(before);
    expect(stream.destroyed).toBe(false);
    stream.destroy();
  });

  /** Sends `head`, then trickles `drip` one byte at a time until the server closes; resolves with all it answered. */
  function trickle(head: string, drip = 'a'.repeat(10_000)): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(head));
      let got = '';
      let i = 0;
      const timer = setInterval(() => {
        if (!s.destroyed && i < drip.length) s.write(drip[i++]);
      }, 100);
      s.on('data', (d) => (got += d.toString()));
      s.on('error', () => undefined); // a write racing the close
      s.on('close', () => {
        clearInterval(timer);
        resolve(got);
      });
      s.on('timeout', reject);
    });
  }

  function expect408(answer: string) {
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.error).toMatchObject({ code: 'request_timeout' });
    expect(body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.error.docs).toMatch(/\/docs\/errors#request_timeout$/);
  }

  it('a keyed request whose body trickles gets 408 and is closed; SSE and WebSocket streams live on', async () => {
    const sse = await open();
    let received = '';
    sse.on('data', (c) => (received += c.toString()));
    sse.write(`GET /v1/stream HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.key}\r\nAccept: text/event-stream\r\n\r\n`);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/stream/ws`, { headers: { 'x-api-key': t.key } });
    let wsMessages = 0;
    ws.on('message', () => wsMessages++);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });

    const answer = await trickle(
      `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n`,
    );
    expect408(answer);

    // Both streams outlived the request timeout and still receive heartbeats.
    const countPings = () => (received.match(/: ping /g) ?? []).length;
    const [pings, msgs] = [countPings(), wsMessages];
    await waitFor(
      'a heartbeat on both streams',
      () => (countPings() > pings && wsMessages > msgs) || sse.destroyed || ws.readyState !== WebSocket.OPEN,
    );
    expect(countPings()).toBeGreaterThan(pings);
    expect(wsMessages).toBeGreaterThan(msgs);
    expect(sse.destroyed).toBe(false);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    sse.destroy();
    ws.terminate();
  }, 20_000);

  it('a chunked body announcing a chunk of FFFFFFFFFFFFFFFF bytes gets 408, not an endless wait', async () => {
    const answer = await trickle(
      `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n{"`,
    );
    expect408(answer);
  }, 20_000);
});

describe('unauthenticated connections', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // The longest request timeout: only the 401 itself can end these connections.
    t = await testApp({ config: { requestTimeoutMs: 600_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t?.close());

  /** Sends `head` (and trickles a body when asked); resolves with the answer once the server closes. */
  function send(head: string, trickleBody: boolean): Promise<string> {
    return new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(head));
      let got = '';
      const timer = trickleBody ? setInterval(() => !s.destroyed && s.write('a'), 100) : undefined;
      s.on('data', (d) => (got += d.toString()));
      s.on('error', () => undefined);
      s.on('close', () => {
        clearInterval(timer);
        resolve(got);
      });
    });
  }

  for (const [name, key] of [
    ['no key', ''],
    ['an unknown key', 'X-API-Key: lds_not_a_key\r\n'],
  ] as const) {
    it(`closes the connection once the 401 is sent (${name}), keep-alive or a body still coming`, async () => {
      const keepAlive = await send(`GET /v1/bills HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n${key}\r\n`, false);
      expect(keepAlive).toMatch(/^HTTP\/1\.1 401 /);
      expect(keepAlive).toMatch(/\r\nconnection: close\r\n/i);
      const slowBody = await send(
        `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${key}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
        true,
      );
      expect(slowBody).toMatch(/^HTTP\/1\.1 401 /);
      expect(slowBody).toContain('"code":"' + (key ? 'invalid_api_key' : 'unauthorized') + '"');
    }, 20_000);
  }
});
