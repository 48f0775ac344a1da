// A crowd of streams opening with the same cursor that only PostgreSQL puts in canonical form (a
// timestamp with a UTC offset; dates and Z timestamps are canonicalized in the process) reads that
// form once: each stream used to queue the same query on the replay pool. The replay pool here holds every canonical-form query until all streams are
// open, so the streams certainly ask at the same time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../src/db/pool.js';
import { change, realtimeEnv, untilStamped, until, type Env } from './env.js';
import { openStream, type RawStream } from './sse-client.js';

/** the canonical-form statement (changes/events.ts canonicalCursor) */
const CANONICAL = /\$1::timestamptz.* AS c$/s;

/** `pool` with its canonical-form statements counted and held until `open()`. */
function gated(pool: Pool) {
  const held = { statements: 0, open: () => undefined as void };
  const gate = new Promise<void>((resolve) => (held.open = resolve));
  const wrapped = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return async (...args: unknown[]) => {
          if (typeof args[0] === 'string' && CANONICAL.test(args[0])) {
            held.statements++;
            await gate;
          }
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { pool: wrapped, held };
}

let env: Env;
let replayPool: Pool | undefined;
let held: ReturnType<typeof gated>['held'];
beforeAll(async () => {
  env = await realtimeEnv(
    { streamRotateMs: 120_000, streamHeartbeatMs: 60_000, relayPollMs: 100 },
    {
      pools: (db) => {
        replayPool = createPool(db.url, 2, 'test-stream-replay');
        const g = gated(replayPool);
        held = g.held;
        return { dbStream: g.pool };
      },
    },
  );
});
afterAll(async () => {
  await env?.close();
  await replayPool?.end();
});

describe('stream cursors', () => {
  it('streams opening together with the same offset cursor read its canonical form once, and each gets the replay', async () => {
    for (const s of ['CA', 'NY', 'TX']) await change(env.db, s);
    await untilStamped(env.db);
    const streams: RawStream[] = await Promise.all(
      Array.from({ length: 12 }, () =>
        openStream(`${env.url}/v1/stream?since=2000-01-01T02:00:00%2B02:00`, { 'x-api-key': env.key }),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual(Array(12).fill(200));
    await until(() => held.statements >= 1);
    held.open();
    await until(() => streams.every((s) => s.events().filter((e) => e.event === 'bill_change').length === 3));
    expect(held.statements).toBe(1);
    for (const s of streams) s.close();
  });
});
