// RowBuffer's COPY-text rows (member votes) against a real PostgreSQL: written by COPY on a
// batch's own connection, and through the multi-row insert where COPY is not possible (a record
// that flushes the queue itself, e.g. the same roll call twice in one batch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowBuffer, type TableSpec } from '../../src/ingest/buffer.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
const SPEC: TableSpec = { types: ['int', 'bigint', 'smallint'], sql: 'INSERT INTO buf_votes (a, b, c) SELECT * FROM $COLS', copy: 'buf_votes (a, b, c)' };

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query('CREATE TABLE buf_votes (a int NOT NULL, b bigint NOT NULL, c smallint NOT NULL, PRIMARY KEY (a, b))');
});
afterAll(async () => {
  await db.drop();
});

const rows = async () => (await db.pool.query('SELECT a, b, c FROM buf_votes ORDER BY a, b')).rows;

describe('RowBuffer COPY text', () => {
  it('writes the text rows by COPY on a client, beside ordinary rows of the same table', async () => {
    await db.pool.query('TRUNCATE buf_votes');
    const buf = new RowBuffer();
    buf.addCopyText(SPEC, '1\t4294967297\t1\n1\t7\t2\n');
    buf.addCopyText(SPEC, '2\t7\t3\n');
    buf.add(SPEC, [[3, 8, 4]]);
    const client = await db.pool.connect();
    try {
      await buf.flush(client);
    } finally {
      client.release();
    }
    expect(await rows()).toEqual([{ a: 1, b: 7, c: 2 }, { a: 1, b: 4294967297, c: 1 }, { a: 2, b: 7, c: 3 }, { a: 3, b: 8, c: 4 }]);
    // Nothing is left queued after a flush.
    await buf.flush(db.pool);
    expect(await rows()).toHaveLength(4);
  });

  it('falls back to the multi-row insert where there is no connection of its own to COPY on', async () => {
    await db.pool.query('TRUNCATE buf_votes');
    const buf = new RowBuffer();
    buf.addCopyText(SPEC, '5\t9\t1\n5\t10\t4\n');
    await buf.flush(db.pool);
    expect(await rows()).toEqual([{ a: 5, b: 9, c: 1 }, { a: 5, b: 10, c: 4 }]);
  });
});
