// What one search may cost: bounded input, a statement timeout on the read pool (422 query_timeout),
// cancellation in PostgreSQL when the client hangs up, and a per-key cap on expensive reads running
// at once (in-process, and across replicas through Redis). A search is made slow on purpose by
// holding a lock on bills from another connection: it then waits in PostgreSQL as long as we like.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { createLogger } from '../../src/logger.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { buildTestApp, testApp, testConfig, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { countWaiting, lockTable, SEARCH_SQL } from '../helpers/locks.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

describe('search input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ db });
  });
  afterAll(async () => t?.close());
  const get = (url: string) => t.app.inject({ url, headers: { 'x-api-key': t.key } });

  it('refuses an over-long q and too many distinct terms with 400 naming q', async () => {
    for (const q of [
      'act '.repeat(1500),
      'act '.repeat(200),
      Array.from({ length: 17 }, (_, i) => `word${i}`).join(' '),
    ]) {
      const res = await get(`/v1/bills?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'bad_request', field: 'q' });
    }
  });

  it('drops repeated terms, so a short repetitive q is one cheap term', async () => {
    const res = await get(`/v1/bills?q=${encodeURIComponent('act '.repeat(60))}`);
    expect(res.statusCode).toBe(200);
    const phrases = await get(`/v1/bills?q=${encodeURIComponent('"public school" or "public school" or tax -fee')}`);
    expect(phrases.statusCode).toBe(200);
  });

  it('bounds title_contains, subject, sponsor_last_name and office to 200 characters', async () => {
    const long = encodeURIComponent('x'.repeat(201));
    for (const [path, field] of [
      ['/v1/bills', 'title_contains'],
      ['/v1/bills', 'subject'],
      ['/v1/bills', 'sponsor_last_name'],
      ['/v1/candidates', 'office'],
    ]) {
      const res = await get(`${path}?${field}=${long}`);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'bad_request', field });
      expect((await get(`${path}?${field}=${encodeURIComponent('x'.repeat(200))}`)).statusCode, field).toBe(200);
    }
  });
});

describe('statement timeout of the read pool', () => {
  it('a server reads through its own pool whose statements PostgreSQL cancels: 422 query_timeout', async () => {
    const config = testConfig({ databaseUrl: db.url, readStatementTimeoutMs: 300, redisUrl: undefined });
    const opened = await openDatabase(config, createLogger('silent'), 'server', 2);
    const app = await buildTestApp(config, {
      db: opened.pool,
      dbRead: opened.readPool,
      logger: false,
      databaseUrl: db.url,
    });
    const t = await testApp({ db });
    const release = await lockTable(db.pool, 'bills');
    try {
      expect(opened.readPool).not.toBe(opened.pool);
      expect((await opened.pool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
      const res = await app.inject({ url: '/v1/bills?q=school', headers: { 'x-api-key': t.key } });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('query_timeout');
    } finally {
      await release();
      await app.close();
      await opened.close();
      await t.close();
    }
  });
});

describe('a client that hangs up', () => {
  it('has its search cancelled in PostgreSQL', async () => {
    const t = await testApp({ db });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const release = await lockTable(db.pool, 'bills');
    try {
      const ctl = new AbortController();
      const pending = fetch(`${base}/v1/bills?q=school`, { headers: { 'x-api-key': t.key }, signal: ctl.signal }).catch(
        () => undefined,
      );
      await waitFor('the search waiting in PostgreSQL', async () => (await countWaiting(db.pool, SEARCH_SQL)) === 1);
      ctl.abort();
      await pending;
      await waitFor('the search cancelled in PostgreSQL', async () => (await countWaiting(db.pool, SEARCH_SQL)) === 0);
    } finally {
      await release();
      await t.close();
    }
  });
});

const noRedis = !process.env.REDIS_URL;
const NO_REDIS = 'skipped: the Redis cases need REDIS_URL (e.g. redis://127.0.0.1:6379)';

for (const mode of ['in-process', 'redis'] as const) {
  describe(`expensive reads per key (${mode})`, () => {
    const skip = mode === 'redis' && noRedis;
    beforeEach((ctx) => ctx.skip(skip, NO_REDIS));

    it('a key runs at most EXPENSIVE_READS_PER_KEY searches at once; others keep being served; slots come back', async () => {
      const redisUrl = mode === 'redis' ? process.env.REDIS_URL : undefined;
      // Two replicas; with Redis they share the slots of a key.
      const a = await testApp({ db, config: { expensiveReadsPerKey: 2, redisUrl } });
      const b = mode === 'redis' ? await testApp({ db, config: { expensiveReadsPerKey: 2, redisUrl } }) : a;
      const noisy = (await a.newKey({ org: `noisy-${mode}` })).api_key;
      const other = (await a.newKey({ org: `other-${mode}` })).api_key;
      const search = (t: TestApp, key: string, q = 'school') =>
        t.app.inject({ url: `/v1/bills?q=${q}`, headers: { 'x-api-key': key } });
      const release = await lockTable(db.pool, 'bills');
      let held: Promise<unknown>[] = [];
      try {
        held = [search(a, noisy), search(a, noisy)];
        await waitFor(
          'two searches of the key waiting in PostgreSQL',
          async () => (await countWaiting(db.pool, SEARCH_SQL)) === 2,
        );
        const third = await search(b, noisy, 'tax');
        expect(third.statusCode).toBe(429);
        expect(third.headers['retry-after']).toBe('1');
        expect(third.json().error).toMatchObject({ code: 'concurrency_limit_exceeded', limit: 2 });
        // Deep pages are expensive too; cheap reads of the same key are not limited.
        expect((await b.app.inject({ url: '/v1/bills?offset=5000', headers: { 'x-api-key': noisy } })).statusCode).toBe(
          429,
        );
        expect((await b.app.inject({ url: '/v1/states', headers: { 'x-api-key': noisy } })).statusCode).toBe(200);
        // Another key still gets its search through (it waits on the same lock, like the others).
        held.push(search(b, other));
        await waitFor("the other key's search running", async () => (await countWaiting(db.pool, SEARCH_SQL)) === 3);
      } finally {
        await release();
      }
      expect((await Promise.all(held)).map((r) => (r as { statusCode: number }).statusCode)).toEqual([200, 200, 200]);
      // a slot goes back when its request has answered (in Redis a moment after the answer): the
      // key's next search is admitted once it has
      await waitFor("the key's slots to come back", async () => (await search(b, noisy)).statusCode === 200);
      await a.close();
      if (b !== a) await b.close();
    });
  });
}
