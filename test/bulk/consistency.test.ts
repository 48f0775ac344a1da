// Snapshots taken while several writers commit (out of id order, in parallel): every snapshot plus
// the change feed from its cursor, replayed, equals the database at the end, bill by bill and part
// by part; and the cursor splits the changes exactly: each change at or before it is in the
// snapshot, each one after it is not (nothing missed, nothing applied twice).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../../src/demo/simulate/run.js';
import { buildSnapshots } from '../../src/bulk/build.js';
import { listDownloads } from '../../src/bulk/downloads.js';
import { currentFiles } from '../../src/bulk/store.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, parseCsv, parseNdjsonGz, readMembers, readZip, silent, type BulkEnv, type Parsed } from './env.js';

let env: BulkEnv;
beforeAll(async () => {
  env = await bulkEnv(300);
}, 180_000);
afterAll(async () => env?.close());

const WRITER_STATES = ['CA', 'NY', 'TX', 'FL'];
const REASON = { NewBill: 1, StatusChange: 2, Text: 20, Amendment: 21, Vote: 23 };

interface Snap {
  cursor: string;
  built: string[];
  data: Parsed;
}

const changeCount = async () =>
  (await env.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM changes')).rows[0].n;

async function takeSnapshot(): Promise<Snap> {
  // small blocks: each build after the first renders only the blocks the writers touched
  const r = await buildSnapshots(env.db.pool, silent, { blockBills: 2 });
  // the all-in-one downloads as the route lays them out
  const files = await currentFiles(env.db.pool);
  const [all] = listDownloads(files);
  expect(new Set(files.map((f) => f.feed_cursor))).toEqual(new Set([r.cursor]));
  const data = parseNdjsonGz(await readMembers(env.db.pool, all.ndjson.pieces));
  // the CSV tables hold the same snapshot: as many bills and member votes
  const zip = await readZip(await readMembers(env.db.pool, all.csv!.pieces));
  expect(parseCsv(zip.get('bills.csv')!).rows.length).toBe(data.byType.bill.length);
  expect(parseCsv(zip.get('roll_call_votes.csv')!).rows.length).toBe(
    data.byType.roll_call.reduce((n, rc) => n + rc.member_votes.length, 0),
  );
  return { cursor: r.cursor, built: r.built, data };
}

async function feedAfter(cursor: string): Promise<Array<{ bill_id: number; changed_at: string }>> {
  const out: Array<{ bill_id: number; changed_at: string }> = [];
  for (let since = cursor; ;) {
    const res = await env.get(`/v1/changes?since=${encodeURIComponent(since)}&limit=1000`);
    expect(res.status).toBe(200);
    out.push(...res.body.data.reverse());
    since = res.body.summary.server_now;
    if (res.body.data.length < 1000) return out;
  }
}

async function wholeBill(id: number) {
  const res = await env.get(`/v1/bills/${id}?include=all`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('bulk snapshots under concurrent writers', () => {
  it('snapshot + feed from its cursor equals the database at the end, and the cursor splits the changes exactly', async () => {
    const ac = new AbortController();
    // one writer per state: disjoint rows (no deadlocks), commits interleaved out of id order
    const writers = WRITER_STATES.map((s) => simulate(env.db.pool, { rate: 60, states: [s], signal: ac.signal }));
    const snaps: Snap[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const before = await changeCount();
        await waitFor('writers to commit more changes', async () => (await changeCount()) >= before + 40, 60_000);
        snaps.push(await takeSnapshot());
      }
    } finally {
      ac.abort();
    }
    const done = await Promise.all(writers);
    expect(done.every((d) => d.actions > 0)).toBe(true);
    await waitFor(
      'the relay to stamp every change',
      async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
      30_000,
    );

    // the first build writes every jurisdiction; later ones only those the writers touched
    expect(snaps[0].built.length).toBe(53);
    for (const s of snaps.slice(1)) {
      expect(s.built.length).toBeGreaterThan(0);
      for (const scope of s.built) expect(WRITER_STATES).toContain(scope);
    }

    // the database at the end, through the API
    const final = new Map<number, unknown>();
    for (let offset = 0; ; offset += 500) {
      const page = (await env.get(`/v1/bills?include=all&limit=500&offset=${offset}`)).body.data as Array<{
        bill_id: number;
      }>;
      for (const b of page) final.set(b.bill_id, b);
      if (page.length < 500) break;
    }

    const changes = (
      await env.db.pool.query<{
        bill_id: number;
        reason_id: number;
        old_status: number | null;
        new_status: number | null;
        detail: any;
        after: string;
      }>(
        `SELECT bill_id, reason_id, old_status, new_status, detail, to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS after
       FROM changes ORDER BY seq`,
      )
    ).rows;

    for (const snap of snaps) {
      const held = new Map<number, any>((snap.data.byType.bill ?? []).map((b) => [b.bill_id, b]));
      // 1. the cursor splits the change log exactly
      const lastStatusHeld = new Map<number, number>();
      const firstStatusAfter = new Map<number, number>();
      let after = 0;
      for (const c of changes) {
        const isHeld = c.after <= snap.cursor;
        if (!isHeld) after++;
        const bill = held.get(c.bill_id);
        const has = (part: string, key: string, id: number) => Boolean(bill?.[part]?.some((r: any) => r[key] === id));
        if (c.reason_id === REASON.NewBill) expect(Boolean(bill), `NewBill ${c.bill_id}`).toBe(isHeld);
        if (c.reason_id === REASON.Text)
          expect(has('texts', 'text_id', c.detail.text_id), `Text ${c.detail.text_id}`).toBe(isHeld);
        if (c.reason_id === REASON.Vote)
          expect(has('votes', 'roll_call_id', c.detail.roll_call_id), `Vote ${c.detail.roll_call_id}`).toBe(isHeld);
        if (c.reason_id === REASON.Amendment)
          expect(has('amendments', 'amendment_id', c.detail.amendment_id), `Amendment ${c.detail.amendment_id}`).toBe(
            isHeld,
          );
        if (c.reason_id === REASON.StatusChange) {
          if (isHeld) lastStatusHeld.set(c.bill_id, c.new_status!);
          else if (!firstStatusAfter.has(c.bill_id)) firstStatusAfter.set(c.bill_id, c.old_status!);
        }
      }
      for (const [id, status] of lastStatusHeld) expect(held.get(id).status_id, `status of ${id}`).toBe(status);
      for (const [id, status] of firstStatusAfter)
        if (held.has(id)) expect(held.get(id).status_id, `status of ${id} before the feed`).toBe(status);
      // 2. the feed from the cursor is exactly the changes after it
      const feed = await feedAfter(snap.cursor);
      expect(feed.length).toBe(after);
      expect(feed.every((f) => f.changed_at > snap.cursor)).toBe(true);
      // 3. replayed (re-fetching each changed bill whole), the copy equals the database
      for (const id of new Set(feed.map((f) => f.bill_id))) held.set(id, await wholeBill(id));
      expect(held.size).toBe(final.size);
      for (const [id, bill] of final) expect(held.get(id), `bill ${id}`).toEqual(bill);
    }
    // the writers did move things between the snapshots
    expect(snaps[0].cursor < snaps[2].cursor).toBe(true);
    expect((await feedAfter(snaps[0].cursor)).length).toBeGreaterThan((await feedAfter(snaps[2].cursor)).length);
  }, 300_000);
});
