// The gate of a key's expensive reads on its own: slots and time budget decided together, in one
// process and across replicas through a real Redis, with one round trip to start a read and one to
// end it. (search-cost.test.ts drives the same gate through the search endpoint.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MemoryExpensiveReads,
  RedisExpensiveReads,
  expensiveReadGate,
  type Admission,
  type ExpensiveReadGate,
  type GateLimits,
} from '../../src/http/expensive-reads.js';
import { createLogger } from '../../src/logger.js';
import { RedisClient, createRedis } from '../../src/redis/client.js';
import { waitFor } from '../helpers/wait.js';

const noRedis = !process.env.REDIS_URL;
const NO_REDIS = 'skipped: the Redis cases need REDIS_URL (e.g. redis://127.0.0.1:6379)';

const admitted = (a: Admission) => {
  if (!a.ok) throw new Error(`not admitted: ${JSON.stringify(a)}`);
  return a;
};

describe('the expensive-read gate in one process', () => {
  it('takes slots up to the limit, frees them when a read ends, and keeps keys apart', async () => {
    const gate = new MemoryExpensiveReads({ slots: 2, msPerSec: 0, burstMs: 0 });
    const one = admitted(await gate.admit('k'));
    admitted(await gate.admit('k'));
    expect(await gate.admit('k')).toEqual({ ok: false, busy: true });
    admitted(await gate.admit('other'));
    one.end(0);
    one.end(0); // a second end frees nothing more
    admitted(await gate.admit('k'));
    expect(await gate.admit('k')).toEqual({ ok: false, busy: true });
  });

  it('charges what a read ran; a key in debt waits and takes no slot', async () => {
    let now = 0;
    const gate = new MemoryExpensiveReads({ slots: 1, msPerSec: 250, burstMs: 2000 }, () => now);
    admitted(await gate.admit('k')).end(3000); // 1,000 ms over the burst
    const refused = await gate.admit('k');
    expect(refused).toEqual({ ok: false, waitMs: 4000 });
    now = 4000; // drained: and the refused read held no slot, so the one slot is free
    admitted(await gate.admit('k'));
  });

  it('is off (undefined) when neither slots nor a budget are configured', () => {
    expect(expensiveReadGate(undefined, { slots: 0, msPerSec: 0, burstMs: 0 }, 5000)).toBeUndefined();
    expect(expensiveReadGate(undefined, { slots: 1, msPerSec: 0, burstMs: 0 }, 5000)).toBeInstanceOf(
      MemoryExpensiveReads,
    );
  });
});

describe('the expensive-read gate across replicas (Redis)', () => {
  let redis: RedisClient;
  /** the commands this test's client sent, by name */
  let sent: string[] = [];
  beforeAll(() => {
    if (noRedis) return;
    redis = new RedisClient(process.env.REDIS_URL!, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((cmd: { name: string }) => {
      sent.push(cmd.name);
      return send(cmd as never);
    }) as typeof redis.sendCommand;
  });
  afterAll(async () => {
    if (redis) await redis.quit();
  });
  beforeEach((ctx) => ctx.skip(noRedis, NO_REDIS));

  /** Two replicas' gates over the same Redis, each key of the test new. */
  const replicas = (limits: GateLimits): { a: ExpensiveReadGate; b: ExpensiveReadGate; prefix: string } => {
    const prefix = `lds:test:xr:${randomUUID()}`;
    return {
      a: new RedisExpensiveReads(redis, limits, 60_000, prefix),
      b: new RedisExpensiveReads(redis, limits, 60_000, prefix),
      prefix,
    };
  };

  it('shares slots: one replica takes them, the other is refused, a read that ends frees its slot for both', async () => {
    const { a, b } = replicas({ slots: 2, msPerSec: 250, burstMs: 2000 });
    const first = admitted(await a.admit('k'));
    admitted(await b.admit('k'));
    expect(await a.admit('k')).toEqual({ ok: false, busy: true });
    expect(await b.admit('k')).toEqual({ ok: false, busy: true });
    admitted(await b.admit('other'));
    first.end(5);
    // the end is sent without waiting for it: the slot is back a moment later
    await waitFor('the slot back', async () => (await b.admit('k')).ok);
  });

  it('charges what a read ran on every replica; a key in debt waits and its refusal takes no slot', async () => {
    const { a, b, prefix } = replicas({ slots: 1, msPerSec: 10, burstMs: 100 });
    admitted(await a.admit('k')).end(1100); // about 100 s of debt
    let refused: Admission | undefined;
    await waitFor('the debt seen by the other replica', async () => {
      const r = await b.admit('k');
      if (r.ok) r.end(0);
      else refused = r;
      return refused !== undefined;
    });
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { waitMs: number }).waitMs).toBeGreaterThan(90_000);
    // the refusal took no slot: the key holds none
    expect(await redis.zcard(`${prefix}:s:k`)).toBe(0);
  });

  it('costs one round trip to start a read and one to end it', async () => {
    const { a } = replicas({ slots: 1, msPerSec: 250, burstMs: 2000 });
    sent = [];
    const read = admitted(await a.admit('k'));
    read.end(12);
    await waitFor('the end sent', async () => sent.length >= 2);
    // evalsha, or eval once when Redis did not know the script yet
    expect(sent.filter((c) => c !== 'eval' && c !== 'evalsha')).toEqual([]);
    expect(sent.length - sent.filter((c) => c === 'eval').length).toBe(2);
  });

  it("goes to Redis directly on the process's client, not through automatic pipelining", async () => {
    // A search's two gate calls rarely share a turn with another command, and a lone command
    // costs about twice the client CPU through automatic pipelining (see redis/client.ts).
    const own = createRedis(process.env.REDIS_URL!, createLogger('silent', { pretty: false }));
    try {
      await own.ping(); // connected: automatic pipelining only applies to a ready client
      const gate = new RedisExpensiveReads(
        own,
        { slots: 1, msPerSec: 250, burstMs: 2000 },
        60_000,
        `lds:test:xr:${randomUUID()}`,
      );
      const admitting = gate.admit('k');
      expect(own.autoPipelineQueueSize).toBe(0);
      const read = admitted(await admitting);
      read.end(12);
      expect(own.autoPipelineQueueSize).toBe(0);
      // the same client still pipelines other commands automatically
      const ping = own.ping();
      expect(own.autoPipelineQueueSize).toBe(1);
      await ping;
    } finally {
      await own.quit();
    }
  });
});
