// /v1/status and /v1/coverage: shapes, counts from real rows, and 503 when the database is gone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

it('coverage has the spec fields, with vs_reference null and percentages from real rows', async () => {
  const year = new Date().getUTCFullYear();
  await t.db.pool.query(
    `INSERT INTO sessions (session_id, state_id, year_start, year_end, session_name) VALUES (10000001, 5, $1, $1, 'Regular')`,
    [year],
  );
  await t.db.pool.query(
    `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id) VALUES (10000001, 5, 10000001, 'AB1', 'AB1', 1, 1), (10000002, 5, 10000001, 'AB2', 'AB2', 1, 1)`,
  );
  await t.db.pool.query(
    `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id) VALUES (10000001, 10000001, 1), (10000002, 10000001, 1)`,
  );
  const res = await t.app.inject({ url: '/v1/coverage', headers: { 'x-api-key': t.key } });
  expect(res.statusCode).toBe(200);
  const c = res.json();
  expect(Object.keys(c).sort()).toEqual([
    'computed_at',
    'generated_at',
    'per_state',
    'states_in_session',
    'states_total',
    'totals',
  ]);
  expect(c.states_total).toBe(52);
  expect(c.totals).toMatchObject({ bills: 2, votes: 2, vs_reference: { bills: null, votes: null, texts: null } });
  const ca = c.per_state.find((s: { state: string }) => s.state === 'CA');
  expect(ca).toEqual({
    state: 'CA',
    bills: 2,
    pct_with_votes: 50,
    pct_with_texts: 0,
    pct_with_sponsors: 0,
    votes_total: 2,
    texts_total: 0,
    sponsors_total: 0,
    vs_reference: { bills: null, votes: null, texts: null },
    has_live_session: true,
  });
  expect(c.per_state.find((s: { state: string }) => s.state === 'WY').pct_with_votes).toBeNull();
  expect(c.states_in_session).toBe(1);
});

it('status lists every state with its freshness fields', async () => {
  const res = await t.app.inject({ url: '/v1/status' });
  expect(res.statusCode).toBe(200);
  const s = res.json();
  expect(s.states).toHaveLength(52);
  const ca = s.states.find((x: { state: string }) => x.state === 'CA');
  expect(Object.keys(ca).sort()).toEqual([
    'changes_24h',
    'last_bill_update',
    'last_change',
    'session_in_progress',
    'state',
    'state_name',
  ]);
  expect(typeof s.generated_at).toBe('string');
});

it('503 status_unavailable and coverage_unavailable when the database cannot answer', async () => {
  const dead = createPool('postgres://postgres@127.0.0.1:1/none', 1);
  const down = await testApp({ db: t.db, deps: { dbRead: dead } });
  try {
    const st = await down.app.inject({ url: '/v1/status' });
    expect(st.statusCode).toBe(503);
    expect(st.json().error.code).toBe('status_unavailable');
    const cv = await down.app.inject({ url: '/v1/coverage' });
    expect(cv.statusCode).toBe(503);
    expect(cv.json().error.code).toBe('coverage_unavailable');
  } finally {
    await down.app.close();
    await dead.end();
  }
});
