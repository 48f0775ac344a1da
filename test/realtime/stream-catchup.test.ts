// Catch-up on connect or resume: a client far behind is caught up in pieces that wait for it to
// read (issue 24 item 5: it used to be rotated as slow_consumer at once, however fast it read,
// because the whole catch-up was queued before the buffer was checked), and a replay longer than
// STREAM_REPLAY_MAX_EVENTS starts with `event: reset` naming the skipped range (issue 25 item 3).
// Both paths are covered: from the hub's ring of recent events and from the change log.
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { change, realtimeEnv, until, writeMany, type Env } from './env.js';
import { changeEvents, openStream, type RawStream } from './sse-client.js';

const BEHIND = 1200;
const SETTINGS = {
  streamBufferBytes: 4096,
  streamReplayMaxEvents: 2000,
  streamRotateMs: 120_000,
  streamHeartbeatMs: 60_000,
  relayPollMs: 100,
};

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv(SETTINGS);
});
afterAll(async () => env?.close());

const ts = `to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const highWater = async () =>
  (
    await env.db.pool.query<{ t: string }>(
      `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM relay_state`,
    )
  ).rows[0].t;
const idsAfter = async (cursor: string) =>
  (
    await env.db.pool.query<{ t: string }>(
      `SELECT ${ts} AS t FROM changes WHERE changed_at > $1::timestamptz ORDER BY changed_at`,
      [cursor],
    )
  ).rows.map((r) => r.t);
const dataOf = (e: { data?: string }) => JSON.parse(e.data ?? '{}') as Record<string, unknown>;

/** Reads a stream until it has `want` changes, then checks it is still open and gets a live one. */
async function catchesUpThenLive(url: string, key: string, cursor: string, want: string[]): Promise<RawStream> {
  const s = await openStream(`${url}/v1/stream?since=${cursor}`, { 'x-api-key': key });
  expect(s.status).toBe(200);
  await until(() => changeEvents(s).length >= want.length || s.text().includes('event: rotate'), 60_000);
  expect(s.events().filter((e) => e.event === 'rotate')).toEqual([]);
  expect(changeEvents(s).map((e) => e.id)).toEqual(want);
  await change(env.db, 'CA', 'Vote', 3);
  await until(() => changeEvents(s).length > want.length, 30_000);
  expect(s.text().includes('event: rotate')).toBe(false);
  return s;
}

describe('stream catch-up', () => {
  it(`catches a fast client ${BEHIND} events behind up in one connection (ring), with a ${SETTINGS.streamBufferBytes}-byte buffer`, async () => {
    const start = await highWater();
    await writeMany(env, BEHIND);
    const want = await idsAfter(start);
    expect(want.length).toBe(BEHIND);
    const s = await catchesUpThenLive(env.url, env.key, start, want);
    expect(s.events().some((e) => e.event === 'reset')).toBe(false);
    s.close();
  }, 90_000);

  it('bounds a replay to STREAM_REPLAY_MAX_EVENTS: reset with the skipped range first, then the newest events (ring)', async () => {
    const start = await highWater();
    await writeMany(env, SETTINGS.streamReplayMaxEvents + 300);
    const all = await idsAfter(start);
    const skippedTo = all[all.length - SETTINGS.streamReplayMaxEvents - 1];
    const s = await catchesUpThenLive(env.url, env.key, start, all.slice(-SETTINGS.streamReplayMaxEvents));
    const first = s.events().find((e) => e.event !== undefined)!;
    expect(first.event).toBe('reset');
    expect(first.id).toBe(skippedTo);
    expect(dataOf(first)).toEqual({
      reason: 'replay_limit',
      since: start,
      cursor: skippedTo,
      max_events: SETTINGS.streamReplayMaxEvents,
    });
    s.close();

    // the same on the WebSocket (one live change later, so the range ends one event later), and the
    // skipped range is what /v1/changes serves from `since`
    const now = await idsAfter(start);
    const ws = new WebSocket(`${env.url.replace('http', 'ws')}/v1/stream/ws?since=${start}`, {
      headers: { 'x-api-key': env.key },
    });
    const firstMessage = await new Promise<Record<string, unknown>>((resolve) =>
      ws.once('message', (m: Buffer) => resolve(JSON.parse(m.toString()))),
    );
    ws.terminate();
    expect(firstMessage).toEqual({
      type: 'reset',
      reason: 'replay_limit',
      since: start,
      cursor: now[now.length - SETTINGS.streamReplayMaxEvents - 1],
      max_events: SETTINGS.streamReplayMaxEvents,
    });
    const res = await fetch(`${env.url}/v1/changes?since=${start}&limit=1000`, { headers: { 'x-api-key': env.key } });
    // (the feed answers newest first; with more than `limit` after since, the oldest `limit` of them)
    const page = (await res.json()) as { data: { changed_at: string }[] };
    expect(page.data.map((r) => r.changed_at).reverse()).toEqual(all.slice(0, 1000));
  }, 90_000);

  describe('from the change log (cursor older than the ring)', () => {
    let app: FastifyInstance;
    let url: string;
    let start: string;
    beforeAll(async () => {
      // Events older than the ring's window (5 minutes at start) are read from the change log: age
      // the change log, then start a gateway whose ring holds none of it.
      // Everything moves back by the same hour, so the order stays and the ring of the new gateway
      // is empty.
      const before = await highWater();
      await writeMany(env, SETTINGS.streamReplayMaxEvents + 300);
      await env.db.pool.query(`UPDATE changes SET changed_at = changed_at - interval '1 hour'`);
      start = (
        await env.db.pool.query<{ t: string }>(
          `SELECT to_char(($1::timestamptz - interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t`,
          [before],
        )
      ).rows[0].t;
      app = await buildTestApp(testConfig(SETTINGS), {
        db: env.db.pool,
        logger: false,
        bus: env.relayBus,
        databaseUrl: env.db.url,
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => app?.close());

    it(`catches a fast client ${BEHIND} events behind up in one connection`, async () => {
      const all = await idsAfter(start);
      const cursor = all[all.length - BEHIND - 1];
      const s = await catchesUpThenLive(url, env.key, cursor, await idsAfter(cursor));
      expect(s.events().some((e) => e.event === 'reset')).toBe(false);
      s.close();
    }, 90_000);

    it('bounds the replay with a reset', async () => {
      const all = await idsAfter(start);
      const skippedTo = all[all.length - SETTINGS.streamReplayMaxEvents - 1];
      const s = await catchesUpThenLive(url, env.key, start, all.slice(-SETTINGS.streamReplayMaxEvents));
      const first = s.events().find((e) => e.event !== undefined)!;
      expect(first.event).toBe('reset');
      expect(dataOf(first)).toEqual({
        reason: 'replay_limit',
        since: start,
        cursor: skippedTo,
        max_events: SETTINGS.streamReplayMaxEvents,
      });
      s.close();
    }, 90_000);
  });
});
