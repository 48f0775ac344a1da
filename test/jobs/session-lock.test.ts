// Lock keeping on a real PostgreSQL: one holder at a time, a standby takes over when the holder's
// session ends, and a holder whose session dies learns it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionLock } from '../../src/jobs/session-lock.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase(2);
});
afterAll(async () => {
  await db?.drop();
});

const KEY = 7319999;

describe('SessionLock', () => {
  it('lets one session hold the lock; the standby takes over when the holder releases it', async () => {
    const a = new SessionLock({ databaseUrl: db.url, key: KEY, name: 'lds-test-lock-a' });
    const b = new SessionLock({ databaseUrl: db.url, key: KEY, name: 'lds-test-lock-b' });
    try {
      expect(await a.tend()).toBe('acquired');
      expect(await a.tend()).toBe('held');
      expect(await b.tend()).toBe('standby');
      expect([a.held, b.held]).toEqual([true, false]);
      expect(a.pid).toBeGreaterThan(0);
      await a.release();
      await waitFor('the standby to take the lock', async () => (await b.tend()) === 'acquired');
      expect(b.held).toBe(true);
    } finally {
      await a.release();
      await b.release();
    }
  });

  it('tells the holder when its session is killed, and a standby takes over', async () => {
    const drops: [string, boolean][] = [];
    const a = new SessionLock({
      databaseUrl: db.url,
      key: KEY + 1,
      name: 'lds-test-lock-killed',
      onDrop: (why, held) => drops.push([why, held]),
    });
    const b = new SessionLock({ databaseUrl: db.url, key: KEY + 1, name: 'lds-test-lock-next' });
    try {
      expect(await a.tend()).toBe('acquired');
      const killer = new pg.Client({ connectionString: db.url });
      await killer.connect();
      await killer.query('SELECT pg_terminate_backend($1)', [a.pid]);
      await killer.end();
      // the session's end reaches the holder by an event or, at the latest, its next check (a
      // tend after the drop would take the free lock again, so it runs only until the drop)
      const dropped = () => drops.some(([, held]) => held);
      await waitFor('the holder to learn', async () => {
        if (!dropped()) await a.tend().catch(() => undefined);
        return dropped();
      });
      expect(a.held).toBe(false);
      await waitFor('the standby to take the lock', async () => (await b.tend()) === 'acquired');
    } finally {
      await a.release();
      await b.release();
    }
  });
});
