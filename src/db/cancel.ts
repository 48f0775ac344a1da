// Statements PostgreSQL stops when the client that asked for them has gone: a search keeps running
// on the server after `curl -m 1` gives up unless someone cancels it, holding a connection and CPU
// for nobody. The cancel goes through PostgreSQL's own CancelRequest on a fresh socket, so it needs
// no connection of the pool (which may be the very thing that is exhausted).
import pg from 'pg';
import type { Pool, PoolClient, Queryable } from './pool.js';

interface Wire {
  connection: {
    connect(port: number | string, host?: string): void;
    on(ev: string, fn: (...a: unknown[]) => void): void;
    cancel(pid: number, secret: number): void;
    end(): void;
  };
  host: string;
  port: number;
}

function sendCancel(pool: Pool, client: PoolClient): void {
  const { processID, secretKey } = client as unknown as { processID: number; secretKey: number };
  // A throwaway client only for its parsed host and port and its protocol connection: it never logs in.
  const wire = new pg.Client(pool.options) as unknown as Wire;
  const con = wire.connection;
  con.on('error', () => undefined);
  con.on('connect', () => con.cancel(processID, secretKey));
  if (wire.host?.startsWith('/')) con.connect(`${wire.host}/.s.PGSQL.${wire.port}`);
  else con.connect(wire.port, wire.host);
}

/**
 * A Queryable over `pool` whose running statement is cancelled when `signal` aborts (and whose
 * statements' run time is added to `spent`, when given). A connection
 * a cancel was sent for is discarded rather than returned to the pool: the CancelRequest is
 * asynchronous and could otherwise reach the next statement run on that connection.
 */
export function cancellable(pool: Pool, signal: AbortSignal, spent?: { ms: number }): Queryable {
  const query = async (sql: string, params?: unknown[]) => {
    signal.throwIfAborted();
    const client = await pool.connect();
    // the statements' own time, not the wait for a connection (other keys' reads may hold them)
    const started = performance.now();
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      sendCancel(pool, client);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      signal.throwIfAborted();
      return await client.query(sql, params);
    } finally {
      if (spent) spent.ms += performance.now() - started;
      signal.removeEventListener('abort', onAbort);
      client.release(cancelled);
    }
  };
  return { query } as unknown as Queryable;
}
