import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/demo/simulate/actions.js';
import { ImportedDataError, simulate } from '../../src/demo/simulate/run.js';
import { realtimeEnv, untilStamped, type Env } from './env.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ relayPollMs: 100 });
  // members to vote and sponsor
  for (let i = 0; i < 40; i++) {
    await env.db.pool.query(`INSERT INTO people (people_id, state_id, name, body_id) VALUES ($1, $2, $3, 1)`, [
      10_000_000 + i,
      i % 2 ? 5 : 32,
      `Member ${i}`,
    ]);
  }
});
afterAll(async () => env?.close());

describe('simulator', () => {
  it('writes consistent domain rows and change rows through the writer path, only in the chosen states', async () => {
    const seen: string[] = [];
    let changes = 0;
    // Actions are drawn at random and a status change needs a bill that has passed, so 120 of them
    // do not always hold all six kinds: run rounds of 120 until they do (a few at most).
    const kinds = new Set(['new_bill', 'referral', 'vote', 'status', 'text', 'amendment']);
    for (let round = 0; round < 10 && new Set(seen).size < kinds.size; round++) {
      const one = await simulate(env.db.pool, {
        rate: 1000,
        count: 120,
        states: ['CA', 'NY'],
        onAction: (a) => seen.push(a.action),
      });
      expect(one.actions).toBe(120);
      changes += one.changes;
    }
    expect(new Set(seen)).toEqual(kinds);
    const q = async (sql: string) => (await env.db.pool.query(sql)).rows[0];
    expect(await q(`SELECT count(*)::int AS n FROM changes WHERE state_id NOT IN (5, 32)`)).toEqual({ n: 0 });
    expect((await q(`SELECT count(*)::int AS n FROM changes`)).n).toBe(changes);
    // roll calls: member rows match the totals
    expect(
      await q(
        `SELECT count(*)::int AS n FROM roll_calls rc WHERE rc.total <> (SELECT count(*) FROM roll_call_votes v WHERE v.roll_call_id = rc.roll_call_id) OR rc.yea + rc.nay + rc.nv + rc.absent <> rc.total`,
      ),
    ).toEqual({ n: 0 });
    // new ids sit in the simulator range, away from demo (10M+) and importer (100M+) ids
    expect(
      await q(`SELECT count(*)::int AS n FROM bills WHERE bill_id >= 50000000 AND bill_id < 100000000`),
    ).toMatchObject({ n: expect.any(Number) });
    expect(
      await q(`SELECT count(*)::int AS n FROM roll_calls WHERE roll_call_id < 50000000 OR roll_call_id >= 100000000`),
    ).toEqual({ n: 0 });
    // texts really differ from their predecessor and are queued for diffing
    expect(
      await q(
        `SELECT count(*)::int AS n FROM text_diff_queue q JOIN bill_texts a ON a.text_id = q.from_text_id JOIN bill_texts b ON b.text_id = q.to_text_id WHERE a.content = b.content`,
      ),
    ).toEqual({ n: 0 });
    // status changes carry old and new status up the ladder
    expect(
      await q(
        `SELECT count(*)::int AS n FROM changes WHERE reason_id = 2 AND (new_status IS NULL OR old_status IS NULL OR new_status <= old_status)`,
      ),
    ).toEqual({ n: 0 });
    // every change gets stamped and is in the feed
    await untilStamped(env.db);
    const res = await env.app.inject({
      url: '/v1/changes?since=2000-01-01&limit=1000',
      headers: { 'x-api-key': env.key },
    });
    expect(res.json().data).toHaveLength(changes);
  });

  it('refuses states holding imported data unless forced, and changes nothing when it refuses', async () => {
    const ny = (
      await env.db.pool.query<{ session_id: number }>('SELECT session_id FROM sessions WHERE state_id = 32 LIMIT 1')
    ).rows[0].session_id;
    await env.db.pool.query(`UPDATE sessions SET source = 'legiscan' WHERE session_id = $1`, [ny]);
    try {
      const count = async () =>
        (await env.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM changes')).rows[0].n;
      const before = await count();
      await expect(simulate(env.db.pool, { rate: 1000, count: 5, states: ['NY'] })).rejects.toThrow(ImportedDataError);
      await expect(simulate(env.db.pool, { rate: 1000, count: 5 })).rejects.toThrow(
        /1 session from legiscan.*--force/s,
      );
      expect(await count()).toBe(before);
      // states without imported data, or --force, run
      expect((await simulate(env.db.pool, { rate: 1000, count: 5, states: ['CA'] })).actions).toBe(5);
      expect((await simulate(env.db.pool, { rate: 1000, count: 5, states: ['NY'], force: true })).actions).toBe(5);
    } finally {
      await env.db.pool.query(`UPDATE sessions SET source = 'demo' WHERE session_id = $1`, [ny]);
    }
  });

  it('every simulated text revision differs from the version before it, over hundreds of revisions', async () => {
    // A revision drops a paragraph and adds one: adding back the paragraph just dropped gave the
    // same text again (about one revision in a hundred), a "change" with nothing changed.
    let seed = 42;
    const rng = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const text = ACTIONS.find(([name]) => name === 'text')![2];
    const c = await env.db.pool.connect();
    try {
      const states = (
        await c.query<{ state_id: number }>("SELECT state_id FROM states WHERE state_abbr IN ('CA', 'NY')")
      ).rows.map((r) => r.state_id);
      let made = 0;
      for (let i = 0; i < 400; i++) if (await text(c, states, rng)) made++;
      expect(made).toBe(400);
    } finally {
      c.release();
    }
    const same = await env.db.pool.query(
      'SELECT q.from_text_id, q.to_text_id FROM text_diff_queue q JOIN bill_texts a ON a.text_id = q.from_text_id JOIN bill_texts b ON b.text_id = q.to_text_id WHERE a.content = b.content',
    );
    expect(same.rows).toEqual([]);
  }, 180_000); // 400 revisions, each a few statements: long on a busy machine
});
