// The hub loads the recent events into memory at start, so reconnecting clients with a recent
// cursor are caught up without a query. A failure there is only logged (connections fall back to
// the change log), so this test checks the load itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../src/bus/memory.js';
import { Hub } from '../../src/stream/hub.js';
import type { RecentEvents } from '../../src/stream/recent.js';
import { change, realtimeEnv, until, type Env } from './env.js';
import type { ChangeEvent } from '../../src/changes/events.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ relayPollMs: 100 });
});
afterAll(async () => env?.close());

describe('stream hub start', () => {
  it('loads the recent stamped events into its ring without a warning', async () => {
    await change(env.db, 'CA', 'NewBill', 1);
    await change(env.db, 'TX', 'Vote', 2);
    await until(
      async () =>
        (await env.db.pool.query('SELECT count(*)::int AS n FROM changes WHERE seq IS NOT NULL')).rows[0].n >= 2,
    );
    const warnings: string[] = [];
    const bus = new MemoryBus<ChangeEvent>();
    const hub = new Hub({
      db: env.db.pool,
      dbRead: env.db.pool,
      bus,
      log: { warn: (_o: object, msg: string) => warnings.push(msg) },
      heartbeatMs: 60_000,
      rotateMs: 60_000,
      rotateJitterPct: 0,
      bufferBytes: 1 << 20,
      replayMaxEvents: 5000,
      replaysPerKey: 2,
    } as ConstructorParameters<typeof Hub>[0]);
    try {
      await hub.init();
      expect(warnings).toEqual([]);
      const recent = (hub as unknown as { recent: RecentEvents }).recent;
      expect(recent.size).toBe(2);
    } finally {
      await hub.close(0);
      await bus.close();
    }
  });
});
