// Pacing of one key's replays (STREAM_REPLAY_EVENTS_PER_SEC, issue 25): the streams of one key
// together replay at most the budget per second in a process, however fast their clients read,
// yet every stream still gets every event, in order, and then goes live; another key's stream is
// not held back by that key's budget. (Two replays of one key at a time used to send 68,000 events
// a second in bench/abuse, and writing them took the event loop from every other tenant.)
// Both replay paths are paced: from the change log (a cursor older than the hub's ring) and from
// the ring (a cursor inside it). Clients are the `eventsource` package, reading as fast as they can.
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change, realtimeEnv, until, writeMany, type Env } from './env.js';

/** the budget under test: events a second for all of one key's replays */
const RATE = 200;
const CHANGES = 300;

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({
    streamReplayEventsPerSec: RATE,
    // no turns: every stream of the key replays at once, so only the budget holds them
    streamReplaysPerKey: 0,
    streamRotateMs: 120_000,
    streamHeartbeatMs: 60_000,
    relayPollMs: 100,
  });
});
afterAll(async () => env?.close());

const ts = `to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const allIds = async () =>
  (await env.db.pool.query<{ t: string }>(`SELECT ${ts} AS t FROM changes ORDER BY changed_at`)).rows.map((r) => r.t);
const highWater = async () =>
  (
    await env.db.pool.query<{ t: string }>(
      `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM relay_state`,
    )
  ).rows[0].t;

/** An EventSource client that records each change's id and when it arrived (ms after t0). */
class Client {
  ids: string[] = [];
  readonly es: EventSource;
  constructor(url: string, key: string, onEvent: (at: number) => void) {
    this.es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-api-key': key } }),
    });
    this.es.addEventListener('bill_change', (e) => {
      this.ids.push((e as MessageEvent).lastEventId);
      onEvent(performance.now());
    });
  }
}

describe('replay pacing per key', () => {
  it("holds one key's replays to its budget, delivers every event in order, and never paces another key", async () => {
    // cursor inside the ring: taken after the hub started, before the changes
    const ringCursor = await highWater();
    await writeMany(env, CHANGES);
    const ids = await allIds();
    expect(ids).toHaveLength(CHANGES);
    const { api_key: other } = await env.newKey({ org: 'other-org' });

    const arrivals: number[] = [];
    const t0 = performance.now();
    const noisy = [
      `${env.url}/v1/stream?since=2000-01-01`,
      `${env.url}/v1/stream?since=2000-01-01`,
      `${env.url}/v1/stream?since=${ringCursor}`,
      `${env.url}/v1/stream?since=${ringCursor}`,
    ].map((u) => new Client(u, env.key, (at) => arrivals.push(at - t0)));
    const received = () => noisy.reduce((n, c) => n + c.ids.length, 0);
    const total = noisy.length * CHANGES;
    try {
      // another key's stream, opened while the first key's replays are under way, is not paced by them
      await until(() => received() >= RATE / 2, 30_000, 'the first replayed events');
      const quiet = new Client(`${env.url}/v1/stream?since=2000-01-01`, other, () => undefined);
      try {
        await until(() => quiet.ids.length === CHANGES, 30_000, "the other key's replay");
        expect(received()).toBeLessThan(total);
        expect(quiet.ids).toEqual(ids);
      } finally {
        quiet.es.close();
      }

      await until(() => received() === total, 60_000, "the first key's replays");
      // every stream got every event, in order, none twice
      for (const c of noisy) expect(c.ids).toEqual(ids);
      // At any moment the key's streams together had at most the budget: one second of it at once
      // (the burst), then RATE a second, plus the pieces the streams held. Bounds are generous (a
      // 1.5x rate, twice the burst): without pacing the 1,200 events arrive within a fraction of a second.
      const slack = 2 * RATE + noisy.length * (RATE / 20);
      arrivals.forEach((at, i) => {
        expect(i + 1, `events by ${Math.round(at)} ms`).toBeLessThanOrEqual(1.5 * RATE * (at / 1000) + slack);
      });

      // then they are live
      await change(env.db, 'CA');
      await until(() => noisy.every((c) => c.ids.length === CHANGES + 1), 30_000, 'a live event on every stream');
      expect(new Set(noisy.map((c) => c.ids.at(-1))).size).toBe(1);
    } finally {
      for (const c of noisy) c.es.close();
    }
  });
});
