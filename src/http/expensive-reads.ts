// The gate of a key's expensive reads (full-text search, substring filters, deep offsets): its time
// budget (read-time.ts: a key in debt waits) and its slots (at most EXPENSIVE_READS_PER_KEY at
// once), checked together when a read starts and settled together when it ends.
//
// With Redis (every replica shares them) each side is one script: one round trip to start a read
// (the debt checked, a slot taken) and one to end it (the slot freed, the statements' time
// charged). Kept as two structures they took four, and on a small server those writes to Redis
// were about a tenth of a search's CPU (bench/read, q=health).
import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import { defineScript, type RedisClient } from '../redis/client.js';
import { ApiError } from './errors.js';
import { MemoryReadTime, type BudgetRate } from './read-time.js';

/** What a key's expensive read may do now. */
export type Admission =
  /** run; `end` with the ms its statements ran (0: none) when it is over */
  | { ok: true; end(ms: number): void }
  /** the key is in debt: it may start again in waitMs */
  | { ok: false; waitMs: number }
  /** every slot of the key is taken */
  | { ok: false; busy: true };

export interface ExpensiveReadGate {
  admit(keyId: string): Promise<Admission>;
}

export interface GateLimits extends BudgetRate {
  /** slots per key (0: no slots) */
  slots: number;
}

/** In one process (no Redis): the debts of read-time.ts and a count of running reads per key. */
export class MemoryExpensiveReads implements ExpensiveReadGate {
  private running = new Map<string, number>();
  private readonly time: MemoryReadTime | undefined;

  constructor(
    private readonly limits: GateLimits,
    now: () => number = Date.now,
  ) {
    this.time = limits.msPerSec > 0 ? new MemoryReadTime(limits, now) : undefined;
  }

  async admit(keyId: string): Promise<Admission> {
    const waitMs = this.time ? await this.time.wait(keyId) : 0;
    if (waitMs > 0) return { ok: false, waitMs };
    const { slots } = this.limits;
    const n = this.running.get(keyId) ?? 0;
    if (slots > 0 && n >= slots) return { ok: false, busy: true };
    if (slots > 0) this.running.set(keyId, n + 1);
    return {
      ok: true,
      end: once((ms: number) => {
        if (slots > 0) {
          const left = (this.running.get(keyId) ?? 1) - 1;
          if (left <= 0) this.running.delete(keyId);
          else this.running.set(keyId, left);
        }
        if (ms > 0) this.time?.charge(keyId, ms);
      }),
    };
  }
}

// KEYS: the key's debt hash (d: debt ms, t: when written, Redis clock) and its slots, a sorted set
// of lease ids scored by their expiry (a replica that dies with slots taken frees them when their
// lease ends). ARGV: ms/s drained (0: no budget), burst ms, slots (0: none), lease ms, lease id.
// Returns the wait in ms of a key in debt, -1 when every slot is taken, 0 when the read may run.
const BEGIN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst, slots = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if rate > 0 then
  local h = redis.call('HMGET', KEYS[1], 'd', 't')
  local debt = math.max(0, (tonumber(h[1]) or 0) - (now - (tonumber(h[2]) or now)) * rate / 1000)
  if debt > burst then return math.ceil((debt - burst) / rate * 1000) end
end
if slots > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= slots then return -1 end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 0
`;

// KEYS as BEGIN. ARGV: ms/s, the lease id ('' when no slot was taken), the ms to charge (0: none).
const END = `
if ARGV[2] ~= '' then redis.call('ZREM', KEYS[2], ARGV[2]) end
local rate, add = tonumber(ARGV[1]), tonumber(ARGV[3])
if rate > 0 and add > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local h = redis.call('HMGET', KEYS[1], 'd', 't')
  local debt = math.max(0, (tonumber(h[1]) or 0) - (now - (tonumber(h[2]) or now)) * rate / 1000) + add
  redis.call('HSET', KEYS[1], 'd', debt, 't', now)
  redis.call('PEXPIRE', KEYS[1], math.ceil(debt / rate * 1000) + 1000)
end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsExpensiveBegin(
      debt: string,
      slots: string,
      msPerSec: number,
      burstMs: number,
      slotCount: number,
      leaseMs: number,
      id: string,
    ): Result<number, Context>;
    ldsExpensiveEnd(debt: string, slots: string, msPerSec: number, id: string, addMs: number): Result<number, Context>;
  }
}

/** Shared by every replica through Redis. */
export class RedisExpensiveReads implements ExpensiveReadGate {
  constructor(
    private readonly redis: RedisClient,
    private readonly limits: GateLimits,
    /** how long a slot outlives a replica that died holding it */
    private readonly leaseMs: number,
    private readonly prefix = 'lds:xr',
  ) {
    defineScript(redis, 'ldsExpensiveBegin', 2, BEGIN, true);
    defineScript(redis, 'ldsExpensiveEnd', 2, END, true);
  }

  async admit(keyId: string): Promise<Admission> {
    const { msPerSec, burstMs, slots } = this.limits;
    const debtKey = `${this.prefix}:d:${keyId}`;
    const slotKey = `${this.prefix}:s:${keyId}`;
    const id = slots > 0 ? randomUUID() : '';
    let out: number;
    try {
      out = await this.redis.ldsExpensiveBegin(debtKey, slotKey, msPerSec, burstMs, slots, this.leaseMs, id);
    } catch {
      throw new ApiError(
        'service_unavailable',
        'The limit counters are temporarily unavailable; retry shortly.',
        {},
        { 'Retry-After': 1 },
      );
    }
    if (out > 0) return { ok: false, waitMs: out };
    if (out < 0) return { ok: false, busy: true };
    return {
      ok: true,
      end: once((ms: number) => {
        const add = msPerSec > 0 && ms > 0 ? Math.max(1, Math.round(ms)) : 0;
        if (id === '' && add === 0) return;
        // A release or charge lost to a Redis outage: the lease ends by itself, and a few ms of one
        // key's debt are not worth failing an answer already given.
        this.redis.ldsExpensiveEnd(debtKey, slotKey, msPerSec, id, add).catch(() => undefined);
      }),
    };
  }
}

function once(fn: (ms: number) => void): (ms: number) => void {
  let done = false;
  return (ms) => {
    if (done) return;
    done = true;
    fn(ms);
  };
}

/**
 * The gate of an app: shared through Redis when there is one; undefined when neither a budget nor
 * slots are configured (an expensive read then costs nothing more than a cheap one).
 */
export function expensiveReadGate(
  redis: RedisClient | undefined,
  limits: GateLimits,
  statementTimeoutMs: number,
): ExpensiveReadGate | undefined {
  if (limits.msPerSec <= 0 && limits.slots <= 0) return undefined;
  // A lease outlives the longest statement a slot can cover, with margin for the rest of the request.
  const leaseMs = (statementTimeoutMs || 60_000) + 5_000;
  return redis ? new RedisExpensiveReads(redis, limits, leaseMs) : new MemoryExpensiveReads(limits);
}
