// The opening pace of one key's streams (STREAM_OPENS_PER_SEC, issue 25): beyond a burst of a
// tenth of a second's worth (one stream at least), a key's admitted streams wait for their moment before their response starts, so a
// key opening its whole cap at once cannot hold the event loop from other tenants. A stream over
// the cap is still refused at once, another key never waits for this key's pace, a client that
// leaves while it waits frees its slot, and a waiting stream opens (and gets its events) in the end.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenPace } from '../../src/stream/open-pace.js';
import { metricValue } from '../helpers/metrics.js';
import { realtimeEnv, until, type Env } from './env.js';
import { openStream, type RawStream } from './sse-client.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({
    // one opening a second: the sixth stream of a burst waits about five seconds
    streamOpensPerSec: 1,
    streamConnectionsPerKey: { free: 6, standard: 25 },
    streamRotateMs: 120_000,
    streamHeartbeatMs: 60_000,
    relayPollMs: 100,
  });
});
afterAll(async () => env?.close());

/** A stream request whose response may not have started yet. */
const sse = (key: string): Promise<RawStream> => openStream(`${env.url}/v1/stream`, { 'x-api-key': key });

/** lds_stream_opens_waiting: streams admitted and waiting for their moment (this app's only). */
const waiting = () => metricValue(env.app, 'lds_stream_opens_waiting');

describe('opening pace per key', () => {
  it('spaces out one key’s stream openings; the cap still refuses at once; other keys never wait', async () => {
    const { api_key: key } = await env.newKey({ tier: 'free' });
    const first = await sse(key);
    expect(first.status).toBe(200);
    // the next five are admitted (they hold slots) and wait for their moments, a second apart
    const later = [1, 2, 3, 4, 5].map(() => sse(key));
    // (at least three: the first may already have had its moment on a slow machine)
    await until(async () => (await waiting()) >= 3);

    // the cap (6 for free here) is full: one more is refused at once, without waiting its turn
    const over = await sse(key);
    expect(over.status).toBe(429);
    await over.ended;
    expect(JSON.parse(over.text()).error.code).toBe('stream_limit');

    // another key opens at once (and so does a WebSocket of that key) while this key's streams wait
    const { api_key: other } = await env.newKey({ tier: 'standard' });
    const otherStream = await sse(other);
    expect(otherStream.status).toBe(200);
    expect(await waiting()).toBeGreaterThan(0);

    // the waiting streams open in the end, with the stream's opening lines
    const opened = await Promise.all(later);
    expect(opened.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    await until(() => opened.every((s) => s.text().includes(': lds-stream v1')));
    expect(await waiting()).toBe(0);
    for (const s of [first, ...opened, otherStream]) s.close();
  });

  it('frees the slot of a client that leaves while it waits, and paces WebSocket openings too', async () => {
    const { api_key: key } = await env.newKey({ tier: 'free' });
    const held = await sse(key);
    expect(held.status).toBe(200);
    // four WebSocket upgrades: admitted, and waiting before the upgrade is answered (the first
    // stream took the burst)
    const sockets = [0, 1, 2, 3].map(() => {
      const ws = new WebSocket(`${env.url.replace('http', 'ws')}/v1/stream/ws`, { headers: { 'x-api-key': key } });
      ws.on('error', () => undefined);
      return ws;
    });
    await until(async () => (await waiting()) >= 3);
    // the clients give up before their moment: their slots are freed
    for (const ws of sockets) ws.terminate();
    await until(async () => (await waiting()) === 0);
    // their slots are back (the cap is 6, one stream is open): five more streams of the key open
    const more = await Promise.all([1, 2, 3, 4, 5].map(() => sse(key)));
    expect(more.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    for (const s of [held, ...more]) s.close();
  });
});

describe('OpenPace', () => {
  it('lets a burst of a tenth of a second through, then one opening per interval, and takes back a left moment', () => {
    let now = 0;
    const pace = new OpenPace(100, () => now);
    // a burst of a tenth of a second's worth (10) opens at once: one turn of the event loop, not 100
    expect(Array.from({ length: 10 }, () => pace.reserve('k').wait)).toEqual(Array(10).fill(0));
    const eleventh = pace.reserve('k');
    const twelfth = pace.reserve('k');
    expect([eleventh.wait, twelfth.wait]).toEqual([10, 20]);
    // another key has its own budget
    expect(pace.reserve('other').wait).toBe(0);
    // the twelfth leaves: the next opening takes its moment
    twelfth.release();
    expect(pace.reserve('k').wait).toBe(20);
    // after a quiet while the burst is back
    now = 10_000;
    expect(Array.from({ length: 11 }, () => pace.reserve('k').wait)).toEqual([...Array(10).fill(0), 10]);
  });

  it('always lets one opening through at once, however low the rate', () => {
    let now = 0;
    const pace = new OpenPace(4, () => now);
    expect([1, 2, 3].map(() => pace.reserve('k').wait)).toEqual([0, 250, 500]);
    now = 10_000;
    expect(pace.reserve('k').wait).toBe(0);
  });

  it('does not pace at 0', () => {
    const pace = new OpenPace(0);
    expect(Array.from({ length: 1000 }, () => pace.reserve('k').wait).every((w) => w === 0)).toBe(true);
  });
});
