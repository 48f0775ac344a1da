// The diff worker's results in the change feed: a text change computed after its text landed is a
// TextDiff change (feed, reason filter, stream replay), recorded once per new or different result
// and only for pairs a bill's `changes` part shows; webhooks and push mirrors send nothing for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import { startRelay } from '../../src/changes/relay.js';
import { recordChanges, REASONS } from '../../src/changes/record.js';
import { eventsAfter } from '../../src/changes/events.js';
import { parseReason } from '../../src/changes/params.js';
import { withTransaction } from '../../src/db/pool.js';
import { EVENT_NAMES, eventsForChange } from '../../src/domain/events.js';
import { mirrorHandler } from '../../src/mirror/handler.js';
import type { ProcessContext } from '../../src/server.js';
import { computePair, enqueuePair, processQueue } from '../../src/texts/store.js';
import { runDiffRound } from '../../src/texts/worker.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { buildFixture, F, TEXT_V2 } from '../helpers/fixtures.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from '../webhooks/helpers.js';

let t: TestApp;
let ctx: ProcessContext;
const running: Background[] = [];
const receivers: Receiver[] = [];
const T = F.texts;
const HB1 = F.bills.hb1;
const TX = 43;

beforeAll(async () => {
  t = await testApp({
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookRetrySchedule: [0, 0.2, 0.2], relayPollMs: 50 },
  });
  await buildFixture(t.db.pool);
  ctx = t.background();
  running.push(await startRelay(ctx));
});
afterAll(async () => {
  for (const b of running.splice(0).reverse()) await b.stop();
  for (const r of receivers.splice(0)) await r.close();
  await t?.close();
});

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  return { status: res.statusCode, body: res.json() };
};

interface DiffChange {
  change_id: number;
  bill_id: number;
  state_id: number;
  detail: { from_text_id: number; to_text_id: number };
  stamped: boolean;
}
const textDiffChanges = async () =>
  (
    await t.db.pool.query<DiffChange>(
      `SELECT change_id::int, bill_id, state_id, detail, seq IS NOT NULL AS stamped FROM changes WHERE reason_id = $1 ORDER BY change_id`,
      [REASONS.TextDiff],
    )
  ).rows;
const pairs = (rows: DiffChange[]) => rows.map((r) => [r.detail.from_text_id, r.detail.to_text_id]);
const allStamped = () =>
  waitFor(
    'the relay to stamp every change',
    async () => (await t.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
  );
const cursorNow = async () => (await get('/v1/changes?limit=1')).body.summary.server_now as string;
/** computePair as the worker runs it: inside a transaction of its own. */
const recompute = (from: number, to: number) => withTransaction(t.db.pool, (c) => computePair(c, from, to));

describe('TextDiff changes', () => {
  it('a diff computed after its text landed is a TextDiff change in /v1/changes, its reason filter and the stream replay', async () => {
    const before = await cursorNow();
    expect(await textDiffChanges()).toEqual([]);
    const round = await runDiffRound(t.db.pool);
    expect(round.computed).toBe(2);
    const recorded = await textDiffChanges();
    // each stored pair, in the transaction that stored it (the pair left the queue with it)
    expect(pairs(recorded)).toEqual([
      [T.v1, T.v2],
      [T.v2, T.v3],
    ]);
    expect(recorded.every((r) => r.bill_id === HB1 && r.state_id === TX)).toBe(true);
    await allStamped();

    const feed = await get(`/v1/changes?since=${encodeURIComponent(before)}&reason=TextDiff`);
    expect(feed.status).toBe(200);
    expect(feed.body.data).toHaveLength(2);
    for (const row of feed.body.data)
      expect(row).toMatchObject({ bill_id: HB1, reason_id: 100, reason_name: 'TextDiff' });
    // without the filter they are there too; other reasons' filters leave them out
    const all = await get(`/v1/changes?since=${encodeURIComponent(before)}`);
    expect(all.body.data.filter((r: { reason_name: string }) => r.reason_name === 'TextDiff')).toHaveLength(2);
    expect((await get(`/v1/changes?since=${encodeURIComponent(before)}&reason=Text`)).body.data).toEqual([]);
    expect((await get('/v1/changes?reason=textdiff')).status).toBe(400);

    // the stream's replay reads the same rows with the same filter (/v1/stream?reason=TextDiff)
    const replay = await eventsAfter(t.db.pool, before, { reasonId: parseReason('TextDiff') }, 10);
    expect(replay.map((e) => [e.reason, e.reason_id, e.detail])).toEqual([
      ['TextDiff', 100, { from_text_id: T.v1, to_text_id: T.v2 }],
      ['TextDiff', 100, { from_text_id: T.v2, to_text_id: T.v3 }],
    ]);
  });

  it('a recomputation with the same result records nothing and keeps computed_at; a different or removed result records one', async () => {
    const computedAt = async () =>
      (
        await t.db.pool.query<{ at: string }>(
          'SELECT computed_at::text AS at FROM text_changes WHERE from_text_id = $1 AND to_text_id = $2',
          [T.v2, T.v3],
        )
      ).rows[0]?.at;
    const at = await computedAt();
    const n = (await textDiffChanges()).length;
    expect(await recompute(T.v2, T.v3)).toBe(true);
    expect(await computedAt()).toBe(at);
    expect(await textDiffChanges()).toHaveLength(n);

    // a pair queued by a /diff miss is not in the bill's `changes` part: stored, no change
    await enqueuePair(t.db.pool, HB1, T.v1, T.v3);
    expect(await processQueue(t.db.pool)).toBe(1);
    expect(
      (await t.db.pool.query('SELECT 1 FROM text_changes WHERE from_text_id = $1 AND to_text_id = $2', [T.v1, T.v3]))
        .rowCount,
    ).toBe(1);
    expect(await textDiffChanges()).toHaveLength(n);

    // the document of v3 corrected by its source: its diff differs, one change
    await t.db.pool.query('UPDATE bill_texts SET content = $2 WHERE text_id = $1', [
      T.v3,
      TEXT_V2 + 'SECTION 4. Severability.\n',
    ]);
    await recompute(T.v2, T.v3);
    expect(await computedAt()).not.toBe(at);
    expect(pairs(await textDiffChanges()).slice(n)).toEqual([[T.v2, T.v3]]);

    // then withdrawn (listed without its document): the stored result is removed, one change
    await t.db.pool.query('UPDATE bill_texts SET content = NULL WHERE text_id = $1', [T.v3]);
    expect(await recompute(T.v2, T.v3)).toBe(false);
    expect(await computedAt()).toBeUndefined();
    expect(pairs(await textDiffChanges()).slice(n)).toEqual([
      [T.v2, T.v3],
      [T.v2, T.v3],
    ]);
    // nothing left to remove: nothing recorded
    expect(await recompute(T.v2, T.v3)).toBe(false);
    expect(await textDiffChanges()).toHaveLength(n + 2);
    await allStamped();
  });

  it('emits no webhook event and no push-mirror push', async () => {
    expect(eventsForChange('TextDiff', null)).toEqual([]);
    const change = {
      change_id: 1,
      seq: 1,
      changed_at: '2026-01-01T00:00:00.000000Z',
      bill_id: HB1,
      bill_number: 'HB 1',
      state: 'TX',
      title: '',
      reason_id: REASONS.TextDiff,
      reason: 'TextDiff',
      old_status: null,
      new_status: null,
      detail: { from_text_id: T.v1, to_text_id: T.v2 },
    };
    // even a subscription handed events for it pushes nothing: LegiScan's bill has no diffs
    expect(
      mirrorHandler.dispatch(1, change as never, ['text_updated'], {
        baseUrl: 'http://lds.test',
        payloads: new Map(),
      } as never),
    ).toEqual([]);

    // a webhook on every event and a push mirror, both for TX
    const hook = await startReceiver();
    const mirror = await startReceiver(() => ({ status: 200, body: '{"status":"OK"}' }));
    receivers.push(hook, mirror);
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'x-api-key': t.key }, payload });
      expect(res.statusCode, res.body).toBe(201);
    };
    await post('/v1/webhooks', {
      webhook_url: hook.url,
      // every event there is: none of them may come of a TextDiff
      events: [...EVENT_NAMES],
    });
    await post('/v1/push-mirror', { webhook_url: mirror.url });
    running.push(await startDispatcher(ctx, { pollMs: 100 }));
    running.push(await startDeliveryWorker(ctx, { pollMs: 50, leaseMarginMs: 500 }));

    // a new version of HB 1, as a writer adds it (Text), then its diff from the worker (TextDiff),
    // then another Text change after it: once that one is delivered, the dispatcher is past the diff
    const addText = (id: number, content: string, date: string) =>
      withTransaction(t.db.pool, async (c) => {
        await c.query(
          `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content) VALUES ($1, $2, 5, $3, $4)`,
          [id, HB1, date, content],
        );
        await recordChanges(c, [{ bill_id: HB1, state_id: TX, reason: 'Text', detail: { text_id: id } }]);
      });
    const n = (await textDiffChanges()).length;
    await addText(204, TEXT_V2 + 'SECTION 5. Appropriation.\n', '2026-04-01');
    // (v3, the version before it, has its document again)
    await t.db.pool.query('UPDATE bill_texts SET content = $2 WHERE text_id = $1', [T.v3, TEXT_V2]);
    await t.db.pool.query('INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id) VALUES ($1, $2, $3)', [
      T.v3,
      204,
      HB1,
    ]);
    expect(await processQueue(t.db.pool)).toBe(1);
    const diff = (await textDiffChanges()).slice(n);
    expect(pairs(diff)).toEqual([[T.v3, 204]]);
    await addText(205, TEXT_V2 + 'SECTION 6. Repeal.\n', '2026-05-01');
    await allStamped();

    // the webhook gets text_updated for each Text change; the mirror a bill push (the second may
    // ride on the first: a push renders the bill as it is now)
    await hook.waitFor(2);
    await mirror.waitFor(1);
    await waitFor(
      'the dispatcher past every change',
      async () =>
        (
          await t.db.pool.query<{ done: boolean }>(
            'SELECT (SELECT last_seq FROM dispatcher_state) >= (SELECT max(seq) FROM changes) AS done',
          )
        ).rows[0].done,
    );
    const { rows } = await t.db.pool.query<{ change_id: number; n: number }>(
      `SELECT d.change_id::int, count(*)::int AS n FROM deliveries d JOIN changes c USING (change_id)
       WHERE c.reason_id = $1 GROUP BY 1`,
      [REASONS.TextDiff],
    );
    expect(rows).toEqual([]);
    const textDeliveries = await t.db.pool.query(
      `SELECT 1 FROM deliveries d JOIN changes c USING (change_id) WHERE c.reason_id = $1 AND c.detail->>'text_id' IN ('204', '205')`,
      [REASONS.Text],
    );
    expect(textDeliveries.rowCount).toBe(4);
    for (const rec of [...hook.received, ...mirror.received]) expect(rec.body).not.toMatch(/TextDiff|"100":/);
  });
});
