// PostgreSQL pools. int8 (bigint, count(*)) values are parsed to numbers: every id the service
// issues stays below 2^53 (people_id and candidate id are 64-bit columns but generated within the
// safe range), so numbers serialise exactly. Dates stay strings (YYYY-MM-DD) to avoid time zones.
import pg from 'pg';

pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : (v as unknown as number);
});
pg.types.setTypeParser(1082, (v) => v); // date → 'YYYY-MM-DD'
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric → number

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export function createPool(url: string, max = 10, name = 'lds'): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: name, idleTimeoutMillis: 30000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs fn inside a transaction on one client; rolls back on error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
