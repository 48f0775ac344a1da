// The disable rule (Svix's): a delivery that exhausts its retries is marked failed and can be
// retried; the subscription is switched off only when every attempt has failed for 5 days, with
// the reason in the log. The 5 days are not waited for: the start of the failing run is moved back.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import type { ProcessContext } from '../../src/server.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { DISABLE_AFTER_FAILING_MS } from '../../src/webhooks/delivery/disable.js';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { insertBill, stampChange, startReceiver, until, type Receiver } from '../webhooks/helpers.js';

let t: TestApp;
let ctx: ProcessContext;
const logged: { msg: string; reason?: string; subscription?: number }[] = [];
const running: Background[] = [];
const receivers: Receiver[] = [];
let nextBill = 10_970_000;

beforeAll(async () => {
  t = await testApp({
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookRetrySchedule: [0, 0.1, 0.1], webhookTimeoutMs: 3000 },
  });
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logged.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  ctx = { ...t.background(), log: pino({ level: 'warn' }, sink) };
});
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => t?.close());

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { 'x-api-key': t.key }, payload });
async function start() {
  running.push(await startDispatcher(ctx, { pollMs: 100 }));
  running.push(await startDeliveryWorker(ctx, { pollMs: 50, leaseMarginMs: 500 }));
}
async function bill() {
  const id = nextBill++;
  await insertBill(t.db.pool, { bill_id: id, state_id: 47 });
  return id;
}
const sub = async (id: number) => (await api('GET', `/v1/webhooks/${id}`)).json().data;
const deliveries = async (id: number) =>
  (await api('GET', `/v1/webhooks/${id}/deliveries`)).json().data as { id: string; bill_id: number; status: string }[];
const failingSince = async (subId: number) =>
  (await t.db.pool.query<{ f: Date | null }>('SELECT failing_since AS f FROM subscriptions WHERE id = $1', [subId]))
    .rows[0]!.f;

describe('disable rule', () => {
  it('a poison push exhausts its retries and is marked failed; the mirror stays active, the other bills arrive, and a retry delivers it', async () => {
    const poison = await bill();
    const good = await bill();
    let cured = false;
    // LegiScan's listener answers ERROR when its database rejects a push: here, for one bill only
    const r = await startReceiver((rec) => {
      const body = JSON.parse(rec.body);
      const isPoison = body.bill?.title === 'poison';
      return {
        status: 200,
        body: JSON.stringify(
          isPoison && !cured
            ? { status: 'ERROR', alert: { message: 'Out of range value for column bill_id' } }
            : { status: 'OK' },
        ),
      };
    });
    receivers.push(r);
    await t.db.pool.query(`UPDATE bills SET title = 'poison' WHERE bill_id = $1`, [poison]);
    const created = await api('POST', '/v1/push-mirror', { webhook_url: r.url, events: ['bill_introduced'] });
    const m = created.json() as { data: { id: number } };
    await start();
    await stampChange(t.db.pool, { bill_id: poison, state_id: 47, reason: 'NewBill' });
    await stampChange(t.db.pool, { bill_id: good, state_id: 47, reason: 'NewBill' });
    const ds = await until(
      async () => {
        const l = await deliveries(m.data.id);
        return l.find((x) => x.bill_id === poison)?.status === 'failed' &&
          l.find((x) => x.bill_id === good)?.status === 'delivered'
          ? l
          : undefined;
      },
      15_000,
      'poison failed, good delivered',
    );
    expect(await sub(m.data.id)).toMatchObject({ active: true, deactivated_reason: null });
    cured = true;
    const failed = ds.find((x) => x.bill_id === poison)!;
    expect((await api('POST', `/v1/webhooks/${m.data.id}/deliveries/${failed.id}/retry`)).statusCode).toBe(202);
    await until(
      async () => (await deliveries(m.data.id)).find((x) => x.bill_id === poison)?.status === 'delivered',
      15_000,
      'retried poison delivered',
    );
  });

  it('disables only when every attempt has failed for the whole window, with the reason in the log', async () => {
    const r = await startReceiver(() => ({ status: 503 }));
    receivers.push(r);
    const created = await api('POST', '/v1/webhooks', { webhook_url: r.url, events: ['bill_introduced'] });
    const w = created.json() as { data: { id: number } };
    await start();
    await stampChange(t.db.pool, { bill_id: await bill(), state_id: 47, reason: 'NewBill' });
    await until(async () => (await deliveries(w.data.id))[0]?.status === 'failed', 15_000, 'first delivery exhausted');
    // failing for less than the window: still active
    const since = await failingSince(w.data.id);
    expect(since).toBeInstanceOf(Date);
    expect(await sub(w.data.id)).toMatchObject({ active: true });
    // the run of failures started longer ago than the window: the next failed attempt disables
    await t.db.pool.query(
      `UPDATE subscriptions SET failing_since = now() - make_interval(secs => $2::double precision / 1000 + 3600) WHERE id = $1`,
      [w.data.id, DISABLE_AFTER_FAILING_MS],
    );
    await stampChange(t.db.pool, { bill_id: await bill(), state_id: 47, reason: 'NewBill' });
    const off = await until(
      async () => {
        const s = await sub(w.data.id);
        return s.active ? undefined : s;
      },
      15_000,
      'subscription disabled',
    );
    expect(off.deactivated_reason).toBe('endpoint_failing');
    await until(async () => logged.find((l) => l.subscription === w.data.id), 5_000, 'the log line');
    expect(logged.find((l) => l.subscription === w.data.id)).toMatchObject({
      reason: 'endpoint_failing',
      msg: expect.stringMatching(/every delivery attempt has failed since/),
    });
  });

  it('a success inside the window resets it: an old failing run followed by a delivered attempt never disables', async () => {
    let ok = false;
    const r = await startReceiver(() => ({ status: ok ? 200 : 500 }));
    receivers.push(r);
    const w = (await api('POST', '/v1/webhooks', { webhook_url: r.url, events: ['bill_introduced'] })).json() as {
      data: { id: number };
    };
    await start();
    await stampChange(t.db.pool, { bill_id: await bill(), state_id: 47, reason: 'NewBill' });
    await until(async () => (await deliveries(w.data.id))[0]?.status === 'failed', 15_000, 'exhausted');
    ok = true;
    await stampChange(t.db.pool, { bill_id: await bill(), state_id: 47, reason: 'NewBill' });
    await until(
      async () => (await deliveries(w.data.id)).some((x) => x.status === 'delivered'),
      15_000,
      'a delivered attempt',
    );
    await until(async () => (await failingSince(w.data.id)) === null, 5_000, 'failing run ended');
    await t.db.pool.query(`UPDATE subscriptions SET last_delivery_at = now() - interval '1 day' WHERE id = $1`, [
      w.data.id,
    ]);
    ok = false;
    await stampChange(t.db.pool, { bill_id: await bill(), state_id: 47, reason: 'NewBill' });
    await until(async () => (await failingSince(w.data.id)) !== null, 15_000, 'a new failing run');
    expect(await sub(w.data.id)).toMatchObject({ active: true });
  });
});
