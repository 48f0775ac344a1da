// The stream's bytes on the wire. HTTP/1.1 responses get pre-built chunks written straight to the
// socket; this checks that the chunked framing stays valid around them (opening, events, the final
// rotate and the terminating chunk) and that an HTTP/1.0 client, which gets no chunking, sees the
// same frames.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change, realtimeEnv, type Env } from './env.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ streamHeartbeatMs: 100, streamRotateMs: 900, streamRotateJitter: 0, relayPollMs: 100 });
});
afterAll(async () => env?.close());

/** Sends a raw request and resolves with every byte the server sent until it closed or ended the body. */
function rawStream(version: '1.0' | '1.1', path: string, onOpen: () => Promise<void>): Promise<Buffer> {
  const { port } = new URL(env.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let opened = false;
    const sock = net.connect(Number(port), '127.0.0.1', () => {
      sock.write(`GET ${path} HTTP/${version}\r\nHost: t\r\nX-API-Key: ${env.key}\r\n\r\n`);
    });
    sock.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (!opened && all.includes('lds-stream v1')) {
        opened = true;
        onOpen().catch(reject);
      }
      if (version === '1.1' && all.toString('latin1').endsWith('\r\n0\r\n\r\n')) sock.end();
    });
    sock.on('close', () => resolve(Buffer.concat(chunks)));
    sock.on('error', reject);
  });
}

/** Decodes a chunked body strictly: every size line must match the bytes that follow. */
function dechunk(body: Buffer): { text: string; sizes: number[] } {
  let pos = 0;
  const parts: Buffer[] = [];
  const sizes: number[] = [];
  for (;;) {
    const eol = body.indexOf('\r\n', pos);
    expect(eol).toBeGreaterThan(pos);
    const size = parseInt(body.toString('latin1', pos, eol), 16);
    expect(Number.isNaN(size)).toBe(false);
    sizes.push(size);
    pos = eol + 2;
    if (size === 0) {
      expect(body.toString('latin1', pos)).toBe('\r\n');
      return { text: Buffer.concat(parts).toString('utf8'), sizes };
    }
    parts.push(body.subarray(pos, pos + size));
    pos += size;
    expect(body.toString('latin1', pos, pos + 2)).toBe('\r\n');
    pos += 2;
  }
}

const split = (raw: Buffer) => {
  const at = raw.indexOf('\r\n\r\n');
  return { head: raw.toString('latin1', 0, at), body: raw.subarray(at + 4) };
};

describe('stream wire format', () => {
  it('HTTP/1.1: valid chunked framing around events, pings and the final rotate', async () => {
    const raw = await rawStream('1.1', '/v1/stream?states=TX', async () => {
      await change(env.db, 'TX', 'Text', 3);
      await change(env.db, 'TX', 'Vote', 4);
    });
    const { head, body } = split(raw);
    expect(head).toMatch(/transfer-encoding: chunked/i);
    const { text, sizes } = dechunk(body);
    expect(sizes.length).toBeGreaterThan(3);
    expect(text.startsWith('retry: 5000\n: lds-stream v1\n\n')).toBe(true);
    expect(text).toMatch(
      /event: bill_change\nid: \S+\ndata: \{"bill_id":\d+,"bill_number":"HB3","state":"TX"[^\n]*\}\n\n/,
    );
    expect(text).toMatch(/data: \{[^\n]*"bill_number":"HB4"[^\n]*\}\n\n/);
    expect(text).toMatch(/\n: ping \S+Z\n\n/);
    expect(text).toMatch(/event: rotate\nid: \S+\ndata: \{"reason":"wall_clock","cursor":"[^"]+"\}\n\n$/);
  });

  it('HTTP/1.0: the same frames without chunking, ended by closing the connection', async () => {
    const raw = await rawStream('1.0', '/v1/stream?states=FL', async () => {
      await change(env.db, 'FL', 'Text', 5);
    });
    const { head, body } = split(raw);
    expect(head).not.toMatch(/transfer-encoding/i);
    const text = body.toString('utf8');
    expect(text.startsWith('retry: 5000\n: lds-stream v1\n\n')).toBe(true);
    expect(text).toMatch(/event: bill_change\nid: \S+\ndata: \{[^\n]*"bill_number":"HB5","state":"FL"[^\n]*\}\n\n/);
    expect(text).toMatch(/event: rotate\nid: \S+\ndata: \{"reason":"wall_clock","cursor":"[^"]+"\}\n\n$/);
  });
});
