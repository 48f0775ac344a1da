// A lane's reading client prepares each statement once per connection (lanes.ts `preparing`): a
// build runs the same statements for every batch of bills, and parsing and planning them each time
// was about a fifth of their time in PostgreSQL.
import { describe, expect, it } from 'vitest';
import { preparing } from '../../src/bulk/lanes.js';
import { freshDatabase } from '../helpers/db.js';

describe('preparing', () => {
  it('runs each statement text as one prepared statement of the connection, with its parameters', async () => {
    const db = await freshDatabase(2);
    const client = await db.pool.connect();
    try {
      const q = preparing(client);
      const sql = 'SELECT $1::int + 1 AS n';
      const results = [];
      for (const v of [1, 2, 3]) results.push((await q.query<{ n: number }>(sql, [v])).rows[0].n);
      expect(results).toEqual([2, 3, 4]);
      await q.query('SELECT $1::text AS t', ['x']);
      const { rows } = await client.query<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'lds_bulk_%' ORDER BY statement`,
      );
      expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::text AS t']);
    } finally {
      client.release();
      await db.drop();
    }
  });
});
