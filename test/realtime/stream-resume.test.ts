import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change, realtimeEnv, until, type Env } from './env.js';
import { changeEvents, openStream } from './sse-client.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ streamHeartbeatMs: 60_000, streamRotateMs: 800, streamRotateJitter: 10, relayPollMs: 100 });
});
afterAll(async () => env?.close());

const dataOf = (e: { data?: string }) => JSON.parse(e.data ?? '{}');

describe('GET /v1/stream behaviour', () => {
  it('rotates after the configured life with id and cursor, then ends the response', async () => {
    const s = await openStream(`${env.url}/v1/stream?since=2000-01-01`, { 'x-api-key': env.key });
    await change(env.db, 'FL', 'NewBill', 7);
    await s.ended;
    const evs = s.events();
    const rotate = evs[evs.length - 1];
    expect(rotate.event).toBe('rotate');
    const last = changeEvents(s).at(-1)!;
    expect(dataOf(rotate)).toEqual({ reason: 'wall_clock', cursor: last.id });
    expect(rotate.id).toBe(last.id);
    expect(
      s.text().endsWith(`event: rotate\nid: ${last.id}\ndata: {"reason":"wall_clock","cursor":"${last.id}"}\n\n`),
    ).toBe(true);
  });

  it('filters by states and reason', async () => {
    const s = await openStream(`${env.url}/v1/stream?states=ny,tx&reason=Vote`, { 'x-api-key': env.key });
    await change(env.db, 'NY', 'Vote', 1);
    await change(env.db, 'CA', 'Vote', 1);
    await change(env.db, 'TX', 'Text', 1);
    await change(env.db, 'TX', 'Vote', 2);
    await s.ended;
    expect(changeEvents(s).map((e) => [dataOf(e).state, dataOf(e).reason])).toEqual([
      ['NY', 'Vote'],
      ['TX', 'Vote'],
    ]);
  });

  it('answers 400 for bad states, since, reason and Last-Event-ID', async () => {
    for (const [qs, h] of [
      ['states=CA,XYZW', {}],
      ['states=ZZ', {}],
      ['since=soon', {}],
      ['reason=vote', {}],
      ['', { 'last-event-id': 'abc' }],
    ] as const) {
      const res = await fetch(`${env.url}/v1/stream?${qs}`, { headers: { 'x-api-key': env.key, ...h } });
      expect(res.status, qs).toBe(400);
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code).toBe('bad_request');
    }
    const res = await fetch(`${env.url}/v1/stream?states=CA,ZZ`, { headers: { 'x-api-key': env.key } });
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("'ZZ'");
  });

  it('resumes with Last-Event-ID: exactly the missed changes, then live ones, no gap, no duplicate (eventsource client)', async () => {
    const { rows } = await env.db.pool.query<{ t: string }>(
      `SELECT to_char(high_water AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM relay_state`,
    );
    const start = rows[0].t;
    const got: string[] = [];
    let opens = 0;
    const es = new EventSource(`${env.url}/v1/stream?states=CA&since=${start}`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-api-key': env.key } }),
    });
    es.onopen = () => opens++;
    es.addEventListener('bill_change', (e) => got.push((e as MessageEvent).lastEventId));
    // Writes on both sides of a rotation (life 0.8 s): some delivered live, some made while the client
    // is away (it honours retry: 5000, so it stays away for a while) that must be replayed on resume,
    // then live ones again after the resume.
    const write = (i: number) => change(env.db, 'CA', 'StatusChange', 1 + (i % 20));
    for (let i = 0; i < 3; i++) {
      await write(i);
      await until(() => got.length >= i + 1);
    }
    await until(() => es.readyState !== EventSource.OPEN);
    for (let i = 3; i < 9; i++) await write(i);
    await until(() => opens >= 2 && es.readyState === EventSource.OPEN && got.length >= 9);
    for (let i = 9; i < 12; i++) {
      await write(i);
      await until(() => got.length >= i + 1);
    }
    const { rows: expected } = await env.db.pool.query<{ t: string }>(
      `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE state_id = 5 AND changed_at > $1::timestamptz ORDER BY changed_at`,
      [start],
    );
    await until(() => got.length >= expected.length, 30_000);
    es.close();
    expect(opens).toBeGreaterThanOrEqual(2);
    expect(got).toEqual(expected.map((r) => r.t));
  }, 40_000);

  it('rotates a slow consumer out with its cursor', async () => {
    const slow = await realtimeEnv({ streamBufferBytes: 1024, streamRotateMs: 60_000, relayPollMs: 100 });
    try {
      const s = await openStream(`${slow.url}/v1/stream?since=2000-01-01`, { 'x-api-key': slow.key });
      const big: Record<string, unknown> = {};
      await slow.db.pool.query(`UPDATE bills SET title = repeat('x', 2000)`);
      for (let i = 0; i < 3; i++) await change(slow.db, 'CA', 'Text', 1 + i, big);
      await s.ended;
      const evs = s.events();
      const rotate = evs.at(-1)!;
      expect(rotate.event).toBe('rotate');
      expect(dataOf(rotate).reason).toBe('slow_consumer');
      expect(dataOf(rotate).cursor).toBe(changeEvents(s).at(-1)!.id);
    } finally {
      await slow.close();
    }
  });
});
