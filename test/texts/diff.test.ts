// Text changes: the pure computation, the worker's discovery and queue, and /changes + /diff.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeTextChange, MAX_DIFF_BYTES } from '../../src/texts/diff.js';
import { runDiffRound, startDiffWorker } from '../../src/texts/worker.js';
import { computePair } from '../../src/texts/store.js';
import { F, TEXT_V1, TEXT_V2 } from '../helpers/fixtures.js';
import { keys, sorted, useFixtureApp } from '../api/helpers.js';
import { createLogger } from '../../src/logger.js';
import { waitFor } from '../helpers/wait.js';

const labels = { from: 'a', to: 'b' };

describe('computeTextChange', () => {
  it('counts added and removed lines and characters, sections and highlights', () => {
    const s = computeTextChange(TEXT_V1, TEXT_V2, labels);
    expect(s.removed_lines).toBe(1);
    expect(s.added_lines).toBe(3);
    expect(s.removed_chars).toBe('The state shall fund schools.\n'.length);
    expect(s.added_chars).toBe(
      'The state shall fully fund public schools.\nSECTION 3. Effective date.\nThis act takes effect September 1, 2026.\n'
        .length,
    );
    expect(s.changed_sections).toEqual(['SECTION 2', 'SECTION 3']);
    expect(s.highlights[0]).toEqual({ op: 'removed', text: 'The state shall fund schools.' });
    expect(s.highlights[1].op).toBe('added');
    expect(s.is_whitespace_only).toBe(false);
    expect(s.similarity).toBeGreaterThan(0.3);
    expect(s.similarity).toBeLessThan(1);
    expect(s.diff_unified).toContain('-The state shall fund schools.');
    expect(s.diff_unified).toContain('+SECTION 3. Effective date.');
    expect(s.diff_truncated).toBe(false);
  });

  it('flags whitespace-only changes and identical texts', () => {
    expect(computeTextChange('a b\nc', 'a  b\nc  ', labels).is_whitespace_only).toBe(true);
    const same = computeTextChange('x\n', 'x\n', labels);
    expect(same).toMatchObject({ is_whitespace_only: true, similarity: 1, added_lines: 0, removed_lines: 0 });
    expect(computeTextChange('', '', labels).similarity).toBe(1);
  });

  it('truncates a huge unified diff at 200 KB', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the bill text`).join('\n');
    const s = computeTextChange('', big, labels);
    expect(s.diff_truncated).toBe(true);
    expect(Buffer.byteLength(s.diff_unified)).toBeLessThanOrEqual(MAX_DIFF_BYTES + 100);
    expect(s.added_lines).toBe(20_000);
  });

  it('keeps invariants for any pair of texts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (a, b) => {
        const s = computeTextChange(a, b, labels);
        expect(s.similarity).toBeGreaterThanOrEqual(0);
        expect(s.similarity).toBeLessThanOrEqual(1);
        expect(s.added_chars).toBeGreaterThanOrEqual(0);
        expect(s.removed_chars).toBeGreaterThanOrEqual(0);
        if (a === b) expect(s.added_lines + s.removed_lines).toBe(0);
        expect(s.is_whitespace_only).toBe(a.replace(/\s+/g, '') === b.replace(/\s+/g, ''));
      }),
      { numRuns: 200 },
    );
  });
});

const CHANGE_FIELDS = sorted([
  'from_text_id',
  'to_text_id',
  'from_type_id',
  'to_type_id',
  'from_created',
  'to_created',
  'added_chars',
  'removed_chars',
  'added_lines',
  'removed_lines',
  'similarity',
  'is_whitespace_only',
  'changed_sections',
  'highlights',
  'diff_truncated',
  'computed_at',
]);

describe('/changes and /diff', () => {
  const r = useFixtureApp();
  const T = F.texts;
  const hb1 = F.bills.hb1;

  it('a pair not computed yet is 404 diff_not_computed, queued, and served after the worker runs', async () => {
    expect((await r.get(`/v1/bills/${hb1}/changes`)).body).toEqual({ data: [], summary: { bill_id: hb1, count: 0 } });
    const miss = await r.get(`/v1/bills/${hb1}/diff?from=${T.v1}&to=${T.v3}`);
    expect(miss.status).toBe(404);
    expect(miss.body.error.code).toBe('diff_not_computed');
    const queued = await r.t.db.pool.query(
      'SELECT bill_id FROM text_diff_queue WHERE from_text_id = $1 AND to_text_id = $2',
      [T.v1, T.v3],
    );
    expect(queued.rows).toEqual([{ bill_id: hb1 }]);

    const round = await runDiffRound(r.t.db.pool);
    expect(round.computed).toBe(3); // two consecutive pairs discovered + the queued (v1, v3)
    const hit = await r.get(`/v1/bills/${hb1}/diff?from=${T.v1}&to=${T.v3}`);
    expect(hit.status).toBe(200);
    expect(keys(hit.body.data)).toEqual(sorted([...CHANGE_FIELDS, 'bill_id', 'diff_unified']));
    expect(hit.body.data.diff_unified).toContain('+SECTION 3. Effective date.');
    expect((await r.t.db.pool.query('SELECT count(*)::int AS n FROM text_diff_queue')).rows[0].n).toBe(0);
  });

  it('/changes lists consecutive pairs oldest first and hides whitespace-only ones unless include_whitespace=1', async () => {
    const def = await r.get(`/v1/bills/${hb1}/changes`);
    expect(def.status).toBe(200);
    expect(def.body.summary).toEqual({ bill_id: hb1, count: 1 });
    const c = def.body.data[0];
    expect(keys(c)).toEqual(CHANGE_FIELDS);
    expect(c).toMatchObject({
      from_text_id: T.v1,
      to_text_id: T.v2,
      from_type_id: 1,
      to_type_id: 2,
      from_created: '2025-11-01T12:00:00.000Z',
      to_created: '2026-02-01T12:00:00.000Z',
      removed_lines: 1,
      added_lines: 3,
      is_whitespace_only: false,
      diff_truncated: false,
      changed_sections: ['SECTION 2', 'SECTION 3'],
    });
    expect(typeof c.similarity).toBe('number');
    expect(c.computed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const all = await r.get(`/v1/bills/${hb1}/changes?include_whitespace=1`);
    expect(all.body.data.map((x: any) => [x.from_text_id, x.to_text_id])).toEqual([
      [T.v1, T.v2],
      [T.v2, T.v3],
    ]);
    expect(all.body.data[1].is_whitespace_only).toBe(true);
    expect(all.body.summary.count).toBe(2);
    expect((await r.get(`/v1/bills/${hb1}/changes?include_whitespace=true`)).body.summary.count).toBe(1);
  });

  it('/diff validates from and to', async () => {
    for (const q of [
      '',
      `from=${T.v1}`,
      `to=${T.v2}`,
      `from=x&to=${T.v2}`,
      `from=${T.v1}&to=1.5`,
      `from=-1&to=${T.v2}`,
    ]) {
      const res = await r.get(`/v1/bills/${hb1}/diff?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    const foreign = await r.get(`/v1/bills/${F.bills.sb25}/diff?from=${T.v1}&to=${T.v2}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await r.get(`/v1/bills/${hb1}/diff?from=${T.v1}&to=999999`)).body.error.code).toBe('not_found');
    expect((await r.get(`/v1/bills/424242/diff?from=${T.v1}&to=${T.v2}`)).body.error.code).toBe('not_found');
    expect((await r.get('/v1/bills/424242/changes')).status).toBe(404);
  });

  it('the running worker computes changes for a text version added later, with no manual step', async () => {
    const pool = r.t.db.pool;
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content) VALUES
      (211, $1, 1, '2026-01-01', 'SECTION 1. Storage.\nA person shall store a firearm safely.\n')`,
      [F.bills.sb25],
    );
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content) VALUES
      (212, $1, 5, '2026-03-01', 'SECTION 1. Storage.\nA person shall store a firearm in a locked container.\n')`,
      [F.bills.sb25],
    );
    const worker = await startDiffWorker({ db: pool, log: createLogger('silent') }, { pollMs: 50 });
    try {
      let body: any;
      await waitFor('the diff worker to compute the pair', async () => {
        body = (await r.get(`/v1/bills/${F.bills.sb25}/changes`)).body;
        return body.summary.count > 0;
      });
      expect(body.data.map((x: any) => [x.from_text_id, x.to_text_id])).toEqual([[211, 212]]);
      expect(body.data[0].changed_sections).toEqual(['SECTION 1']);
    } finally {
      await worker.stop();
    }
  });

  it('computePair recomputes in place and refuses texts of different bills', async () => {
    const pool = r.t.db.pool;
    expect(await computePair(pool, T.v1, T.v2)).toBe(true);
    expect(
      (
        await pool.query('SELECT count(*)::int AS n FROM text_changes WHERE from_text_id = $1 AND to_text_id = $2', [
          T.v1,
          T.v2,
        ])
      ).rows[0].n,
    ).toBe(1);
    expect(await computePair(pool, T.v1, 211)).toBe(false);
  });
  it('versions listed without their document are never compared: /diff says so, /changes leaves them out, a stale result is removed', async () => {
    const pool = r.t.db.pool;
    await pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content) VALUES
      (221, $1, 1, '2026-04-01', NULL), (222, $1, 5, '2026-05-01', NULL)`,
      [F.bills.sb25],
    );
    const res = await r.get(`/v1/bills/${F.bills.sb25}/diff?from=222&to=221`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', reason: 'document_absent', absent_text_ids: [221, 222] });
    expect(res.body.error.message).toMatch(/not available/);
    // Neither the worker's discovery nor a direct computation stores "identical" for them.
    await runDiffRound(pool);
    expect(await computePair(pool, 221, 222)).toBe(false);
    expect(await computePair(pool, 212, 221)).toBe(false);
    expect(
      (
        await pool.query(
          'SELECT count(*)::int AS n FROM text_changes WHERE 221 IN (from_text_id, to_text_id) OR 222 IN (from_text_id, to_text_id)',
        )
      ).rows[0].n,
    ).toBe(0);
    const all = await r.get(`/v1/bills/${F.bills.sb25}/changes?include_whitespace=1`);
    expect(all.body.data.map((x: any) => [x.from_text_id, x.to_text_id])).toEqual([[211, 212]]);
    // One document present, the other absent: still nothing to compare.
    const half = await r.get(`/v1/bills/${F.bills.sb25}/diff?from=212&to=221`);
    expect(half.body.error).toMatchObject({ code: 'not_found', reason: 'document_absent', absent_text_ids: [221] });
  });
});
