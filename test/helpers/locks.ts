// Holding a table locked so statements queue behind it, and counting who waits: how the tests of
// read pools, search slots and stream catch-ups make PostgreSQL slow on purpose.
import type { Pool } from '../../src/db/pool.js';

/** Holds an ACCESS EXCLUSIVE lock on `table` until the returned function releases it. */
export async function lockTable(pool: Pool, table: string): Promise<() => Promise<void>> {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return async () => {
    await client.query('ROLLBACK');
    client.release();
  };
}

/** Statements waiting for a lock whose text contains `like`, counted by application_name (the pool they run on). */
export async function waitingOnLock(pool: Pool, like: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ app: string; n: number }>(
    `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock' AND query LIKE $1
      GROUP BY 1`,
    [`%${like}%`],
  );
  return Object.fromEntries(rows.map((r) => [r.app, r.n]));
}

/** A bill search's statement (the page cut ordered by updated). */
export const SEARCH_SQL = 'ORDER BY b.updated DESC';

/** How many statements wait for a lock whose text contains `like`, whatever their pool. */
export async function countWaiting(pool: Pool, like: string): Promise<number> {
  return Object.values(await waitingOnLock(pool, like)).reduce((a, b) => a + b, 0);
}
