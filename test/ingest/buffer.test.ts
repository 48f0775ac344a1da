// RowBuffer's COPY-text rows (member votes) against a real PostgreSQL: written by COPY on a
// batch's own connection, and through the multi-row insert where COPY is not possible (a record
// that flushes the queue itself, e.g. the same roll call twice in one batch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowBuffer, withCopy } from '../../src/ingest/write/buffer.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
// The COPY target comes from the INSERT's own column list (c, a, b: not the table's order).
const SPEC = withCopy({
  types: ['smallint', 'int', 'bigint'],
  sql: 'INSERT INTO buf_votes (c, a, b) SELECT * FROM $COLS ON CONFLICT DO NOTHING',
});

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(
    'CREATE TABLE buf_votes (a int NOT NULL, b bigint NOT NULL, c smallint NOT NULL, PRIMARY KEY (a, b))',
  );
});
afterAll(async () => {
  await db.drop();
});

const rows = async () => (await db.pool.query('SELECT a, b, c FROM buf_votes ORDER BY a, b')).rows;

describe('RowBuffer COPY text', () => {
  it('writes the text rows by COPY on a client, beside ordinary rows of the same table', async () => {
    await db.pool.query('TRUNCATE buf_votes');
    const buf = new RowBuffer();
    expect(SPEC.copy).toBe('buf_votes (c, a, b)');
    buf.addCopyText(SPEC, '1\t1\t4294967297\n2\t1\t7\n');
    buf.addCopyText(SPEC, '3\t2\t7\n');
    buf.add(SPEC, [[4, 3, 8]]);
    const client = await db.pool.connect();
    try {
      await buf.flush(client);
    } finally {
      client.release();
    }
    expect(await rows()).toEqual([
      { a: 1, b: 7, c: 2 },
      { a: 1, b: 4294967297, c: 1 },
      { a: 2, b: 7, c: 3 },
      { a: 3, b: 8, c: 4 },
    ]);
    // Nothing is left queued after a flush.
    await buf.flush(db.pool);
    expect(await rows()).toHaveLength(4);
  });

  it('falls back to the multi-row insert where there is no connection of its own to COPY on', async () => {
    await db.pool.query('TRUNCATE buf_votes');
    const buf = new RowBuffer();
    buf.addCopyText(SPEC, '1\t5\t9\n4\t5\t10\n');
    await buf.flush(db.pool);
    expect(await rows()).toEqual([
      { a: 5, b: 9, c: 1 },
      { a: 5, b: 10, c: 4 },
    ]);
  });

  it('refuses a spec whose INSERT names no columns to COPY into', () => {
    expect(() => withCopy({ types: ['int'], sql: 'INSERT INTO buf_votes SELECT * FROM $COLS' })).toThrow(
      /no INSERT column list/,
    );
  });
});
