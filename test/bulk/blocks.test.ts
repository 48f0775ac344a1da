// Bulk files in blocks: each session's bills are cut into blocks that tile its bill ids, and a
// build renders again only the blocks whose bills changed (a bill row that moved, or a change in
// the log that moved none), leaving the others' files as they are; what it publishes equals a
// whole build of the same database, record for record and row for row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshots } from '../../src/bulk/build.js';
import { currentFiles, type StoredFile } from '../../src/bulk/store.js';
import { recordChanges } from '../../src/changes/record.js';
import { withTransaction } from '../../src/db/pool.js';
import { simulate } from '../../src/demo/simulate/run.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, parseCsv, parseNdjsonGz, readZip, silent, type BulkEnv } from './env.js';

let env: BulkEnv;
let state: { state_id: number; state_abbr: string; session_id: number };
beforeAll(async () => {
  env = await bulkEnv(400);
  // the session with the most bills, and its jurisdiction
  state = (
    await env.db.pool.query<{ state_id: number; state_abbr: string; session_id: number }>(
      `SELECT s.state_id, s.state_abbr::text AS state_abbr, b.session_id FROM states s JOIN bills b USING (state_id)
       GROUP BY s.state_id, b.session_id ORDER BY count(*) DESC, b.session_id LIMIT 1`,
    )
  ).rows[0];
}, 180_000);
afterAll(async () => env?.close());

const BLOCK = 3;
const build = (force = false) => buildSnapshots(env.db.pool, silent, { blockBills: BLOCK, force });
const blocksOf = async (scope: string): Promise<StoredFile[]> =>
  (await currentFiles(env.db.pool)).filter((f) => f.scope === scope && f.format === 'ndjson' && f.bill_from >= 0);
const bills = async () =>
  (
    await env.db.pool.query<{ bill_id: number; session_id: number }>(
      'SELECT bill_id, session_id FROM bills WHERE state_id = $1 ORDER BY bill_id',
      [state.state_id],
    )
  ).rows;
const inBlock = (b: StoredFile, bill: { bill_id: number; session_id: number }) =>
  bill.session_id === b.session_id && bill.bill_id > b.bill_from && (b.bill_to === null || bill.bill_id <= b.bill_to);
const stamped = () =>
  waitFor(
    'the relay to stamp every change',
    async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
  );

/** The `all` downloads as records by type and CSV rows by table, each sorted (block cuts order them differently). */
async function published() {
  const ndjson = parseNdjsonGz((await env.get('/v1/bulk/all.ndjson.gz')).raw);
  const records = Object.fromEntries(
    Object.entries(ndjson.byType).map(([t, rs]) => [t, rs.map((r) => JSON.stringify(r)).sort()]),
  );
  const zip = await readZip((await env.get('/v1/bulk/all.csv.zip')).raw);
  const tables = Object.fromEntries(
    [...zip].map(([name, buf]) => {
      const { header, rows } = parseCsv(buf);
      return [name, { header, rows: rows.map((r) => JSON.stringify(r)).sort() }];
    }),
  );
  return { records, tables, bills: ndjson.byType.bill };
}

/**
 * Each session's blocks tile its bill ids: from 0, each from where the one before ended, the last
 * open; each holds the bills in its range, at most twice BLOCK; every bill is in one.
 */
async function expectTiling(blocks: StoredFile[]) {
  const all = await bills();
  for (const session of new Set(all.map((b) => b.session_id))) {
    const own = blocks.filter((b) => b.session_id === session);
    expect(own[0].bill_from).toBe(0);
    for (let i = 1; i < own.length; i++) expect(own[i].bill_from).toBe(own[i - 1].bill_to);
    expect(own[own.length - 1].bill_to).toBeNull();
  }
  expect(blocks.reduce((n, b) => n + (b.counts.bills ?? 0), 0)).toBe(all.length);
  for (const b of blocks) {
    expect(b.counts.bills ?? 0).toBe(all.filter((bill) => inBlock(b, bill)).length);
    expect(b.counts.bills ?? 0).toBeLessThanOrEqual(2 * BLOCK);
  }
}

describe('bulk files in blocks', () => {
  it('renders again only the blocks whose bills changed, and publishes what a whole build does', async () => {
    await build(true);
    const before = await blocksOf(state.state_abbr);
    await expectTiling(before);
    const session = before.filter((b) => b.session_id === state.session_id);
    expect(session.length).toBeGreaterThanOrEqual(3);

    // a bill row that moved, with nothing in the change log
    const [{ bill_id: edited }] = (await bills()).filter((b) => inBlock(session[1], b));
    await env.db.pool.query(`UPDATE bills SET title = title || ' (as amended)' WHERE bill_id = $1`, [edited]);
    // a part added and logged, the bill row untouched
    const [{ bill_id: logged }] = (await bills()).filter((b) => inBlock(session[session.length - 1], b));
    await withTransaction(env.db.pool, async (c) => {
      await c.query(
        `INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major)
         SELECT $1, coalesce(max(history_step), 0) + 1, current_date, 'Read a third time', b.body_id, 0
         FROM bills b LEFT JOIN bill_history h USING (bill_id) WHERE b.bill_id = $1 GROUP BY b.body_id`,
        [logged],
      );
      await recordChanges(c, [{ bill_id: logged, state_id: state.state_id, reason: 'StatusChange' }]);
    });
    await stamped();

    const r = await build();
    expect(r.built).toEqual([state.state_abbr]);
    expect(r.blocks).toBe(2);
    const after = await blocksOf(state.state_abbr);
    const touched = [edited, logged].map((id) => ({ bill_id: id, session_id: state.session_id }));
    for (const b of before) {
      const now = after.find((a) => a.session_id === b.session_id && a.bill_from === b.bill_from)!;
      expect(now.file_id !== b.file_id, `block ${b.session_id}:${b.bill_from}`).toBe(
        touched.some((t) => inBlock(b, t)),
      );
    }
    await expectTiling(after);
    const incremental = await published();
    const bill = (id: number) => incremental.bills.find((b) => b.bill_id === id)!;
    expect(bill(edited).title).toMatch(/ \(as amended\)$/);
    expect(bill(logged).history.at(-1).history_action).toBe('Read a third time');

    // nothing changed since: nothing rendered
    expect(await build()).toMatchObject({ built: [], blocks: 0 });
    await build(true);
    expect(await published()).toEqual(incremental);
  }, 240_000);

  it('gives a new session its blocks and cuts one that grew past twice its size, still publishing what a whole build does', async () => {
    await build(true);
    // the simulator adds its new bills to the jurisdiction's latest session
    const latest = (
      await env.db.pool.query<{ session_id: number }>(
        'SELECT session_id FROM sessions WHERE state_id = $1 ORDER BY year_start DESC, session_id DESC LIMIT 1',
        [state.state_id],
      )
    ).rows[0].session_id;
    const lastBefore = (await blocksOf(state.state_abbr)).filter((b) => b.session_id === latest).at(-1);
    const grown = async () =>
      (await bills()).filter((b) => b.session_id === latest && (!lastBefore || inBlock(lastBefore, b))).length;
    while ((await grown()) <= 2 * BLOCK)
      await simulate(env.db.pool, { rate: 1000, count: 20, states: [state.state_abbr] });
    await stamped();

    const r = await build();
    expect(r.built).toContain(state.state_abbr);
    const after = await blocksOf(state.state_abbr);
    const latestAfter = after.filter((b) => b.session_id === latest && b.bill_from >= (lastBefore?.bill_from ?? 0));
    expect(latestAfter.length).toBeGreaterThan(1);
    await expectTiling(after);
    const incremental = await published();
    await build(true);
    expect(await published()).toEqual(incremental);
  }, 240_000);
});
