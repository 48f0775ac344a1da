// Stream catch-ups from the change log run on a pool of their own (STREAM_REPLAY_POOL_SIZE, issue
// 25): one key's 500 streams asking for the whole change log used to queue their queries on the read
// pool, in front of every other tenant's reads. Catch-ups are made slow on purpose by holding a lock
// on the change log from another connection: they then wait in PostgreSQL, holding their
// connection, as long as we like.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../src/db/pool.js';
import { change, realtimeEnv, untilStamped, until, type Env } from './env.js';
import { openStream, type RawStream } from './sse-client.js';
import { waitingOnLock } from '../helpers/locks.js';

let env: Env;
const pools: Pool[] = [];
beforeAll(async () => {
  env = await realtimeEnv(
    { streamRotateMs: 120_000, streamHeartbeatMs: 60_000, relayPollMs: 100 },
    {
      // one connection each: a single waiting catch-up fills the stream pool
      pools: (db) => {
        const dbRead = createPool(db.url, 1, 'test-read');
        const dbStream = createPool(db.url, 1, 'test-stream-replay');
        pools.push(dbRead, dbStream);
        return { dbRead, dbStream };
      },
    },
  );
});
afterAll(async () => {
  await env?.close();
  for (const p of pools) await p.end();
});

describe('stream catch-up pool', () => {
  it('streams replaying the change log wait on their own pool; the read endpoints keep answering', async () => {
    for (const s of ['CA', 'NY', 'TX']) await change(env.db, s);
    await untilStamped(env.db);
    await env.relay.stop(); // nothing else touches the change log while it is locked
    const lock = await env.db.pool.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE changes IN ACCESS EXCLUSIVE MODE');
    const streams: RawStream[] = [];
    try {
      // before the ring's window: every one of them catches up from the change log
      for (let i = 0; i < 3; i++)
        streams.push(await openStream(`${env.url}/v1/stream?since=2000-01-01T00:00:00Z`, { 'x-api-key': env.key }));
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
      await until(async () => (await waitingOnLock(env.db.pool, 'changes'))['test-stream-replay'] === 1);
      // the read pool's one connection is free: a read endpoint answers while the replays wait
      const res = await env.app.inject({ url: '/v1/states', headers: { 'x-api-key': env.key } });
      expect(res.statusCode).toBe(200);
      expect(await waitingOnLock(env.db.pool, 'changes')).toEqual({ 'test-stream-replay': 1 });
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
    // then every stream gets the whole replay
    await until(() => streams.every((s) => s.events().filter((e) => e.event === 'bill_change').length === 3));
    for (const s of streams) s.close();
  });
});
