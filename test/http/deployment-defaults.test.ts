// Safe defaults for a deployment: /metrics is never public by accident (a token is required once
// HOST is not loopback, and a same-host proxy's forwarded requests are not taken for local ones),
// METRICS_TOKEN cannot be a placeholder, and the answers HTTP plumbing gives before or around the
// routes (Node's parser errors, router errors, body errors, a closing server) carry the envelope.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { buildTestApp, testApp, testConfig } from '../helpers/app.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

describe('/metrics', () => {
  it('is refused without METRICS_TOKEN when HOST is not loopback, even to a loopback caller', async () => {
    const t = await testApp({ db, config: { host: '0.0.0.0', metricsToken: undefined } });
    try {
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("on a loopback HOST without a token, answers direct loopback callers only, not a proxy's forwarded requests", async () => {
    const t = await testApp({ db, config: { host: '127.0.0.1', metricsToken: undefined } });
    try {
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      for (const h of [
        { 'x-forwarded-for': '203.0.113.9' },
        { forwarded: 'for=203.0.113.9' },
        { 'x-real-ip': '203.0.113.9' },
      ]) {
        const res = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1', headers: h });
        expect(res.statusCode, JSON.stringify(h)).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    } finally {
      await t.close();
    }
  });

  it('with a token, answers the bearer of it from anywhere and nobody else', async () => {
    const token = 'b1f0c3a2d4e5f60718293a4b5c6d7e8f';
    const t = await testApp({ db, config: { host: '0.0.0.0', metricsToken: token } });
    try {
      expect(
        (
          await t.app.inject({
            url: '/metrics',
            remoteAddress: '198.51.100.7',
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode,
      ).toBe(200);
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('METRICS_TOKEN must be a real secret: placeholders and short values stop the start', () => {
    for (const v of ['CHANGE_ME', 'changeme-changeme-changeme', 'short', 'secret-secret-secret-1']) {
      expect(() => loadConfig({ METRICS_TOKEN: v }), v).toThrow(ConfigError);
    }
    expect(loadConfig({ METRICS_TOKEN: 'b1f0c3a2d4e5f60718293a4b5c6d7e8f' }).metricsToken).toBe(
      'b1f0c3a2d4e5f60718293a4b5c6d7e8f',
    );
  });
});

describe('BODY_LIMIT_BYTES', () => {
  it('defaults to 64 KiB and refuses values above 1 MiB (a large body blocks the event loop)', () => {
    expect(loadConfig({}).bodyLimit).toBe(64 * 1024);
    expect(loadConfig({ BODY_LIMIT_BYTES: String(1024 * 1024) }).bodyLimit).toBe(1024 * 1024);
    expect(() => loadConfig({ BODY_LIMIT_BYTES: String(2 * 1024 * 1024) })).toThrow(ConfigError);
  });
});

/** Sends raw bytes on a new connection and returns what came back until the server closed or went quiet. */
function raw(port: number, bytes: string | Buffer, socket?: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    const s = socket ?? net.connect(port, '127.0.0.1');
    let got = '';
    const done = () => resolve(got);
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      // one complete response is enough
      const m = /\r\ncontent-length: (\d+)\r\n/i.exec(got);
      const head = got.indexOf('\r\n\r\n');
      if (m && head >= 0 && Buffer.byteLength(got.slice(head + 4), 'latin1') >= Number(m[1])) done();
    });
    s.on('close', done);
    s.on('error', done);
    s.write(bytes);
  });
}

function envelopeOf(response: string): { status: number; code?: string } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
  const body = response.slice(response.indexOf('\r\n\r\n') + 4);
  try {
    const e = JSON.parse(body).error;
    return { status, code: typeof e?.request_id === 'string' && typeof e?.docs === 'string' ? e.code : undefined };
  } catch {
    return { status };
  }
}

describe('low-level HTTP errors carry the envelope', () => {
  it('parser, router and body errors', async () => {
    const t = await testApp({ db });
    const port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
    const k = `X-API-Key: ${t.key}\r\n`;
    const cases: [string, string, number, string][] = [
      [
        'header overflow (431)',
        `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'bad_request',
      ],
      [
        'URL over the header limit',
        `GET /v1/bills?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
        'bad_request',
      ],
      ['not HTTP', 'HELLO\r\n\r\n', 400, 'bad_request'],
      ['bad percent-encoding', 'GET /v1/bills/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
      [
        'both Content-Length and chunked',
        `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${k}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        400,
        'bad_request',
      ],
      [
        'invalid JSON',
        `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${k}Content-Type: application/json\r\nContent-Length: 1\r\nConnection: close\r\n\r\n{`,
        400,
        'bad_request',
      ],
      [
        'body over BODY_LIMIT_BYTES',
        `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${k}Content-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\nConnection: close\r\n\r\n{`,
        413,
        'payload_too_large',
      ],
    ];
    try {
      for (const [name, bytes, status, code] of cases)
        expect(envelopeOf(await raw(port, bytes)), name).toEqual({ status, code });
    } finally {
      await t.close();
    }
  });

  it('a request reaching a closing server: 503 service_unavailable in the envelope', async () => {
    const app = await buildTestApp(testConfig(), { db: db.pool, logger: false, databaseUrl: db.url });
    // Holds the close in its first phase, the way open streams do while they rotate out.
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    app.addHook('preClose', async () => held);
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    const s = net.connect(port, '127.0.0.1');
    expect(envelopeOf(await raw(port, 'GET /v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\n', s)).status).toBe(404);
    const closing = app.close();
    try {
      const res = await raw(port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', s);
      expect(envelopeOf(res)).toEqual({ status: 503, code: 'service_unavailable' });
    } finally {
      letGo();
      s.destroy();
      await closing;
    }
  });
});
