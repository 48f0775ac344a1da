// The CPU priority of the side pools' backends (LOW_PRIORITY_NICE): when PostgreSQL runs on this
// machine, the backends of the expensive-read and stream-replay pools run at a higher nice value
// than the read pool's, so one tenant's heavy searches and catch-ups take only the CPU the cheap
// reads leave. Only a process that is provably this connection's backend is touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import type { Pool } from '../../src/db/pool.js';
import { autogroupNiceOf, autogroupScheduling, localBackendPid, niceOf } from '../../src/db/backend-priority.js';
import { createLogger } from '../../src/logger.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { testConfig } from '../helpers/app.js';

let db: TestDatabase;
/** whether the run's PostgreSQL is on this machine (a remote DATABASE_URL cannot be observed, nor lowered) */
let local = false;
beforeAll(async () => {
  db = await freshDatabase();
  const client = await db.pool.connect();
  local = (await localBackendPid(client)) !== undefined;
  client.release();
});
afterAll(async () => db?.drop());

/**
 * The nice value of the backend that serves one connection of `pool`; under autogroup scheduling
 * its session's must be the same (a backend's own nice value alone changes nothing there).
 */
async function backendNice(pool: Pool): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const nice = await niceOf(rows[0].pid);
  if (await autogroupScheduling()) expect(await autogroupNiceOf(rows[0].pid)).toBe(nice);
  return nice;
}

describe('side pools run at a lower CPU priority', () => {
  it('by default the expensive-read and stream-replay backends run at nice 19, the read pool at 0', async (ctx) => {
    if (!local) ctx.skip('the test database is not on this machine');
    const config = testConfig({ databaseUrl: db.url, redisUrl: undefined });
    expect(config.lowPriorityNice).toBe(19);
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    try {
      expect(await backendNice(opened.expensivePool)).toBe(19);
      expect(await backendNice(opened.streamPool)).toBe(19);
      expect(await backendNice(opened.readPool)).toBe(0);
      expect(await backendNice(opened.pool)).toBe(0);
    } finally {
      await opened.close();
    }
  });

  it('LOW_PRIORITY_NICE sets the value, and 0 leaves them as the server runs them', async (ctx) => {
    if (!local) ctx.skip('the test database is not on this machine');
    for (const nice of [7, 0]) {
      const config = testConfig({ databaseUrl: db.url, redisUrl: undefined, lowPriorityNice: nice });
      const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
      try {
        expect(await backendNice(opened.expensivePool)).toBe(nice);
        expect(await backendNice(opened.streamPool)).toBe(nice);
      } finally {
        await opened.close();
      }
    }
  });

  it('finds the backend of a connection by its address and port, and no other process', async (ctx) => {
    if (!local) ctx.skip('the test database is not on this machine');
    const client = await db.pool.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(await localBackendPid(client)).toBe(rows[0].pid);
      // another connection's backend (a live postgres process, but not this socket's) is refused
      const other = await db.pool.connect();
      try {
        const internals = client as unknown as { processID: number };
        const own = internals.processID;
        internals.processID = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        expect(await localBackendPid(client)).toBeUndefined();
        // this Node process: not a postgres backend at all
        internals.processID = process.pid;
        expect(await localBackendPid(client)).toBeUndefined();
        internals.processID = own;
      } finally {
        other.release();
      }
    } finally {
      client.release();
    }
  });
});
