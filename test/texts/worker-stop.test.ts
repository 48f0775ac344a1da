// The diff worker stops between pairs: a shutdown must not wait for a queue that a fresh demo corpus
// or an import fills with thousands of pairs (found by hand: SIGTERM took 15 s after a seed, and the
// whole 45 s deadline on a server holding imported data). The same in a real process:
// test/texts/shutdown.test.ts.
import { describe, expect, it } from 'vitest';
import { processQueue } from '../../src/texts/store.js';
import { discoverNewTexts, runDiffRound } from '../../src/texts/worker.js';
import { F } from '../helpers/fixtures.js';
import { useFixtureApp } from '../api/helpers.js';

describe('diff worker shutdown', () => {
  const r = useFixtureApp();
  const queueSize = async () =>
    (await r.t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM text_diff_queue')).rows[0]!.n;

  it('a stopped round does nothing; a stop between pairs keeps what was computed and leaves the rest queued', async () => {
    const pool = r.t.db.pool;
    const versions = 46; // 45 consecutive pairs: more than two batches of 20
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content)
       SELECT 5000 + g, $1, 1, date '2025-01-01' + g, 'SECTION 1. Version ' || g || E'.\\n'
       FROM generate_series(1, $2) g`,
      [F.bills.sb25, versions],
    );

    expect(await runDiffRound(pool, () => true)).toEqual({ queued: 0, computed: 0 });
    expect(await discoverNewTexts(pool)).toBeGreaterThanOrEqual(versions - 1);
    expect(await queueSize()).toBeGreaterThanOrEqual(versions - 1);

    let asked = 0;
    const computed = await processQueue(pool, { stopped: () => asked++ >= 3 });
    expect(computed).toBe(3);
    const left = await queueSize();
    expect(left).toBeGreaterThanOrEqual(versions - 4);
    expect((await pool.query('SELECT 1 FROM text_diff_queue WHERE attempts > 0')).rowCount).toBe(0);

    await runDiffRound(pool);
    expect(await queueSize()).toBe(0);
  });

  it('discovery keeps its cursor to the microsecond: 1,100 texts stamped by one statement are read once', async () => {
    const pool = r.t.db.pool;
    // An import stamps every text of a transaction with one time (microseconds). Older than the
    // late-commit window, so the cursor may pass them.
    const stamp = '2025-06-01 12:00:00.123456+00';
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content, created)
       SELECT 30000 + g, $1, 1, date '2025-01-01' + g, 'v' || g, $2::timestamptz FROM generate_series(1, 1100) g`,
      [F.bills.hb1, stamp],
    );
    await pool.query(`UPDATE text_diff_cursor SET created = '2025-06-01', text_id = 0`);
    await discoverNewTexts(pool);
    const cursor = (await pool.query('SELECT created::text AS created, text_id FROM text_diff_cursor')).rows[0];
    // Past every one of them: a cursor cut to milliseconds stayed before all 1,100 and read the same
    // 1,000 again on every round.
    const after = (
      await pool.query(
        `SELECT count(*)::int AS n FROM bill_texts WHERE text_id > 30000 AND (created, text_id) > ($1::timestamptz, $2)`,
        [cursor.created, cursor.text_id],
      )
    ).rows[0].n;
    expect(after).toBe(0);
  });
});
