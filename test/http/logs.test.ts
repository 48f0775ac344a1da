// What the logs must not hold: credentials sent in the query string (the access log redacts every
// secret-looking parameter), and error-level lines with stacks for a client's malformed WebSocket frame.
import net from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLineWriter, createLogger, redactUrl } from '../../src/logger.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { openStream } from '../realtime/sse-client.js';
import WebSocket from 'ws';

const lines: Record<string, unknown>[] = [];
let t: TestApp;
let port: number;
beforeAll(async () => {
  const stream = new PassThrough();
  let buf = '';
  stream.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  t = await testApp({ deps: { logger: createLogger('debug', { stream }) } });
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(async () => t?.close());

describe('access log', () => {
  it('redacts api_key and every secret-looking query parameter, keeps the others', async () => {
    const url =
      '/v1/bills?state=TX&api_key=lds_leakme1&access_token=tok_leakme2&client_secret=sec_leakme3&X-Signature=sig_leakme4&password=pw_leakme5&session_id=7';
    const res = await t.app.inject({ url, headers: { 'x-api-key': t.key } });
    expect(res.statusCode).toBeLessThan(500);
    await waitFor('the access log line', () =>
      lines.some((l) => l.msg === 'request completed' && JSON.stringify(l).includes('state=TX')),
    );
    const all = JSON.stringify(lines);
    for (const secret of ['lds_leakme1', 'tok_leakme2', 'sec_leakme3', 'sig_leakme4', 'pw_leakme5'])
      expect(all).not.toContain(secret);
    const logged = lines.find((l) => l.msg === 'request completed' && JSON.stringify(l).includes('state=TX')) as {
      req: { url: string };
    };
    expect(logged.req.url).toBe(
      '/v1/bills?state=TX&api_key=[redacted]&access_token=[redacted]&client_secret=[redacted]&X-Signature=[redacted]&password=[redacted]&session_id=7',
    );
  });

  it('writes one line per request, on completion, with the request, the status and the time taken', async () => {
    const res = await t.app.inject({ url: '/v1/bills?state=NY&limit=1', headers: { 'x-api-key': t.key } });
    expect(res.statusCode).toBe(200);
    const id = res.headers['x-request-id'];
    await waitFor('the access log line', () => lines.some((l) => l.reqId === id && l.msg === 'request completed'));
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/v1/bills?state=NY&limit=1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('records a stream on arrival too, since its answer completes minutes later', async () => {
    const s = await openStream(`http://127.0.0.1:${port}/v1/stream?since=2000-01-01&states=NY`, {
      'x-api-key': t.key,
    });
    expect(s.status).toBe(200);
    const id = s.headers['x-request-id'];
    await waitFor('the stream opened line', () => lines.some((l) => l.reqId === id && l.msg === 'stream opened'));
    s.close();
    const opened = lines.filter((l) => l.reqId === id && l.msg === 'stream opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/v1/stream?since=2000-01-01&states=NY' },
    });
    // so does a WebSocket stream, whose answer Fastify never completes
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/stream/ws?states=CA`, { headers: { 'x-api-key': t.key } });
    ws.on('error', () => undefined);
    await new Promise((resolve) => ws.once('open', resolve));
    await waitFor('the WebSocket opened line', () =>
      lines.some((l) => l.msg === 'stream opened' && (l.req as { url: string }).url === '/v1/stream/ws?states=CA'),
    );
    ws.terminate();
    // an ordinary read has no arrival line
    expect(lines.filter((l) => l.msg === 'stream opened')).toHaveLength(2);
  });

  it("is written directly with exactly the bytes of pino's generic path, the time aside", () => {
    const out: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        out.push(chunk.toString('utf8'));
        cb();
      },
    });
    const log = createLogger('info', { stream });
    const write = accessLineWriter(log);
    expect(write).toBeDefined();
    const full = {
      id: 'req-"1"',
      method: 'GET',
      url: '/v1/bills?q=%22tax%22&api_key=lds_x&title_contains=a\\b',
      host: 'api.example:8080',
      ip: '::ffff:10.0.0.1',
      socket: { remotePort: 51234 },
    };
    const bare = { id: 'req-2', method: 'HEAD', url: '/v1/health' };
    for (const [req, status, ms] of [
      [full, 200, 1.234567],
      [bare, 304, 0.5],
    ] as const) {
      out.length = 0;
      write!(req, status, ms);
      log.child({ reqId: req.id }).info({ req, res: { statusCode: status }, responseTime: ms }, 'request completed');
      expect(out).toHaveLength(2);
      const [direct, generic] = out.map((l) => l.replace(/"time":\d+/, '"time":0'));
      expect(direct).toBe(generic);
    }
    expect(JSON.parse(out[0]!).req).toEqual({ method: 'HEAD', url: '/v1/health' });
  });

  it('takes the generic path for a logger whose lines go to a transport', () => {
    expect(accessLineWriter(pino({ level: 'info' }))).toBeUndefined();
  });

  it('matches percent-encoded names and leaves a URL without secrets alone', () => {
    expect(redactUrl('/v1/x?api%5Fkey=abc&q=a%20b')).toBe('/v1/x?api%5Fkey=[redacted]&q=a%20b');
    expect(redactUrl('/v1/bills?q=key&state=TX')).toBe('/v1/bills?q=key&state=TX');
    expect(redactUrl('/v1/health')).toBe('/v1/health');
  });
});

describe('secrets in logged objects', () => {
  function capture() {
    const out: Record<string, unknown>[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) out.push(JSON.parse(line));
    });
    return { log: createLogger('info', { stream }), out };
  }

  it('are redacted under any top-level key, in headers and in errors; the caller keeps its object', async () => {
    const { log, out } = capture();
    const subscription = {
      id: 7,
      secret: 's1',
      previous_secret: 's2',
      webhook_secret: 's3',
      key_hash: 'h',
      api_key: 'k',
      token: 't',
      password: 'p',
      url: 'https://x',
    };
    log.info({ subscription, other: { token: 't2', kept: 1 } }, 'saved');
    log.warn({ headers: { 'x-api-key': 'lds_k', authorization: 'Bearer b', accept: 'application/json' } }, 'forwarded');
    const err = Object.assign(new Error('boom'), { password: 'pw' });
    log.error({ err }, 'failed');
    log.info({ n: 1, s: 'plain', list: [{ secret: 'in a list is not a top-level object' }] }, 'scalars');
    await waitFor('four lines', () => out.length === 4);
    expect(out[0].subscription).toEqual({
      id: 7,
      secret: '[redacted]',
      previous_secret: '[redacted]',
      webhook_secret: '[redacted]',
      key_hash: '[redacted]',
      api_key: '[redacted]',
      token: '[redacted]',
      password: '[redacted]',
      url: 'https://x',
    });
    expect(out[0].other).toEqual({ token: '[redacted]', kept: 1 });
    expect(out[1].headers).toEqual({
      'x-api-key': '[redacted]',
      authorization: '[redacted]',
      accept: 'application/json',
    });
    expect(out[2].err).toMatchObject({ type: 'Error', message: 'boom', password: '[redacted]' });
    expect((out[2].err as { stack: string }).stack).toContain('boom');
    expect(out[3]).toMatchObject({ n: 1, s: 'plain' });
    // the logged objects themselves are untouched
    expect(subscription.secret).toBe('s1');
    expect(err.password).toBe('pw');
  });
});

describe('a malformed WebSocket frame', () => {
  it('is logged at info without a stack, never at error', async () => {
    const before = lines.length;
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    sock.on('error', () => undefined);
    sock.on('data', (d: Buffer) => {
      got += d.toString('latin1');
    });
    sock.write(
      'GET /v1/stream/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-API-Key: ${t.key}\r\n\r\n`,
    );
    await waitFor('the upgrade', () => got.startsWith('HTTP/1.1 101'));
    // A client frame without a mask: a protocol error on the client's side (RFC 6455 5.1).
    sock.write(Buffer.from([0x81, 0x02, 0x68, 0x69]));
    await closed;
    await waitFor('the log line of the refused frame', () =>
      lines.slice(before).some((l) => String(l.code ?? '').startsWith('WS_ERR_')),
    );
    const mine = lines.slice(before);
    expect(mine.filter((l) => Number(l.level) >= 50)).toEqual([]);
    const line = mine.find((l) => String(l.code ?? '').startsWith('WS_ERR_'))!;
    expect(line.level).toBe(30);
    expect(JSON.stringify(line)).not.toContain('stack');
  });
});
