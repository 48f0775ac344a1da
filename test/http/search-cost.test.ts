// What one search may cost: bounded input, a statement timeout on the read pool (422 query_timeout),
// cancellation in PostgreSQL when the client hangs up, a per-key cap on expensive reads running at
// once and a per-key budget of their statement time (in-process, and across replicas through
// Redis). A search is made slow on purpose by holding a lock on bills from another connection: it
// then waits in PostgreSQL as long as we like.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { openDatabase } from '../../src/db/open.js';
import { createLogger } from '../../src/logger.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { buildTestApp, testApp, testConfig, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { countWaiting, lockTable, SEARCH_SQL } from '../helpers/locks.js';
import { MemoryReadTime } from '../../src/http/read-time.js';
import type { Config } from '../../src/config.js';

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

  it('is not a failure of the service: no error, 499 for a read stopped in PostgreSQL or before it had a connection', async () => {
    // One expensive-read connection: the first search holds it (waiting on the lock), the second
    // waits in the pool for it.
    const lines: { level: number; msg: string; res?: { statusCode: number }; req?: { url: string } }[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const expensive = createPool(db.url, 1, 'lds-test-expensive');
    const t = await testApp({
      db,
      // two searches of one key at once (the default allows one)
      config: { expensiveReadsPerKey: 2 },
      deps: { logger: createLogger('info', { stream, pretty: false }), dbExpensive: expensive },
    });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const release = await lockTable(db.pool, 'bills');
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
    try {
      const search = (q: string, ctl: AbortController) =>
        fetch(`${base}/v1/bills?q=${q}`, { headers: { 'x-api-key': t.key }, signal: ctl.signal }).catch(
          () => undefined,
        );
      const [running, queued] = [new AbortController(), new AbortController()];
      const first = search('school', running);
      await waitFor(
        'the first search waiting in PostgreSQL',
        async () => (await countWaiting(db.pool, SEARCH_SQL)) === 1,
      );
      const second = search('tax', queued);
      await waitFor('the second search waiting for the connection', async () => expensive.waitingCount === 1);
      queued.abort();
      await waitFor('the server seeing the second client leave', async () => (await connections()) === 1);
      running.abort();
      await Promise.all([first, second]);
      // no access line follows an answer nobody received: one line each says what became of them
      const answered = () =>
        lines.filter((l) => l.msg === 'client closed request' && l.req?.url.startsWith('/v1/bills'));
      await waitFor('a line for each search', async () => answered().length === 2);
      expect(answered().map((l) => l.res?.statusCode)).toEqual([499, 499]);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(await countWaiting(db.pool, SEARCH_SQL)).toBe(0);
    } finally {
      await release();
      await t.close();
      await expensive.end();
    }
  });
});

const noRedis = !process.env.REDIS_URL;
const NO_REDIS = 'skipped: the Redis cases need REDIS_URL (e.g. redis://127.0.0.1:6379)';
type Mode = 'in-process' | 'redis';

/** Two replicas sharing Redis (mode redis), or one app twice (in-process), with two keys. */
async function replicas(mode: Mode, config: Partial<Config>, orgs: [string, string]) {
  const redisUrl = mode === 'redis' ? process.env.REDIS_URL : undefined;
  const a = await testApp({ db, config: { ...config, redisUrl } });
  const b = mode === 'redis' ? await testApp({ db, config: { ...config, redisUrl } }) : a;
  const [first, second] = await Promise.all(
    orgs.map(async (org) => (await a.newKey({ org: `${org}-${mode}` })).api_key),
  );
  return {
    a,
    b,
    keys: [first, second] as const,
    async close() {
      await a.close();
      if (b !== a) await b.close();
    },
  };
}

const search = (t: TestApp, key: string, q = 'school') =>
  t.app.inject({ url: `/v1/bills?q=${q}`, headers: { 'x-api-key': key } });

for (const mode of ['in-process', 'redis'] as const) {
  describe(`expensive reads per key (${mode})`, () => {
    const skip = mode === 'redis' && noRedis;
    beforeEach((ctx) => ctx.skip(skip, NO_REDIS));

    it('a key runs at most EXPENSIVE_READS_PER_KEY searches at once; others keep being served; slots come back', async () => {
      // Two replicas; with Redis they share the slots of a key.
      // the slots alone: the time budget (its own test below) would refuse these held searches' key
      const r = await replicas(mode, { expensiveReadsPerKey: 2, expensiveReadMsPerSec: 0 }, ['noisy', 'other']);
      const { a, b } = r;
      const [noisy, other] = r.keys;
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
      await r.close();
    });
  });
}

for (const mode of ['in-process', 'redis'] as const) {
  describe(`expensive-read time per key (${mode})`, () => {
    const skip = mode === 'redis' && noRedis;
    beforeEach((ctx) => ctx.skip(skip, NO_REDIS));

    it('a key whose searches ran long waits, on every replica (429 read_budget_exceeded); its cheap reads and other keys do not', async () => {
      // 10 ms of statement time a second and 100 ms of debt: a search held a second puts the key
      // about 90 s in debt, far more than any pause of a loaded machine drains
      const r = await replicas(mode, { expensiveReadMsPerSec: 10, expensiveReadBurstMs: 100 }, ['heavy', 'light']);
      const { a, b } = r;
      const [heavy, other] = r.keys;
      const release = await lockTable(db.pool, 'bills');
      let held: ReturnType<typeof search>;
      try {
        held = search(a, heavy);
        await waitFor('the search waiting in PostgreSQL', async () => (await countWaiting(db.pool, SEARCH_SQL)) === 1);
        // the statement runs (waiting on the lock) for a second at least: that time is the key's debt
        await new Promise((r) => setTimeout(r, 1000));
      } finally {
        await release();
      }
      expect((await held).statusCode).toBe(200);
      // the charge reaches Redis a moment after the answer: the other replica refuses once it has
      let refused: Awaited<ReturnType<typeof search>> | undefined;
      await waitFor('the key refused for its debt', async () => {
        const res = await search(b, heavy, 'tax');
        if (res.statusCode === 429) refused = res;
        return refused !== undefined;
      });
      expect(refused!.json().error).toMatchObject({ code: 'read_budget_exceeded', ms_per_sec: 10 });
      expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(10);
      expect((await b.app.inject({ url: '/v1/states', headers: { 'x-api-key': heavy } })).statusCode).toBe(200);
      expect((await search(b, other)).statusCode).toBe(200);
      await r.close();
    });
  });
}

describe('the time budget of a key', () => {
  it('drains the debt at EXPENSIVE_READ_MS_PER_SEC and admits within EXPENSIVE_READ_BURST_MS', async () => {
    let now = 0;
    const budget = new MemoryReadTime({ msPerSec: 250, burstMs: 2000 }, () => now);
    expect(await budget.wait('k')).toBe(0);
    budget.charge('k', 1500);
    expect(await budget.wait('k')).toBe(0); // within the burst
    budget.charge('k', 1500);
    expect(await budget.wait('k')).toBe(4000); // 1,000 ms over it, at 250 ms a second
    now = 2000;
    expect(await budget.wait('k')).toBe(2000);
    now = 4000;
    expect(await budget.wait('k')).toBe(0);
    expect(await budget.wait('other')).toBe(0);
    // someone searching as they type: 5 ms searches a tenth of a second apart never wait
    for (let i = 0; i < 1000; i++) {
      now += 100;
      budget.charge('typist', 5);
      expect(await budget.wait('typist')).toBe(0);
    }
  });

  it('lets quick searches of one key through one after another with the defaults', async () => {
    const t = await testApp({ db });
    try {
      expect(t.config.expensiveReadMsPerSec).toBe(250);
      for (const q of ['school', 'tax', 'health', 'water', 'road', 'court', 'vote', 'fee', 'land', 'fish'])
        expect((await t.app.inject({ url: `/v1/bills?q=${q}`, headers: { 'x-api-key': t.key } })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
