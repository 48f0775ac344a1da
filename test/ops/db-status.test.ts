// A pool's availability status on a real PostgreSQL: a connection that succeeds while the status
// is down ends the outage at once, so a second outage soon after is announced as one of its own
// (with only the probe, a restart shorter than the probe's round looked like one long outage and
// open streams were never told of the second; pg-restart.test.ts saw it under load).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../src/db/pool.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await freshDatabase(1);
  pool = createPool(db.url, 2, 'lds-test-status');
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const connectionLost = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('database status', () => {
  it('ends an outage when a new connection succeeds, and announces the next outage again', async () => {
    const status = pool.status;
    const events: string[] = [];
    status.on('down', () => events.push('down'));
    status.on('up', () => events.push('up'));

    status.failed(connectionLost());
    expect(status.down).toBe(true);
    // the pool has no client yet: this query opens a new connection
    await pool.query('SELECT 1');
    expect(status.down).toBe(false);

    status.failed(connectionLost());
    expect(events).toEqual(['down', 'up', 'down']);
  });
});
