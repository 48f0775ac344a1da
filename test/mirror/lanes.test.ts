// Push-mirror ordering lanes (webhooks/queue/claims.ts): a mirror's bill pushes, and the documents
// and roll calls that follow them, are claimed as runs and go one at a time in queue order, so a receiver never writes two
// bills at once (two such transactions deadlock on MySQL's gap locks over adjacent bill ids);
// person pushes go beside them; a push waiting for a retry does not hold its lane, while later
// pushes of the same bill still wait for it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import { claimDue } from '../../src/webhooks/queue/claims.js';
import { enqueueDeliveries } from '../../src/webhooks/queue/enqueue.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { MIRROR_LANE } from '../../src/mirror/handler.js';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { insertBill, stampChange, startReceiver, until, type Receiver } from '../webhooks/helpers.js';

let t: TestApp;
const running: Background[] = [];
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await testApp({
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookRetrySchedule: [0, 0.2, 0.5], webhookTimeoutMs: 10_000 },
  });
  for (let i = 0; i < 4; i++) await insertBill(t.db.pool, { bill_id: 10_970_001 + i, state_id: 47 });
  for (let i = 0; i < 4; i++) await insertBill(t.db.pool, { bill_id: 10_970_101 + i, state_id: 43 });
});
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => t?.close());

async function mirror(url: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/push-mirror',
    headers: { 'x-api-key': t.key },
    payload: { webhook_url: url },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { data: { id: string }; token: string };
}

describe('push-mirror lanes', () => {
  it('claims a lane as a run, one push per bill, people beside it; nothing more of the lane while it is in flight; a push waiting for a retry frees the lane but not its bill', async () => {
    const m = await mirror('http://127.0.0.1:9/push');
    const sub = Number(m.data.id);
    const d = (bill: number | null, lane: number | null, root = 'bill') => ({
      subscription_id: sub,
      change_id: null,
      event_type: `${root}:${bill}`,
      bill_id: bill,
      lane,
      payload: '{}',
      target: root === 'bill' ? { root, bill_id: bill } : { root, people_id: 1 },
    });
    const L = MIRROR_LANE;
    const mine = async () =>
      (await claimDue(t.db.pool, 10, 8, 60_000))
        .filter((x) => Number(x.subscription_id) === sub)
        .map((x) => x.id)
        .sort();
    const [a, b, c, p] = await enqueueDeliveries(
      t.db.pool,
      [d(10_970_001, L), d(10_970_002, L), d(10_970_101, L), d(null, null, 'person')],
      { wake: false },
    );
    const later = (await enqueueDeliveries(t.db.pool, [d(10_970_001, L)], { wake: false }))[0]!;
    // the run: the lane's ready pushes, but not a second push of a bill already in it
    expect(await mine()).toEqual([a!.id, b!.id, c!.id, p!.id].sort());
    // while the run is in flight, a new push of the lane waits, however much room is left
    const e = (await enqueueDeliveries(t.db.pool, [d(10_970_003, L)], { wake: false }))[0]!;
    expect(await mine()).toEqual([]);
    // the run's first push failed and waits for its retry, the others were delivered: the next
    // bill goes, the failed bill's next push does not
    await t.db.pool.query(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = now() + interval '1 hour', locked_until = NULL WHERE id = $1`,
      [a!.id],
    );
    await t.db.pool.query(
      `UPDATE deliveries SET status = 'delivered', delivered_at = now(), locked_until = NULL WHERE id = ANY($1)`,
      [[b!.id, c!.id, p!.id]],
    );
    const next = await mine();
    expect(next).toEqual([e.id]);
    expect(next).not.toContain(later.id);
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${sub}`, headers: { 'x-api-key': t.key } });
  });

  it('a bill push carries the pushes of the same bill queued behind it: one push, their reasons merged, all delivered', async () => {
    const bill = 10_970_004;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pushes: { reasons: Record<string, string> }[] = [];
    const r = await startReceiver(async (rec) => {
      const body = JSON.parse(rec.body) as { bill?: { bill_number: string; reasons: Record<string, string> } };
      if (body.bill?.bill_number === `HB${bill % 10000}`) {
        pushes.push(body.bill);
        if (pushes.length === 1) await gate; // the first push is on the wire while the others queue
      }
      return { status: 200, body: '{"status":"OK"}' };
    });
    receivers.push(r);
    const m = await mirror(r.url);
    const sub = Number(m.data.id);
    const ctx = t.background();
    running.push(await startDispatcher(ctx, { pollMs: 50 }), await startDeliveryWorker(ctx, { pollMs: 50 }));
    const ofBill = async () =>
      (
        await t.db.pool.query<{ status: string }>(
          `SELECT status FROM deliveries WHERE subscription_id = $1 AND bill_id = $2 AND target->>'root' = 'bill' ORDER BY id`,
          [sub, bill],
        )
      ).rows.map((x) => x.status);
    await stampChange(t.db.pool, { bill_id: bill, state_id: 47, reason: 'StatusChange', old_status: 1, new_status: 2 });
    await until(async () => pushes.length === 1, 60_000, 'the first push');
    await stampChange(t.db.pool, { bill_id: bill, state_id: 47, reason: 'Text', detail: { text_id: 1 } });
    await stampChange(t.db.pool, { bill_id: bill, state_id: 47, reason: 'Amendment', detail: { amendment_id: 1 } });
    await until(async () => (await ofBill()).length === 3, 60_000, 'two more pushes queued');
    release();
    await until(
      async () => (await ofBill()).every((st) => st === 'delivered'),
      60_000,
      'every push of the bill delivered',
    );
    expect(pushes.length).toBe(2);
    expect(pushes[1]!.reasons).toEqual({ '20': 'Text', '21': 'Amendment' });
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${sub}`, headers: { 'x-api-key': t.key } });
  }, 90_000);

  it('a receiver never has two bill pushes at once, while person pushes go beside them', async () => {
    let bills = 0;
    let people = 0;
    let maxBills = 0;
    let overlapped = false;
    const r = await startReceiver(async (rec) => {
      const root = Object.keys(JSON.parse(rec.body) as object)[0];
      if (root !== 'bill') {
        people++;
        // the first person pushes wait for a bill push in flight beside them (or 5 s), whichever comes first
        if (!overlapped)
          await until(async () => bills > 0, 5000, 'a bill push').then(
            () => (overlapped = true),
            () => undefined,
          );
        people--;
        return { status: 200, body: '{"status":"OK"}' };
      }
      maxBills = Math.max(maxBills, ++bills);
      // hold the first bill pushes until a person push is in flight beside one (or 5 s pass)
      if (!overlapped)
        await until(async () => people > 0, 5000, 'a person push').then(
          () => (overlapped = true),
          () => undefined,
        );
      bills--;
      return { status: 200, body: '{"status":"OK"}' };
    });
    receivers.push(r);
    const m = await mirror(r.url);
    await t.db.pool.query(
      `INSERT INTO people (people_id, state_id, role_id, name) SELECT g, 47, 1, 'Person ' || g FROM generate_series(10970201, 10970260) g`,
    );
    const ctx = t.background();
    running.push(await startDispatcher(ctx, { pollMs: 50 }), await startDeliveryWorker(ctx, { pollMs: 50 }));
    for (let i = 0; i < 4; i++) {
      await stampChange(t.db.pool, {
        bill_id: 10_970_001 + i,
        state_id: 47,
        reason: 'StatusChange',
        old_status: 1,
        new_status: 2,
      });
      await stampChange(t.db.pool, {
        bill_id: 10_970_101 + i,
        state_id: 43,
        reason: 'StatusChange',
        old_status: 1,
        new_status: 2,
      });
    }
    // person pushes as a receiver's `missing` request queues them
    await enqueueDeliveries(
      t.db.pool,
      Array.from({ length: 60 }, (_, i) => ({
        subscription_id: Number(m.data.id),
        change_id: null,
        event_type: `person:${i}`,
        bill_id: null,
        payload: '{"requested":true}',
        target: { root: 'person', people_id: 10_970_201 + i },
      })),
    );
    await until(
      async () => r.received.filter((x) => x.body.startsWith('{"bill"')).length >= 8,
      60_000,
      'eight bill pushes',
    );
    expect(maxBills).toBe(1);
    // in the order the changes were made, whichever worker run carried them
    const numbers = r.received
      .filter((x) => x.body.startsWith('{"bill"'))
      .map((x) => (JSON.parse(x.body) as { bill: { bill_number: string } }).bill.bill_number);
    expect(numbers).toEqual(
      [1, 2, 3, 4].flatMap((i) => [`HB${(10_970_000 + i) % 10000}`, `HB${(10_970_100 + i) % 10000}`]),
    );
    expect(overlapped).toBe(true);
  }, 90_000);
});
