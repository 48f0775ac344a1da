// The hub's per-connection cost: attaching a connection creates no timer (rotation and heartbeats
// run on two shared intervals), yet every connection is still rotated after its life with its
// cursor, and each heartbeat is serialized once for all the connections it pings.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryBus } from '../../src/bus/memory.js';
import type { Frames, Ping, RotateData } from '../../src/stream/frames.js';
import { Hub, type Sink } from '../../src/stream/hub.js';
import { realtimeEnv, until, type Env } from './env.js';
import type { ChangeEvent } from '../../src/changes/events.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({}, { relay: false });
});
afterAll(async () => env?.close());

/** A transport that records what the hub hands it. */
class RecordingSink implements Sink {
  pings: Ping[] = [];
  rotated?: RotateData;
  event(_f: Frames) {}
  ping(p: Ping) {
    this.pings.push(p);
  }
  rotate(d: RotateData) {
    this.rotated = d;
  }
  error() {}
  reset() {}
  end() {}
  buffered() {
    return 0;
  }
  gone() {
    return this.rotated !== undefined;
  }
  kill() {}
}

describe('stream hub timers', () => {
  it('attaches 200 connections without a timer each, still pings (spread over ticks) and rotates every one', async () => {
    const bus = new MemoryBus<ChangeEvent>();
    const hub = new Hub({
      db: env.db.pool,
      dbRead: env.db.pool,
      bus,
      log: { warn: () => undefined },
      heartbeatMs: 1600,
      rotateMs: 2500,
      rotateJitterPct: 10,
      bufferBytes: 1 << 20,
      replayMaxEvents: 5000,
      replaysPerKey: 2,
    });
    try {
      await hub.init();
      const timeouts = vi.spyOn(globalThis, 'setTimeout');
      const intervals = vi.spyOn(globalThis, 'setInterval');
      const sinks = Array.from({ length: 200 }, () => new RecordingSink());
      const cursor = new Date().toISOString();
      for (const s of sinks) hub.attach(s, {}, cursor);
      expect(timeouts.mock.calls.length + intervals.mock.calls.length).toBe(0);
      timeouts.mockRestore();
      intervals.mockRestore();
      expect(hub.size).toBe(200);

      await until(() => sinks.every((s) => s.pings.length > 0));
      // pings spread over several ticks (8 groups for a 1.6 s interval), one Ping object per tick
      // shared by the connections pinged in it
      const distinct = new Set(sinks.map((s) => s.pings[0]));
      expect(distinct.size).toBeGreaterThan(1);
      expect(distinct.size).toBeLessThanOrEqual(8);

      await until(() => sinks.every((s) => s.rotated !== undefined));
      expect(new Set(sinks.map((s) => s.rotated!.reason))).toEqual(new Set(['wall_clock']));
      expect(sinks.every((s) => s.rotated!.cursor !== '')).toBe(true);
      expect(hub.size).toBe(0);
    } finally {
      await hub.close(0);
      await bus.close();
    }
  });

  it('holds wall-clock rotations during a database outage, then spreads the held ones over one life', async () => {
    const bus = new MemoryBus<ChangeEvent>();
    const life = 1000;
    const hub = new Hub({
      db: env.db.pool,
      dbRead: env.db.pool,
      bus,
      log: { warn: () => undefined },
      heartbeatMs: 60_000,
      rotateMs: life,
      rotateJitterPct: 0,
      bufferBytes: 1 << 20,
      replayMaxEvents: 5000,
      replaysPerKey: 2,
    });
    type Wheel = { slotOf: Map<unknown, number>; slotMs: number };
    const internals = (hub as unknown as { fanout: { deferred: Set<unknown>; rotations: Wheel } }).fanout;
    try {
      await hub.init();
      hub.holdRotations();
      const sinks = Array.from({ length: 100 }, () => new RecordingSink());
      const cursor = new Date().toISOString();
      for (const s of sinks) hub.attach(s, {}, cursor);
      await until(() => internals.deferred.size === sinks.length);
      expect(sinks.filter((s) => s.rotated)).toEqual([]);

      const released = Date.now();
      hub.releaseRotations();
      // The new deadlines (data of the wheel, not measured times) cover one life, not one instant.
      const { slotOf, slotMs } = internals.rotations;
      const deadlines = [...slotOf.values()].map((slot) => slot * slotMs);
      expect(deadlines).toHaveLength(sinks.length);
      expect(Math.min(...deadlines)).toBeGreaterThanOrEqual(released);
      expect(Math.max(...deadlines)).toBeLessThanOrEqual(released + life + 2 * slotMs);
      expect(Math.max(...deadlines) - Math.min(...deadlines)).toBeGreaterThan(life / 2);
      await until(() => sinks.every((s) => s.rotated !== undefined));
      expect(new Set(sinks.map((s) => s.rotated!.reason))).toEqual(new Set(['wall_clock']));
    } finally {
      await hub.close(0);
      await bus.close();
    }
  });
});
