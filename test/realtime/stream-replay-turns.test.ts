// Turns at catching up per key (STREAM_REPLAYS_PER_KEY, issue 25): one key's streams replay at most
// that many at a time in a process; its other streams stay open and wait their turn, and another
// key's stream catches up at once. (500 streams of one key replaying together used to fill the
// event loop: every other tenant's requests, /v1/health included, waited seconds.) Catch-ups are
// made slow on purpose by holding a lock on the change log from another connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayTurns } from '../../src/stream/turns.js';
import { MemoryBus } from '../../src/bus/memory.js';
import type { ChangeEvent } from '../../src/changes/events.js';
import type { Frames, Ping } from '../../src/stream/frames.js';
import { Hub, type Sink } from '../../src/stream/hub.js';
import { realtimeEnv, change, until, type Env } from './env.js';

describe('ReplayTurns', () => {
  it('gives a key its turns first come first served, never makes another key wait, and 0 means no limit', async () => {
    const turns = new ReplayTurns(2);
    const order: string[] = [];
    const a1 = await turns.take('a');
    const a2 = await turns.take('a');
    const a3 = turns.take('a').then((r) => (order.push('a3'), r));
    const a4 = turns.take('a').then((r) => (order.push('a4'), r));
    expect(turns.waitingOf('a')).toBe(2);
    (await turns.take('b'))(); // another key: at once
    a1();
    a1(); // a second release of the same turn frees nothing more
    const r3 = await a3;
    expect(order).toEqual(['a3']);
    expect(turns.waitingOf('a')).toBe(1);
    a2();
    const r4 = await a4;
    expect(order).toEqual(['a3', 'a4']);
    r3();
    r4();
    await turns.take('a'); // all free again
    const free = new ReplayTurns(0);
    await Promise.all(Array.from({ length: 50 }, () => free.take('a')));
    await turns.take(undefined);
  });
});

/** A transport that counts the events the hub hands it. */
class CountingSink implements Sink {
  events = 0;
  event(_f: Frames) {
    this.events++;
  }
  ping(_p: Ping) {}
  rotate() {}
  error() {}
  reset() {}
  end() {}
  buffered() {
    return 0;
  }
  gone() {
    return false;
  }
  kill() {}
}

describe('streams of one key catching up', () => {
  let env: Env;
  beforeAll(async () => {
    env = await realtimeEnv({ relayPollMs: 100 });
  });
  afterAll(async () => env?.close());

  it('take turns; another key does not wait for them; every stream gets its whole replay', async () => {
    for (const s of ['CA', 'NY', 'TX']) await change(env.db, s);
    await until(
      async () => (await env.db.pool.query('SELECT count(*)::int AS n FROM changes WHERE seq IS NULL')).rows[0].n === 0,
    );
    await env.relay.stop(); // nothing else touches the change log while it is locked
    const bus = new MemoryBus<ChangeEvent>();
    const hub = new Hub({
      db: env.db.pool,
      dbRead: env.db.pool,
      bus,
      log: { warn: () => undefined },
      heartbeatMs: 60_000,
      rotateMs: 120_000,
      rotateJitterPct: 0,
      bufferBytes: 1 << 20,
      replayMaxEvents: 5000,
      replaysPerKey: 1,
    });
    await hub.init();
    const waitingInPg = async () =>
      (
        await env.db.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%changes%'`,
        )
      ).rows[0].n;
    const lock = await env.db.pool.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE changes IN ACCESS EXCLUSIVE MODE');
    // before the ring's window: every one of them catches up from the change log
    const cursor = '2000-01-01T00:00:00.000000Z';
    const noisy = [new CountingSink(), new CountingSink(), new CountingSink()];
    const other = new CountingSink();
    try {
      for (const s of noisy) hub.attach(s, {}, cursor, 'noisy-key');
      // one catch-up of the key runs (waiting on the lock in PostgreSQL); the other two wait their turn
      await until(async () => hub.waitingTurns('noisy-key') === 2 && (await waitingInPg()) === 1);
      hub.attach(other, {}, cursor, 'other-key');
      // another key's catch-up runs at once
      await until(async () => (await waitingInPg()) === 2);
      expect(hub.waitingTurns('noisy-key')).toBe(2);
      expect(hub.waitingTurns('other-key')).toBe(0);
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
    await until(() => [...noisy, other].every((s) => s.events === 3));
    expect(hub.waitingTurns('noisy-key')).toBe(0);
    await hub.close(0);
    await bus.close();
  });
});
