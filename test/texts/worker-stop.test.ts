// The diff worker stops after the batch in progress: a shutdown must not wait for a queue that a
// fresh demo corpus fills with thousands of pairs (found by hand: SIGTERM took 15 s after a seed).
import { describe, expect, it } from 'vitest';
import { runDiffRound } from '../../src/texts/worker.js';
import { F } from '../helpers/fixtures.js';
import { useFixtureApp } from '../api/helpers.js';

describe('diff worker shutdown', () => {
  const r = useFixtureApp();

  it('a stopped round computes at most one batch and leaves the rest queued; the next round drains it', async () => {
    const pool = r.t.db.pool;
    const versions = 46; // 45 consecutive pairs: more than two batches of 20
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content)
       SELECT 5000 + g, $1, 1, date '2025-01-01' + g, 'SECTION 1. Version ' || g || E'.\\n'
       FROM generate_series(1, $2) g`, [F.bills.sb25, versions]);
    const queueSize = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM text_diff_queue')).rows[0]!.n;

    const first = await runDiffRound(pool, () => true);
    expect(first.queued).toBeGreaterThanOrEqual(versions - 1);
    expect(first.computed).toBe(0);
    expect(await queueSize()).toBeGreaterThanOrEqual(versions - 1);

    let batches = 0;
    const second = await runDiffRound(pool, () => batches++ >= 1);
    expect(second.computed).toBeGreaterThan(0);
    expect(second.computed).toBeLessThanOrEqual(20);
    expect(await queueSize()).toBeGreaterThan(0);

    await runDiffRound(pool);
    expect(await queueSize()).toBe(0);
  });
});
