// Push-mirror end to end: a receiver that parses pushes the way LegiScan's reference push listener
// does (Token check, root-key detection order, OK / ERROR / missing replies), and a round trip of
// what the mirror sends through our own LegiScan importer.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import type { ProcessContext } from '../../src/server.js';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { LADDER_TO_LEGISCAN, ladderFromLegiscan, legiscanFromLadder } from '../../src/domain/legiscan-status.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { freshDatabase } from '../helpers/db.js';
import { testApp, type TestApp } from '../helpers/app.js';
import {
  insertBill,
  stampChange,
  startReceiver,
  until,
  verify,
  type Received,
  type Receiver,
  type Responder,
} from '../webhooks/helpers.js';

let t: TestApp;
let ctx: ProcessContext;
const running: Background[] = [];
const receivers: Receiver[] = [];
const ROOTS = ['bill', 'text', 'roll_call', 'person', 'amendment', 'supplement', 'session'];
const BILL = 10_980_001;
const PEOPLE = [10_980_101, 10_980_102];
const ROLL_CALL = 10_980_201;

/** LegiScan's reference listener, as a test receiver: returns the parsed pushes it accepted. */
function legiscanListener(
  token: () => string,
  reply: (root: string, body: Record<string, any>, n: number) => object = () => ({ status: 'OK' }),
) {
  const accepted: { root: string; body: Record<string, any>; rec: Received }[] = [];
  const respond: Responder = (rec, n) => {
    const [type, value] = (rec.headers.authorization ?? '').split(' ');
    if (type !== 'Token' || (value ?? '').toLowerCase() !== token().toLowerCase())
      return {
        status: 200,
        body: JSON.stringify({ status: 'ERROR', alert: { message: 'Invalid API authentication token' } }),
      };
    let payload: Record<string, any>;
    try {
      payload = JSON.parse(rec.body);
    } catch {
      return { status: 200, body: JSON.stringify({ status: 'ERROR', alert: { message: 'Invalid JSON' } }) };
    }
    const root = ROOTS.find((r) => r in payload);
    if (!root)
      return {
        status: 200,
        body: JSON.stringify({
          status: 'ERROR',
          alert: { message: `processPush could not determine payload type [${Object.keys(payload)[0]}]` },
        }),
      };
    expect(Object.keys(payload)).toEqual([root]);
    expect(rec.headers['content-type']).toBe('application/json');
    accepted.push({ root, body: payload[root], rec });
    return { status: 200, body: JSON.stringify(reply(root, payload[root], n)) };
  };
  return { accepted, respond };
}

async function seedBill(db: TestApp['db']['pool']) {
  await insertBill(db, {
    bill_id: BILL,
    state_id: 47,
    bill_number: 'SB5048',
    status_id: 3,
    subjects: ['Higher Education'],
    title: 'College in the high school fees',
  });
  await db.query(
    `UPDATE bills SET description = 'Eliminating college in the high school fees.', body_id = 98, current_body_id = 97, status_date = '2026-03-08' WHERE bill_id = $1`,
    [BILL],
  );
  await db.query(
    `INSERT INTO people (people_id, state_id, role_id, body_id, party_id, party_name, name, first_name, last_name, district) VALUES
     ($1, 47, 2, 98, 1, 'Democrat', 'Mark Mullet', 'Mark', 'Mullet', 'SD-005'), ($2, 47, 2, 98, 2, 'Republican', 'Ann Rivers', 'Ann', 'Rivers', 'SD-018')`,
    PEOPLE,
  );
  await db.query(
    `INSERT INTO bill_sponsors (bill_id, people_id, sponsor_order, sponsor_type_id) VALUES ($1, $2, 1, 1), ($1, $3, 2, 2)`,
    [BILL, ...PEOPLE],
  );
  await db.query(
    `INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major) VALUES
     ($1, 1, '2026-01-09', 'First reading, referred to Higher Education.', 98, 1), ($1, 2, '2026-03-08', 'Third reading, passed.', 98, 1)`,
    [BILL],
  );
  await db.query(
    `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed) VALUES ($1, $2, 98, '2026-03-08', 'Senate Final Passage', 1, 1, 0, 0, 2, 1)`,
    [ROLL_CALL, BILL],
  );
  await db.query(`INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) VALUES ($1, $2, 1), ($1, $3, 2)`, [
    ROLL_CALL,
    ...PEOPLE,
  ]);
}

beforeAll(async () => {
  t = await testApp({
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookRetrySchedule: [0, 0.2, 0.2], webhookTimeoutMs: 3000 },
  });
  ctx = t.background();
  await seedBill(t.db.pool);
});
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => t?.close());

async function start() {
  running.push(await startDispatcher(ctx, { pollMs: 100 }));
  running.push(await startDeliveryWorker(ctx, { pollMs: 50, leaseMarginMs: 500 }));
}
async function mirror(url: string, body: object = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/push-mirror',
    headers: { 'x-api-key': t.key },
    payload: { webhook_url: url, ...body },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { data: { id: string; kind: string; events: string[] }; token: string };
}

describe('status mapping (ladder ↔ LegiScan)', () => {
  it("maps every ladder step to LegiScan's own status codes and progress events", () => {
    const statuses = Object.fromEntries(
      [1, 2, 3, 4, 5, 6, 7, 8].map((step) => [step, legiscanFromLadder(step).status]),
    );
    // 3 Enrolled (passed both chambers, not signed) and 4 Passed (law) stay apart; chaptered is Passed
    expect(statuses).toEqual({ 1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 4 });
    expect(Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((step) => [step, legiscanFromLadder(step).events]))).toEqual(
      { 1: [], 2: [9], 3: [2], 4: [3], 5: [4], 6: [5], 7: [6], 8: [4, 8] },
    );
    expect(ladderFromLegiscan(legiscanFromLadder(8).progress)).toBe(8);
    expect(ladderFromLegiscan(legiscanFromLadder(6).status)).toBe(6);
    expect(Object.keys(LADDER_TO_LEGISCAN).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('push-mirror', () => {
  it('registers a mirror (token shown once) that GET /v1/webhooks lists as kind push_mirror', async () => {
    const m = await mirror('http://127.0.0.1:9/push');
    expect(m.token).toMatch(/^[0-9a-f]{32}$/);
    expect(m.data.kind).toBe('push_mirror');
    expect(m.data.events).toHaveLength(8);
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': t.key } });
    expect(list.json().data.find((s: { id: string }) => s.id === m.data.id).kind).toBe('push_mirror');
    expect(list.body).not.toContain(m.token);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/push-mirror',
      headers: { 'x-api-key': t.key },
      payload: { webhook_url: 'https://10.0.0.1/push' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('webhook_url');
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${m.data.id}`, headers: { 'x-api-key': t.key } });
  });

  it('pushes bills in LegiScan format, then the sponsors and votes the receiver asks for; the importer reproduces the bill', async () => {
    let token = '';
    const listener = legiscanListener(
      () => token,
      (root, body) =>
        root === 'bill' && !listener.accepted.some((a) => a.root === 'person')
          ? {
              status: 'OK',
              missing: {
                sponsors: body.sponsors.map((s: { people_id: number }) => s.people_id),
                votes: body.votes.map((v: { roll_call_id: number }) => v.roll_call_id),
              },
            }
          : { status: 'OK' },
    );
    const r = await startReceiver(listener.respond);
    receivers.push(r);
    const m = await mirror(r.url, { filters: { states: ['WA'] } });
    token = m.token;
    await start();
    await stampChange(t.db.pool, { bill_id: BILL, state_id: 47, reason: 'StatusChange', old_status: 2, new_status: 3 });
    await until(async () => listener.accepted.length >= 4, 15_000, 'bill, 2 persons, roll_call');
    const roots = listener.accepted.map((a) => a.root);
    expect(roots[0]).toBe('bill');
    expect(roots.filter((x) => x === 'person')).toHaveLength(2);
    expect(roots.filter((x) => x === 'roll_call')).toHaveLength(1);
    for (const a of listener.accepted) verify(m.token, a.rec);

    const bill = listener.accepted[0].body;
    // our ids (10,000,000+) do not fit LegiScan's columns: the mirror sends mapped wire ids
    const wireBill = bill.bill_id as number;
    expect(wireBill).toBeLessThanOrEqual(16_777_215);
    expect(wireBill).not.toBe(BILL);
    expect(bill.sponsors.every((s: { people_id: number }) => s.people_id <= 32_767)).toBe(true);
    expect(bill).toMatchObject({
      state: 'WA',
      state_id: 47,
      bill_number: 'SB5048',
      bill_type_id: '1',
      status: 2,
      status_date: '2026-03-08',
      body: 'S',
      body_id: 98,
      current_body: 'H',
      current_body_id: 97,
      pending_committee_id: 0,
      committee: [],
      reasons: { '2': 'StatusChange' },
      last_push: '0000-00-00 00:00:00',
    });
    expect(bill.session).toMatchObject({ state_id: 47, year_start: 2026, sine_die: 0 });
    expect(bill.progress.at(-1)).toEqual({ date: '2026-03-08', event: 2 });
    expect(
      bill.sponsors.map((s: any) => [s.name, s.party_id, s.party, s.role, s.sponsor_type_id, s.sponsor_order]),
    ).toEqual([
      ['Mark Mullet', '1', 'D', 'Sen', 1, 1],
      ['Ann Rivers', '2', 'R', 'Sen', 2, 2],
    ]);
    expect(bill.history[0]).toEqual({
      date: '2026-01-09',
      action: 'First reading, referred to Higher Education.',
      chamber: 'S',
      chamber_id: 98,
      importance: 1,
    });
    const wireRollCall = bill.votes[0].roll_call_id as number;
    expect(wireRollCall).not.toBe(ROLL_CALL);
    expect(bill.votes[0]).toMatchObject({ yea: 1, nay: 1, passed: 1, chamber: 'S', date: '2026-03-08' });
    expect(bill.subjects.map((s: any) => s.subject_name)).toEqual(['Higher Education']);
    const rc = listener.accepted.find((a) => a.root === 'roll_call')!.body;
    expect(rc.votes.map((v: any) => v.vote_text).sort()).toEqual(['Nay', 'Yea']);

    // round trip: the pushes, as a LegiScan dataset, through our own importer into an empty database
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-mirror-'));
    const folder = { bill: 'bill', person: 'people', roll_call: 'vote' } as Record<string, string>;
    for (const [i, a] of listener.accepted.entries()) {
      await fs.mkdir(path.join(dir, folder[a.root]), { recursive: true });
      await fs.writeFile(
        path.join(dir, folder[a.root], `${i}.json`),
        JSON.stringify({ status: 'OK', [a.root]: a.body }),
      );
    }
    const other = await freshDatabase();
    try {
      const report = await importLegiscan(other.pool, dir);
      expect(JSON.parse(JSON.stringify(report)).problems ?? []).toEqual([]);
      const q = async (sql: string) => (await other.pool.query(sql, [wireBill])).rows;
      const [b2] = await q(
        `SELECT bill_number, title, description, status_id, status_date::text AS status_date, state_id, body_id, current_body_id FROM bills WHERE bill_id = $1`,
      );
      expect(b2).toEqual({
        bill_number: 'SB5048',
        title: 'College in the high school fees',
        description: 'Eliminating college in the high school fees.',
        status_id: 3,
        status_date: '2026-03-08',
        state_id: 47,
        body_id: 98,
        current_body_id: 97,
      });
      expect(
        await q(
          `SELECT p.name, s.sponsor_order, s.sponsor_type_id, p.party_id FROM bill_sponsors s JOIN people p USING (people_id) WHERE s.bill_id = $1 ORDER BY s.sponsor_order`,
        ),
      ).toEqual([
        { name: 'Mark Mullet', sponsor_order: 1, sponsor_type_id: 1, party_id: 1 },
        { name: 'Ann Rivers', sponsor_order: 2, sponsor_type_id: 2, party_id: 2 },
      ]);
      expect(
        await q(
          `SELECT history_step, history_date::text AS d, history_action AS a, history_major AS m FROM bill_history WHERE bill_id = $1 ORDER BY history_step`,
        ),
      ).toEqual([
        { history_step: 1, d: '2026-01-09', a: 'First reading, referred to Higher Education.', m: 1 },
        { history_step: 2, d: '2026-03-08', a: 'Third reading, passed.', m: 1 },
      ]);
      expect(
        await q(
          `SELECT r.roll_call_id, r.yea, r.nay, r.passed, r.vote_date::text AS d, r.description FROM roll_calls r WHERE r.bill_id = $1`,
        ),
      ).toEqual([
        { roll_call_id: wireRollCall, yea: 1, nay: 1, passed: 1, d: '2026-03-08', description: 'Senate Final Passage' },
      ]);
      expect(
        await q(
          `SELECT p.name, v.vote_id FROM roll_call_votes v JOIN people p USING (people_id) JOIN roll_calls r USING (roll_call_id) WHERE r.bill_id = $1 ORDER BY p.name`,
        ),
      ).toEqual([
        { name: 'Ann Rivers', vote_id: 2 },
        { name: 'Mark Mullet', vote_id: 1 },
      ]);
    } finally {
      await other.drop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('treats ERROR, non-JSON and a wrong token as failed attempts, retried on the schedule', async () => {
    let token = 'not-yet-known';
    let n = 0;
    const listener = legiscanListener(() => token);
    const r = await startReceiver((rec, i) => {
      n++;
      if (n === 1) return { status: 200, body: 'OK' }; // not JSON
      return listener.respond(rec, i);
    });
    receivers.push(r);
    const m = await mirror(r.url, { events: ['vote_recorded'] });
    await start();
    await stampChange(t.db.pool, { bill_id: BILL, state_id: 47, reason: 'Vote', detail: { roll_call_id: ROLL_CALL } });
    await r.waitFor(2); // non-JSON, then ERROR (wrong token)
    token = m.token;
    await until(async () => listener.accepted.length >= 2, 15_000, 'bill and roll_call pushes');
    expect(listener.accepted.map((a) => a.root).sort()).toEqual(['bill', 'roll_call']);
    // Outcomes are recorded in batches after the response: wait until the bill push's row says so.
    const ds = await until(
      async () => {
        const data = (
          await t.app.inject({
            method: 'GET',
            url: `/v1/webhooks/${m.data.id}/deliveries`,
            headers: { 'x-api-key': t.key },
          })
        ).json().data;
        return data.find(
          (d: { event_type: string; status: string }) => d.event_type === 'bill' && d.status === 'delivered',
        )
          ? data
          : undefined;
      },
      15_000,
      'the bill delivery recorded as delivered',
    );
    const billDelivery = ds.find((d: { event_type: string }) => d.event_type === 'bill');
    expect(billDelivery.status).toBe('delivered');
    expect(billDelivery.attempt_log.length).toBeGreaterThanOrEqual(2);
    const errors = ds
      .flatMap((d: { attempt_log: { error: string | null }[] }) => d.attempt_log.map((a) => a.error))
      .filter(Boolean);
    expect(errors.some((e: string) => /not JSON/.test(e))).toBe(true);
    expect(errors.some((e: string) => /ERROR: Invalid API authentication token/.test(e))).toBe(true);
  });

  it('a receiver that answers after the attempt timeout still gets every record its lost reply asked for', async () => {
    // LegiScan's client: a bill whose change_hash it already holds is skipped with a plain OK, so
    // the retry of a push whose reply was lost asks for nothing
    let token = '';
    const held = new Set<string>();
    const listener = legiscanListener(
      () => token,
      (root, body) => {
        if (root !== 'bill') return { status: 'OK' };
        if (held.has(body.change_hash)) return { status: 'OK' };
        held.add(body.change_hash);
        return {
          status: 'OK',
          missing: {
            sponsors: body.sponsors.map((x: { people_id: number }) => x.people_id),
            votes: body.votes.map((v: { roll_call_id: number }) => v.roll_call_id),
          },
        };
      },
    );
    let bills = 0;
    const r = await startReceiver(async (rec, i) => {
      const out = listener.respond(rec, i);
      // the first bill push is stored at once and answered after the 3 s attempt timeout
      if (JSON.parse(rec.body).bill && ++bills === 1) await new Promise((ok) => setTimeout(ok, 4000));
      return out;
    });
    receivers.push(r);
    const m = await mirror(r.url, { filters: { states: ['WA'] } });
    token = m.token;
    await start();
    await stampChange(t.db.pool, { bill_id: BILL, state_id: 47, reason: 'StatusChange', old_status: 2, new_status: 3 });
    await until(
      async () =>
        listener.accepted.filter((a) => a.root === 'person').length >= 2 &&
        listener.accepted.some((a) => a.root === 'roll_call'),
      30_000,
      'the sponsors and the roll call the lost reply asked for',
    );
    expect(bills).toBeGreaterThanOrEqual(2);
    expect(new Set(listener.accepted.filter((a) => a.root === 'person').map((a) => a.body.people_id)).size).toBe(2);
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${m.data.id}`, headers: { 'x-api-key': t.key } });
  });

  it('POST /v1/push-mirror/test sends one sample push and reports the receiver status', async () => {
    const listener = legiscanListener(() => 'abc');
    const r = await startReceiver(listener.respond);
    receivers.push(r);
    const call = (body: object) =>
      t.app.inject({ method: 'POST', url: '/v1/push-mirror/test', headers: { 'x-api-key': t.key }, payload: body });
    const ok = await call({ webhook_url: r.url, token: 'ABC' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, http_status: 200, receiver_status: 'OK', error: null });
    expect(listener.accepted[0].root).toBe('bill');
    const noToken = (await call({ webhook_url: r.url })).json();
    expect(noToken).toMatchObject({ ok: false, http_status: 200, receiver_status: 'ERROR' });
    expect(noToken.error).toMatch(/Invalid API authentication token/);
    expect((await call({ webhook_url: 'https://169.254.169.254/' })).statusCode).toBe(400);
  });
});
