// The read pools of a server (issue 25): expensive reads (text search, substring filters, deep
// offsets) run on a small pool of their own (EXPENSIVE_READ_POOL_SIZE), so however many tenants
// search at once, cheap reads still find a free connection; and no read statement uses parallel
// workers unless READ_PARALLEL_WORKERS says so (one search would otherwise take every core of a
// small database server). A search is made slow on purpose by holding a lock on bills from another
// connection: it then waits in PostgreSQL, holding its connection, as long as we like.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { openDatabase } from '../../src/db/open.js';
import { createKey } from '../../src/keys/store.js';
import { createLogger } from '../../src/logger.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { lockTable, SEARCH_SQL, waitingOnLock } from '../helpers/locks.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

describe('expensive reads on their own pool', () => {
  it('with the expensive pool busy, the other searches wait their turn and cheap reads of every key still answer', async () => {
    // read pool of 2 connections, expensive pool of 1: three tenants' searches would fill the read pool
    const config = testConfig({
      databaseUrl: db.url,
      redisUrl: undefined,
      expensiveReadPoolSize: 1,
      expensiveReadsPerKey: 1,
      // the held lock, not the read statement timeout (5 s), decides how long a search waits: on a
      // busy machine the steps below took longer than that, the waiting search was cancelled and
      // the check found none waiting
      readStatementTimeoutMs: 0,
    });
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    const app = await buildTestApp(config, {
      db: opened.pool,
      dbRead: opened.readPool,
      dbExpensive: opened.expensivePool,
      dbStream: opened.streamPool,
      logger: false,
      databaseUrl: db.url,
    });
    const keys = await Promise.all(
      [1, 2, 3, 4].map(
        async (i) => (await createKey(db.pool, { org: `tenant-${i}`, tier: 'enterprise', burst: 1000 })).api_key,
      ),
    );
    const get = (url: string, key: string) => app.inject({ url, headers: { 'x-api-key': key } });
    expect(opened.expensivePool).not.toBe(opened.readPool);
    const release = await lockTable(db.pool, 'bills');
    let searches: Promise<{ statusCode: number }>[] = [];
    try {
      searches = [
        get('/v1/bills?q=school', keys[0]),
        get('/v1/bills?title_contains=tax', keys[1]),
        get('/v1/bills?offset=5000', keys[2]),
      ];
      await waitFor(
        'one search running on the expensive pool',
        async () => (await waitingOnLock(db.pool, SEARCH_SQL))['lds-read-expensive'] === 1,
      );
      // A fourth tenant's cheap read (of a table not locked): the read pool is free (before, the
      // searches held both of its connections and it waited behind them).
      expect((await get('/v1/states', keys[3])).statusCode).toBe(200);
      // still one: the others queue for the expensive pool, not in PostgreSQL
      expect(await waitingOnLock(db.pool, SEARCH_SQL)).toEqual({ 'lds-read-expensive': 1 });
    } finally {
      await release();
    }
    expect((await Promise.all(searches)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    await app.close();
    await opened.close();
  });

  it('EXPENSIVE_READ_POOL_SIZE=0 runs them on the read pool', async () => {
    const config = testConfig({
      databaseUrl: db.url,
      redisUrl: undefined,
      expensiveReadPoolSize: 0,
      streamReplayPoolSize: 0,
    });
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    expect(opened.expensivePool).toBe(opened.readPool);
    expect(opened.streamPool).toBe(opened.readPool);
    await opened.close();
  });
});

describe('parallel query of the read pools', () => {
  const workers = async (p: pg.Pool) =>
    (await p.query('SHOW max_parallel_workers_per_gather')).rows[0].max_parallel_workers_per_gather as string;

  it('is off by default on every read pool and left to the server on the primary', async () => {
    const config = testConfig({ databaseUrl: db.url, redisUrl: undefined });
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    try {
      expect([
        await workers(opened.readPool),
        await workers(opened.expensivePool),
        await workers(opened.streamPool),
      ]).toEqual(['0', '0', '0']);
      expect(await workers(opened.pool)).toBe(await workers(db.pool));
    } finally {
      await opened.close();
    }
  });

  it('READ_PARALLEL_WORKERS sets it', async () => {
    const config = testConfig({ databaseUrl: db.url, redisUrl: undefined, readParallelWorkers: 1 });
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    try {
      expect([
        await workers(opened.readPool),
        await workers(opened.expensivePool),
        await workers(opened.streamPool),
      ]).toEqual(['1', '1', '1']);
    } finally {
      await opened.close();
    }
  });
});
