// The pipelined writer (two batches in flight on two connections) against a real PostgreSQL:
// batches reach the database in the order records were handed over, counts are exact, and a
// batch that fails at commit is replayed record by record, the one that follows it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../src/ingest/write/buffer.js';
import { PipelinedWriter } from '../../src/ingest/write/pipeline.js';
import { ImportReport } from '../../src/ingest/write/report.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;

// Rows are queued (written when their batch commits) with a serial: its order is the commit order.
const ROWS: TableSpec = {
  types: ['int', 'int'],
  sql: 'INSERT INTO pipe_rows (id, v) SELECT * FROM $COLS',
  copy: 'pipe_rows (id, v)',
};

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(
    'CREATE TABLE pipe_rows (seq serial PRIMARY KEY, id int NOT NULL UNIQUE, v int NOT NULL CHECK (v > 0))',
  );
});
afterAll(async () => {
  await db.drop();
});

async function load(values: number[], size: number, resets: { n: number }) {
  await db.pool.query('TRUNCATE pipe_rows RESTART IDENTITY');
  const report = new ImportReport('test');
  const w = new PipelinedWriter(db.pool, report, size, () => resets.n++);
  try {
    for (const [i, v] of values.entries()) {
      await w.run('rows', `row${i + 1}`, async (_db, batch) => {
        batch.buffer.add(ROWS, [[i + 1, v]]);
        return 'inserted';
      });
    }
  } finally {
    await w.close();
  }
  const rows = (await db.pool.query<{ id: number }>('SELECT id FROM pipe_rows ORDER BY seq')).rows.map((r) => r.id);
  return { report, rows };
}

describe('PipelinedWriter', () => {
  it('is used for pools that can spare two connections', () => {
    expect(PipelinedWriter.fits(db.pool)).toBe(true);
  });

  it('commits batches in the order their records were handed over, counting each record once', async () => {
    const resets = { n: 0 };
    const { report, rows } = await load([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2, resets);
    expect(rows).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(report.get('rows')).toMatchObject({ inserted: 11, errors: 0 });
    expect(report.problems).toEqual([]);
    expect(resets.n).toBe(0);
  });

  it('replays a batch that fails at commit, and the batch after it, reporting only the bad record', async () => {
    const resets = { n: 0 };
    // Record 4 breaks the CHECK when its batch (3, 4) commits; batch (5, 6) was built meanwhile.
    const { report, rows } = await load([1, 1, 1, 0, 1, 1, 1], 2, resets);
    expect(rows).toEqual([1, 2, 3, 5, 6, 7]);
    expect(report.get('rows')).toMatchObject({ inserted: 6, errors: 1 });
    expect(report.problems.map((p) => p.file)).toEqual(['row4']);
    // Both the failing batch and the one that followed it reset the callers' caches.
    expect(resets.n).toBe(2);
  });
});
