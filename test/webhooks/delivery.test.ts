// End to end: stamped changes → dispatcher → delivery rows → workers → real local receivers.
// Every delivery is verified with the standardwebhooks library, as a subscriber would.
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import type { ProcessContext } from '../../src/server.js';
import { createBus } from '../../src/bus/index.js';
import { MemoryBus } from '../../src/bus/memory.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { DELIVERY_CHANNEL } from '../../src/webhooks/queue/enqueue.js';
import { SAFETY_POLL_MS, startDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { ensureBuilt, root } from '../helpers/build.js';
import { insertBill, stampChange, startReceiver, until, verify, type Receiver } from './helpers.js';
import type { ChangeEvent } from '../../src/changes/events.js';

let t: TestApp;
let ctx: ProcessContext;
const running: Background[] = [];
const receivers: Receiver[] = [];
let nextBill = 10_950_000;

beforeAll(async () => {
  t = await testApp({
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookRetrySchedule: [0, 0.2, 0.2], webhookTimeoutMs: 3000 },
  });
  ctx = t.background();
});
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => t?.close());

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}
async function dispatcher() {
  running.push(await startDispatcher(ctx, { pollMs: 100 }));
}
// Workers here keep the production safety poll: under a loaded shared PostgreSQL a wake-up is
// occasionally missed (a known gap, left open: it costs up to one poll of latency, never a
// delivery). The test below with the poll 600 s away proves the notification path itself.
async function worker(): Promise<DeliveryWorker> {
  const w = await startDeliveryWorker(ctx, { pollMs: SAFETY_POLL_MS, leaseMarginMs: 500 });
  running.push(w);
  return w;
}
async function subscribe(url: string, events: string[], filters?: object, key = t.key) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: { 'x-api-key': key },
    payload: { webhook_url: url, events, filters },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { data: { id: string }; secret: string };
}
const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { 'x-api-key': t.key }, payload });
async function bill(opts: Partial<Parameters<typeof insertBill>[1]> = {}) {
  const id = nextBill++;
  await insertBill(t.db.pool, { bill_id: id, ...opts });
  return id;
}
const deliveries = async (id: string) => (await api('GET', `/v1/webhooks/${id}/deliveries`)).json().data;

/**
 * Waits until the dispatcher's cursor has passed the change and every delivery of the subscription
 * has finished: from then on nothing more can be sent to it, so a count taken after is final.
 */
async function settled(subId: string, changeId: number): Promise<{ status: string }[]> {
  return until(async () => {
    const { rows } = await t.db.pool.query<{ passed: boolean }>(
      'SELECT (SELECT last_seq FROM dispatcher_state WHERE id = 1) >= (SELECT seq FROM changes WHERE change_id = $1) AS passed',
      [changeId],
    );
    if (!rows[0].passed) return undefined;
    const l: { status: string }[] = await deliveries(subId);
    return l.every((d) => d.status === 'delivered' || d.status === 'failed') ? l : undefined;
  });
}

describe('delivery', () => {
  it('turns a change into signed deliveries by the event table and filters', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['status_change', 'signed', 'bill_introduced'], {
      states: ['TX'],
      subjects: ['water rights'],
    });
    const tx = await bill({ state_id: 43, status_id: 5, subjects: ['Water Rights'] });
    const txOther = await bill({ state_id: 43, subjects: ['Taxation'] });
    const ca = await bill({ state_id: 5, subjects: ['Water Rights'] });
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: tx, reason: 'StatusChange', old_status: 4, new_status: 5 });
    await stampChange(t.db.pool, { bill_id: txOther, reason: 'StatusChange', old_status: 1, new_status: 2 });
    await stampChange(t.db.pool, { bill_id: ca, state_id: 5, reason: 'StatusChange', old_status: 4, new_status: 5 });
    const last = await stampChange(t.db.pool, { bill_id: tx, reason: 'Vote', detail: { roll_call_id: 1 } });
    const got = await r.waitFor(2);
    expect(await settled(sub.data.id, last)).toHaveLength(2);
    expect(r.received).toHaveLength(2);
    const payloads = got.map(
      (rec) =>
        verify(sub.secret, rec) as {
          type: string;
          id: string;
          api_version: string;
          data: { bill: { bill_id: number; url: string; state: string }; change: Record<string, unknown> };
        },
    );
    expect(payloads.map((p) => p.type).sort()).toEqual(['signed', 'status_change']);
    for (const p of payloads) {
      expect(p.api_version).toBe('v1');
      expect(p.id).toMatch(new RegExp(`^evt_\\d+_${p.type}$`));
      expect(p.data.bill).toMatchObject({
        bill_id: tx,
        state: 'TX',
        status_id: 5,
        url: `http://lds.test/v1/bills/${tx}`,
      });
      expect(p.data.change).toMatchObject({ reason: 'StatusChange', reason_id: 2, old_status_id: 4, new_status_id: 5 });
    }
    expect(got[0].headers['webhook-id']).toMatch(/^msg_/);
    expect(got[0].headers['content-type']).toBe('application/json');
    const list = await deliveries(sub.data.id);
    expect(list.every((d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1)).toBe(
      true,
    );
    const s = (await api('GET', `/v1/webhooks/${sub.data.id}`)).json().data;
    expect(s.last_delivery).toMatchObject({ status: 'delivered', status_code: 200 });
  });

  it('retries failed attempts on the schedule with the same webhook-id and logs every attempt', async () => {
    const r = await receiver((_rec, n) => (n < 3 ? { status: 500, body: 'boom' } : { status: 204 }));
    const sub = await subscribe(r.url, ['text_updated']);
    const b = await bill();
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: b, reason: 'Text', detail: { text_id: 5 } });
    const got = await r.waitFor(3);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    for (const g of got)
      expect((verify(sub.secret, g) as { data: { change: { text_id: number } } }).data.change.text_id).toBe(5);
    const [d] = await until(async () => {
      const l = await deliveries(sub.data.id);
      return l[0]?.status === 'delivered' ? l : undefined;
    });
    expect(d.attempts).toBe(3);
    expect(d.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 204]);
    expect(d.attempt_log[0].error).toBe('HTTP 500');
    expect(d.attempt_log[0].next_attempt_at).not.toBeNull();
  });

  it('honours Retry-After when it is later than the schedule', async () => {
    const r = await receiver((_rec, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const sub = await subscribe(r.url, ['amendment_added']);
    const b = await bill();
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: b, reason: 'Amendment', detail: { amendment_id: 9 } });
    await r.waitFor(2);
    // Outcomes are recorded in batches after the response, so wait for the second attempt's row.
    const [d] = await until(async () => {
      const l = await deliveries(sub.data.id);
      return l[0]?.attempt_log.length >= 2 ? l : undefined;
    });
    const first = d.attempt_log[0];
    const waited = Date.parse(first.next_attempt_at) - Date.parse(first.started_at);
    expect(waited).toBeGreaterThanOrEqual(1900);
    expect(Date.parse(d.attempt_log[1].started_at)).toBeGreaterThanOrEqual(Date.parse(first.next_attempt_at));
  });

  it('deactivates on 410 Gone; the subscription then answers 409 until reactivated', async () => {
    const r = await receiver(() => ({ status: 410 }));
    const sub = await subscribe(r.url, ['bill_introduced']);
    const b = await bill();
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
    await r.waitFor(1);
    const s = await until(async () => {
      const x = (await api('GET', `/v1/webhooks/${sub.data.id}`)).json().data;
      return x.active ? undefined : x;
    });
    expect(s.deactivated_reason).toBe('gone');
    const [d] = await deliveries(sub.data.id);
    expect(d.status).toBe('failed');
    for (const [path, body] of [
      ['/test', undefined],
      ['/rotate-secret', undefined],
      ['/recover', { since: '2020-01-01' }],
      [`/deliveries/${d.id}/retry`, undefined],
    ] as const) {
      const res = await api('POST', `/v1/webhooks/${sub.data.id}${path}`, body);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().error.code).toBe('subscription_inactive');
    }
    expect(
      (await api('GET', '/v1/webhooks')).json().data.find((x: { id: string }) => x.id === sub.data.id).active,
    ).toBe(false);
    const re = await api('POST', `/v1/webhooks/${sub.data.id}/reactivate`);
    expect(re.statusCode).toBe(200);
    expect(re.json().data).toMatchObject({ active: true, deactivated_reason: null });
  });

  it('marks the delivery failed when retries are exhausted and keeps the subscription active; recover redelivers', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200 } : { status: 502 }));
    const sub = await subscribe(r.url, ['vote_recorded']);
    const b = await bill();
    await dispatcher();
    await worker();
    const since = new Date(Date.now() - 1000).toISOString();
    await stampChange(t.db.pool, { bill_id: b, reason: 'Vote', detail: { roll_call_id: 77 } });
    await r.waitFor(3);
    await until(
      async () => (await deliveries(sub.data.id))[0]?.status === 'failed',
      15_000,
      'the delivery marked failed',
    );
    // one exhausted delivery never switches the subscription off (only 5 days of failures do)
    const s = (await api('GET', `/v1/webhooks/${sub.data.id}`)).json().data;
    expect(s).toMatchObject({ active: true, deactivated_reason: null });
    expect(r.received).toHaveLength(3);
    healthy = true;
    const rec = await api('POST', `/v1/webhooks/${sub.data.id}/recover`, { since });
    expect(rec.statusCode).toBe(202);
    expect(rec.json().recovered).toBe(1);
    const got = await r.waitFor(4);
    expect(got[3].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
    verify(sub.secret, got[3]);
    const [d] = await until(async () => {
      const l = await deliveries(sub.data.id);
      return l[0]?.status === 'delivered' ? l : undefined;
    });
    expect(d.attempts).toBe(4);
    expect((await api('POST', `/v1/webhooks/${sub.data.id}/recover`, { since: 'yesterday' })).statusCode).toBe(400);
  });

  it('replays one delivered delivery with the same webhook-id', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['bill_introduced']);
    const b = await bill();
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
    const [first] = await r.waitFor(1);
    const [d] = await until(async () => {
      const l = await deliveries(sub.data.id);
      return l[0]?.status === 'delivered' ? l : undefined;
    });
    const res = await api('POST', `/v1/webhooks/${sub.data.id}/deliveries/${d.id}/retry`);
    expect(res.statusCode).toBe(202);
    const got = await r.waitFor(2);
    expect(got[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(got[1].body).toBe(first.body);
    expect((await api('POST', `/v1/webhooks/${sub.data.id}/deliveries/msg_nope/retry`)).statusCode).toBe(404);
  });

  it('keeps per-(subscription, bill) order: a later event waits for an earlier one that is being retried', async () => {
    const r = await receiver((rec) => {
      const p = JSON.parse(rec.body) as { type: string };
      const firstTries = r.received.filter(
        (x) => (JSON.parse(x.body) as { type: string }).type === 'bill_introduced',
      ).length;
      return p.type === 'bill_introduced' && firstTries < 2 ? { status: 500 } : { status: 200 };
    });
    const sub = await subscribe(r.url, ['bill_introduced', 'status_change']);
    const b = await bill();
    await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
    await stampChange(t.db.pool, { bill_id: b, reason: 'StatusChange', old_status: 1, new_status: 2 });
    await dispatcher();
    await worker();
    const got = await r.waitFor(3);
    expect(got.map((g) => (verify(sub.secret, g) as { type: string }).type)).toEqual([
      'bill_introduced',
      'bill_introduced',
      'status_change',
    ]);
  });

  it('signs with both secrets during the rotation overlap', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['bill_introduced']);
    const rot = await api('POST', `/v1/webhooks/${sub.data.id}/rotate-secret`);
    expect(rot.statusCode).toBe(200);
    const fresh = rot.json().secret as string;
    expect(fresh).not.toBe(sub.secret);
    expect(rot.json().data.previous_secret_expires_at).not.toBeNull();
    const b = await bill();
    await dispatcher();
    await worker();
    await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
    const [got] = await r.waitFor(1);
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2);
    verify(sub.secret, got);
    verify(fresh, got);
    expect(() => verify('whsec_' + Buffer.alloc(32, 1).toString('base64'), got)).toThrow();
  });

  it('POST /test sends a synthetic delivery through the real path and reports the outcome', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['passed']);
    const res = await api('POST', `/v1/webhooks/${sub.data.id}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ delivered: true, http_status: 200, error: null });
    const [got] = r.received;
    expect((verify(sub.secret, got) as { type: string }).type).toBe('test');
    expect(got.headers['webhook-id']).toBe(res.json().delivery_id);
    const down = await receiver(() => ({ status: 500 }));
    const sub2 = await subscribe(down.url, ['passed']);
    const bad = (await api('POST', `/v1/webhooks/${sub2.data.id}/test`)).json();
    expect(bad).toMatchObject({ delivered: false, http_status: 500 });
    expect((await api('GET', `/v1/webhooks/${sub2.data.id}`)).json().data.active).toBe(true);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const sub = await subscribe(r.url, ['passed']);
    const res = (await api('POST', `/v1/webhooks/${sub.data.id}/test`)).json();
    expect(res).toMatchObject({ delivered: false, http_status: 302 });
    expect(target.received).toHaveLength(0);
  });
});

describe('crash safety and concurrency', () => {
  // the killed worker runs the built code in a process of its own
  beforeAll(() => ensureBuilt(), 180_000);

  it('a worker killed mid-delivery loses nothing: the lease expires and another worker delivers with the same webhook-id', async () => {
    let hang = true;
    const r = await receiver(() => (hang ? { status: 200, hang: true } : { status: 200 }));
    const sub = await subscribe(r.url, ['bill_introduced']);
    const b = await bill();
    await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
    await dispatcher();
    // the first worker is a process of its own, killed outright while the receiver holds its request
    const child = spawn(process.execPath, [path.join(root, 'test/webhooks/worker-child.mjs')], {
      env: { ...process.env, DATABASE_URL: t.db.url, WORKER_CONFIG: JSON.stringify(t.config) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((res) => child.once('exit', res));
    let first;
    try {
      [first] = await r.waitFor(1);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const [d] = await deliveries(sub.data.id);
    expect(d.status).toBe('in_flight');
    // the lease of the dead worker runs out (shortened here instead of waiting for it)
    await t.db.pool.query(`UPDATE deliveries SET locked_until = now() - interval '1 second' WHERE public_id = $1`, [
      d.id,
    ]);
    hang = false;
    await worker();
    const got = await r.waitFor(2);
    expect(got[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    verify(sub.secret, got[1]);
    const [after] = await until(async () => {
      const l = await deliveries(sub.data.id);
      return l[0]?.status === 'delivered' ? l : undefined;
    });
    expect(after.attempts).toBe(2);
  });

  it('two workers never deliver the same attempt twice', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['status_change']);
    const bills = await Promise.all(Array.from({ length: 20 }, () => bill()));
    for (let i = 0; i < 120; i++)
      await stampChange(t.db.pool, { bill_id: bills[i % 20], reason: 'StatusChange', old_status: 1, new_status: 2 });
    await dispatcher();
    await Promise.all([worker(), worker()]);
    await r.waitFor(120);
    // every row finished: no attempt can still be on its way
    await until(async () => {
      const { rows } = await t.db.pool.query(
        `SELECT count(*)::int AS n FROM deliveries WHERE subscription_id = $1 AND status = 'delivered'`,
        [sub.data.id],
      );
      return rows[0].n === 120 ? true : undefined;
    });
    const ids = r.received.map((g) => g.headers['webhook-id']);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    for (const g of r.received) verify(sub.secret, g);
    const { rows } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN subscriptions s ON s.id = d.subscription_id WHERE s.id = $1`,
      [sub.data.id],
    );
    expect(rows[0].n).toBe(120);
  });

  it(`the dispatcher wakes on live bus events (${process.env.NATS_URL ? 'NATS' : 'in-process bus'}), not only on the poll`, async () => {
    const bus = process.env.NATS_URL
      ? await createBus<ChangeEvent>(t.config, ctx.log, { namespace: `${t.db.name}_wh` })
      : new MemoryBus<ChangeEvent>();
    try {
      const r = await receiver();
      const sub = await subscribe(r.url, ['bill_introduced']);
      const b = await bill();
      // the poll is far away: only the bus can wake this dispatcher after its start-up catch-up
      const d = await startDispatcher({ ...ctx, bus }, { pollMs: 600_000 });
      running.push(d);
      await worker();
      const changeId = await stampChange(t.db.pool, { bill_id: b, reason: 'NewBill' });
      const { rows } = await t.db.pool.query(
        `SELECT seq, to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS changed_at FROM changes WHERE change_id = $1`,
        [changeId],
      );
      await bus.publish([
        {
          change_id: changeId,
          seq: rows[0].seq,
          changed_at: rows[0].changed_at,
          bill_id: b,
          bill_number: 'HB1',
          state: 'TX',
          title: '',
          reason_id: 1,
          reason: 'NewBill',
          old_status: null,
          new_status: null,
          detail: {},
        },
      ]);
      const [got] = await r.waitFor(1);
      expect((verify(sub.secret, got) as { data: { bill: { bill_id: number } } }).data.bill.bill_id).toBe(b);
      await d.stop();
      running.splice(running.indexOf(d), 1);
    } finally {
      await bus.close();
    }
  });

  it('a worker wakes on the PostgreSQL notification of a delivery queued by another process, not on its poll', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['bill_introduced']);
    // the poll is far away: only the notification can wake this worker
    const w = await startDeliveryWorker(ctx, { pollMs: 600_000 });
    running.push(w);
    // wait until the worker's start-up claim has found nothing, so only a wake-up can send this one
    await until(async () => (w.stats.claims > 0 && !w.inFlight ? true : undefined));
    // another process: its own connection, a plain INSERT and NOTIFY as enqueueDeliveries sends them
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO deliveries (public_id, subscription_id, event_type, payload) VALUES ('msg_fromanotherprocess', $1, 'bill_introduced', '{"type":"bill_introduced"}')`,
        [sub.data.id],
      );
      await other.query('SELECT pg_notify($1, $2)', [DELIVERY_CHANNEL, '']);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    const [got] = await r.waitFor(1);
    expect(got.headers['webhook-id']).toBe('msg_fromanotherprocess');
  });

  it('catches up from the change log after a dispatcher outage, without duplicates', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['bill_introduced']);
    const b1 = await bill();
    const b2 = await bill();
    await stampChange(t.db.pool, { bill_id: b1, reason: 'NewBill' });
    await dispatcher();
    const last = await stampChange(t.db.pool, { bill_id: b2, reason: 'NewBill' });
    // a second dispatcher and a cursor rewind must not create duplicates
    await t.db.pool.query('UPDATE dispatcher_state SET last_seq = 0');
    await dispatcher();
    await worker();
    await r.waitFor(2);
    expect(await settled(sub.data.id, last)).toHaveLength(2);
    expect(
      r.received
        .map((g) => (verify(sub.secret, g) as { data: { bill: { bill_id: number } } }).data.bill.bill_id)
        .sort(),
    ).toEqual([b1, b2]);
  });
});
