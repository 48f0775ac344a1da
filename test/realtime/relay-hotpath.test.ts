// The relay's hot path: under load every database round trip waits behind the event loop's fan-out
// work, so a change must reach the bus after a single statement (stamp, publish cursor and all),
// and the published cursor is still written once the relay goes idle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../src/bus/memory.js';
import { startRelay, type Relay } from '../../src/changes/relay.js';
import type { ChangeEvent } from '../../src/changes/events.js';
import type { Pool } from '../../src/db/pool.js';
import { change, realtimeEnv, silent, until, type Env } from './env.js';

let env: Env;
beforeAll(async () => {
  // the shared relay is stopped: this file starts its own on a counting pool
  env = await realtimeEnv({ relayPollMs: 600_000 }, { relay: false });
});
afterAll(async () => env?.close());

/** The pool as the relay sees it, counting statements (and those still running) and checked-out clients. */
function counting(pool: Pool) {
  const n = { statements: 0, running: 0, connects: 0 };
  const wrapped = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (...args: unknown[]) => {
          n.statements++;
          n.running++;
          const done = () => void n.running--;
          const p = (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
          p.then(done, done);
          return p;
        };
      if (prop === 'connect')
        return (...args: unknown[]) => {
          n.connects++;
          return (target.connect as (...a: unknown[]) => unknown)(...args);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { pool: wrapped, n };
}

const relayState = async () =>
  (
    await env.db.pool.query<{ last_seq: number; published_seq: number }>(
      'SELECT last_seq, published_seq FROM relay_state WHERE id = 1',
    )
  ).rows[0];

describe('relay hot path', () => {
  it('publishes a change after one statement and records the published cursor once idle', async () => {
    const { pool, n } = counting(env.db.pool);
    const bus = new MemoryBus<ChangeEvent>();
    const seen: { event: ChangeEvent; statements: number; connects: number }[] = [];
    bus.subscribe((event) => seen.push({ event, statements: n.statements, connects: n.connects }));
    let relay: Relay | undefined;
    try {
      relay = await startRelay({ config: env.config, db: pool, databaseUrl: env.db.url, bus, log: silent });
      await until(() => relay!.isActive());
      // The listener's first connection wakes the relay (twice: on connect and once LISTEN is in
      // place); on a busy machine that can come late, so wait for it and for the stamps it caused.
      await relay.listening();
      // idle: everything stamped so far is published and recorded, and no statement is running
      await until(async () => {
        const st = await relayState();
        return st.published_seq === st.last_seq && n.running === 0;
      });
      const before = await relayState();
      const base = { statements: n.statements, connects: n.connects };
      await change(env.db, 'NY', 'Vote', 7);
      const got = await until(() => seen.find((s) => s.event.seq === before.last_seq + 1));
      expect(got.event).toMatchObject({ state: 'NY', reason: 'Vote', bill_number: 'HB7' });
      expect({ statements: got.statements - base.statements, connects: got.connects - base.connects }).toEqual({
        statements: 1,
        connects: 0,
      });
      await until(async () => (await relayState()).published_seq === before.last_seq + 1);
    } finally {
      await relay?.stop();
      await bus.close();
    }
  });
});
