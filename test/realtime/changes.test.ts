import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChanges } from '../../src/changes/record.js';
import { withTransaction } from '../../src/db/pool.js';
import { billOf, change, realtimeEnv, sleep, STATE_IDS, untilStamped, until, type Env } from './env.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ relayPollMs: 100 });
});
afterAll(async () => env?.close());

interface Feed {
  data: {
    bill_id: number;
    bill_number: string;
    state_abbr: string;
    title: string;
    reason_id: number;
    reason_name: string;
    changed_at: string;
  }[];
  summary: { since: string; server_now: string };
}

async function feed(qs: string): Promise<Feed> {
  const res = await env.app.inject({ url: `/v1/changes?${qs}`, headers: { 'x-api-key': env.key } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /v1/changes', () => {
  it('returns change rows with the exact fields, newest first, with filters', async () => {
    await change(env.db, 'NY', 'NewBill', 2);
    await change(env.db, 'TX', 'Vote', 4);
    await change(env.db, 'NY', 'Text', 5);
    const all = await until(async () => {
      const f = await feed('since=2000-01-01');
      return f.data.length >= 3 && f;
    });
    expect(Object.keys(all.data[0])).toEqual([
      'bill_id',
      'bill_number',
      'state_abbr',
      'title',
      'reason_id',
      'reason_name',
      'changed_at',
    ]);
    const times = all.data.map((r) => r.changed_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.summary.since).toBe('2000-01-01T00:00:00.000000Z');
    expect(all.summary.server_now >= times[0]).toBe(true);
    const ny = await feed('since=2000-01-01&state=ny');
    expect(ny.data.map((r) => r.state_abbr)).toEqual(['NY', 'NY']);
    // states= (CSV, as on /v1/stream) filters too, alone or with state= (either matches)
    expect((await feed('since=2000-01-01&states=ny')).data.map((r) => r.state_abbr)).toEqual(['NY', 'NY']);
    expect((await feed('since=2000-01-01&states=ca,tx')).data.map((r) => r.state_abbr)).toEqual(['TX']);
    expect((await feed('since=2000-01-01&states=tx&state=NY')).data.map((r) => r.state_abbr).sort()).toEqual([
      'NY',
      'NY',
      'TX',
    ]);
    const votes = await feed('since=2000-01-01&reason=Vote');
    expect(votes.data).toHaveLength(1);
    expect(votes.data[0]).toMatchObject({
      bill_id: billOf('TX', 4),
      bill_number: 'HB4',
      reason_id: 23,
      reason_name: 'Vote',
    });
  });

  it('answers 400 for a malformed since, an unknown reason or state', async () => {
    for (const qs of [
      'since=yesterday',
      'since=2026-13-01',
      'reason=vote',
      'reason=Bogus',
      'state=XX',
      'states=TX,XX',
      'sate=MS',
    ]) {
      const res = await env.app.inject({ url: `/v1/changes?${qs}`, headers: { 'x-api-key': env.key } });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), async (s) => {
        fc.pre(!/^\d{4}-\d{2}-\d{2}/.test(s));
        const res = await env.app.inject({
          url: `/v1/changes?since=${encodeURIComponent(s)}`,
          headers: { 'x-api-key': env.key },
        });
        expect(res.statusCode).toBe(400);
      }),
      { numRuns: 40 },
    );
  });

  it('delivers every change exactly once to a client following server_now, while writers commit out of order', async () => {
    const start = await feed('since=2000-01-01&limit=1000');
    let since = start.summary.server_now;
    const seen: string[] = [];
    let writing = true;
    let written = 0;
    const writers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 25; i++) {
        const client = await env.db.pool.connect();
        try {
          await client.query('BEGIN');
          const state = Object.keys(STATE_IDS)[(w + i) % 4];
          const n = 1 + (i % 3);
          await recordChanges(
            client,
            Array.from({ length: n }, (_, k) => ({
              bill_id: billOf(state, 1 + ((i + k) % 20)),
              state_id: STATE_IDS[state],
              reason: 'StatusChange' as const,
              detail: { w, i, k },
            })),
          );
          // hold the transaction open a random while so commits land out of change_id order
          await client.query('SELECT pg_sleep($1)', [Math.random() * 0.05]);
          await client.query('COMMIT');
          written += n;
        } finally {
          client.release();
        }
        await sleep(Math.random() * 10);
      }
    });
    const poller = (async () => {
      for (;;) {
        const done = !writing;
        const f = await feed(`since=${encodeURIComponent(since)}&limit=7`);
        for (const r of f.data) seen.push(r.changed_at);
        expect(f.summary.server_now >= since).toBe(true);
        since = f.summary.server_now;
        if (done && f.data.length === 0) {
          const { rows } = await env.db.pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM changes WHERE seq IS NULL',
          );
          if (rows[0].n === 0) {
            const last = await feed(`since=${encodeURIComponent(since)}&limit=1000`);
            for (const r of last.data) seen.push(r.changed_at);
            since = last.summary.server_now;
            if (last.data.length === 0) return;
          }
        }
        await sleep(Math.random() * 15);
      }
    })();
    await Promise.all(writers);
    writing = false;
    await poller;
    const { rows } = await env.db.pool.query<{ t: string }>(
      `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE changed_at > $1::timestamptz ORDER BY changed_at`,
      [start.summary.server_now],
    );
    expect(written).toBe(6 * 49);
    expect(rows).toHaveLength(written);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(rows.map((r) => r.t));
  });

  // Last in the file: it adds more than a page of changes, which the exactly-once test above must not see.
  it('clamps limit to 1000 when more changes match', async () => {
    const { rows } = await env.db.pool.query<{ t: string }>(
      `SELECT to_char(max(changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes`,
    );
    const before = rows[0].t;
    const n = 1050;
    await withTransaction(env.db.pool, (c) =>
      recordChanges(
        c,
        Array.from({ length: n }, (_, i) => ({
          bill_id: billOf('FL', 1 + (i % 20)),
          state_id: STATE_IDS.FL,
          reason: 'StatusChange' as const,
        })),
      ),
    );
    await untilStamped(env.db);
    const since = encodeURIComponent(before);
    const clamped = await feed(`since=${since}&limit=5000`);
    expect(clamped.data).toHaveLength(1000);
    expect(clamped.data.every((r) => r.changed_at > before && r.state_abbr === 'FL')).toBe(true);
    // The oldest 1000 after since; the next call from server_now gets the remaining 50.
    const rest = await feed(`since=${encodeURIComponent(clamped.summary.server_now)}&limit=5000`);
    expect(rest.data).toHaveLength(n - 1000);
    expect((await feed(`since=${since}`)).data).toHaveLength(200);
  });
});
