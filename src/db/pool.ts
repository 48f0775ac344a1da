// PostgreSQL pools. int8 (bigint, count(*)) values are parsed to numbers: every id the service
// issues stays below 2^53 (people_id and candidate id are 64-bit columns but generated within the
// safe range), so numbers serialise exactly. Dates stay strings (YYYY-MM-DD) to avoid time zones.
import pg from 'pg';
import { DatabaseStatus } from './health.js';
import { lowerBackendPriority } from './backend-priority.js';

pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : (v as unknown as number);
});
pg.types.setTypeParser(1082, (v) => v); // date → 'YYYY-MM-DD'
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric → number

/**
 * A pool with its availability status (db/health.ts): the status belongs to the pool it watches,
 * so whoever holds the pool reaches it (`pool.status`) without a lookup table on the side.
 */
export class Pool extends pg.Pool {
  readonly status: DatabaseStatus = new DatabaseStatus(this);
}

export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export interface PoolOptions {
  /** PostgreSQL cancels a statement of this pool that runs longer (0 or unset: no limit) */
  statementTimeoutMs?: number;
  /** max_parallel_workers_per_gather of this pool's sessions (unset: the server's setting) */
  parallelWorkers?: number;
  /**
   * nice value of this pool's backends when PostgreSQL runs on this machine (backend-priority.ts);
   * unset or 0: left as the server runs them
   */
  backendNice?: number;
}

export function createPool(url: string, max = 10, name = 'lds', opts: PoolOptions = {}): Pool {
  // statement_timeout travels in the startup packet: PostgreSQL itself cancels a statement that
  // runs longer (SQLSTATE 57014), whatever the client does meanwhile.
  const timeout = opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {};
  // Session settings in the startup packet too (libpq's `options`), so no statement of the pool
  // ever runs without them and no round trip is spent setting them.
  const options =
    opts.parallelWorkers !== undefined ? { options: `-c max_parallel_workers_per_gather=${opts.parallelWorkers}` } : {};
  // Before the client is handed out, so its first statement already runs at that priority.
  const nice = opts.backendNice ?? 0;
  const onConnect = nice > 0 ? { onConnect: (c: pg.ClientBase) => lowerBackendPriority(c, nice) } : {};
  const pool = new Pool({
    connectionString: url,
    max,
    application_name: name,
    idleTimeoutMillis: 30000,
    ...timeout,
    ...options,
    ...onConnect,
  });
  const status = pool.status;
  const lost = (err: Error) => status.failed(err);
  // A client losing its connection (database restart) must not crash the process. pg-pool listens
  // for `error` only while a client is idle and removes that listener on checkout, so a client held
  // by a transaction, the relay or the dispatcher would emit an unhandled `error` (and kill the
  // process) if the server went away mid-use. Every client gets its own listener for its whole
  // life; the query it was running fails with the same error and its holder handles that.
  pool.on('error', lost);
  pool.on('connect', (client) => {
    client.on('error', lost);
    // a connection just succeeded: the database is back, so the next failure is a new outage
    status.reachable();
  });
  return pool;
}

/** Runs fn inside a transaction on one client of the pool; rolls back on error. */
export async function withTransaction<T>(pool: Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await inTransaction(client, fn);
  } finally {
    client.release();
  }
}

/**
 * Runs fn inside a transaction on a client the caller holds (and releases): for work that keeps
 * session state across transactions on one connection, such as a session advisory lock.
 */
export async function inTransaction<C extends Pick<pg.PoolClient, 'query'>, T>(
  client: C,
  fn: (client: C) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
