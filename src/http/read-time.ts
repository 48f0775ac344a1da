// A key's budget of expensive-read time. The slots (read-budget.ts) bound how many expensive reads
// a key runs at once; they do not bound how much of the database it uses: one slot kept busy with
// back-to-back half-second searches is a whole PostgreSQL core, and on a small server that core
// is the one every other tenant's cheap reads also need (bench/abuse). So a key also runs up a
// debt of the milliseconds its expensive statements ran, which drains at EXPENSIVE_READ_MS_PER_SEC
// (a share of one core); while the debt is above EXPENSIVE_READ_BURST_MS its next expensive read
// answers 429 read_budget_exceeded with the wait in Retry-After. Short searches barely count (a
// 5 ms search is 5 ms of debt), so a person searching as they type never meets it; a tenant
// running heavy searches all day gets its share, not the server.
import type { Result } from 'ioredis';
import type { RedisClient } from '../redis/client.js';
import { ApiError } from './errors.js';

export interface ReadTimeBudget {
  /** ms until the key may start an expensive read again (0: now) */
  wait(keyId: string): Promise<number>;
  /** adds the ms an expensive read of the key ran to its debt */
  charge(keyId: string, ms: number): void;
}

export interface BudgetRate {
  /** ms of debt that drain each second (0: no budget) */
  msPerSec: number;
  /** the debt a key may carry and still start an expensive read */
  burstMs: number;
}

/** The wait (ms) of a key with `debt` ms of debt, under `rate`. */
const waitFor = (debt: number, rate: BudgetRate) =>
  debt <= rate.burstMs ? 0 : Math.ceil(((debt - rate.burstMs) / rate.msPerSec) * 1000);

export class MemoryReadTime implements ReadTimeBudget {
  private debts = new Map<string, { debt: number; at: number }>();
  constructor(
    private readonly rate: BudgetRate,
    private readonly now: () => number = Date.now,
  ) {}

  private current(keyId: string, now: number): number {
    const d = this.debts.get(keyId);
    if (!d) return 0;
    const left = Math.max(0, d.debt - ((now - d.at) * this.rate.msPerSec) / 1000);
    if (left === 0) this.debts.delete(keyId);
    return left;
  }

  async wait(keyId: string): Promise<number> {
    return waitFor(this.current(keyId, this.now()), this.rate);
  }

  charge(keyId: string, ms: number): void {
    const now = this.now();
    this.debts.set(keyId, { debt: this.current(keyId, now) + ms, at: now });
  }
}

// One hash per key: the debt and when it was last written (Redis clock), so every replica drains
// and charges the same debt. ARGV: ms/s, burst ms, ms to add (0: only read). Returns the wait in ms.
const DEBT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst, add = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local h = redis.call('HMGET', KEYS[1], 'd', 't')
local debt = tonumber(h[1]) or 0
local at = tonumber(h[2]) or now
debt = math.max(0, debt - (now - at) * rate / 1000) + add
if add > 0 then
  redis.call('HSET', KEYS[1], 'd', debt, 't', now)
  redis.call('PEXPIRE', KEYS[1], math.ceil(debt / rate * 1000) + 1000)
end
if debt <= burst then return 0 end
return math.ceil((debt - burst) / rate * 1000)
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsReadDebt(key: string, msPerSec: number, burstMs: number, addMs: number): Result<number, Context>;
  }
}

export class RedisReadTime implements ReadTimeBudget {
  constructor(
    private readonly redis: RedisClient,
    private readonly rate: BudgetRate,
    private readonly prefix = 'lds:readtime',
  ) {
    if (!Object.hasOwn(redis, 'ldsReadDebt')) redis.defineCommand('ldsReadDebt', { numberOfKeys: 1, lua: DEBT });
  }

  async wait(keyId: string): Promise<number> {
    try {
      return await this.redis.ldsReadDebt(`${this.prefix}:${keyId}`, this.rate.msPerSec, this.rate.burstMs, 0);
    } catch {
      throw new ApiError(
        'service_unavailable',
        'The limit counters are temporarily unavailable; retry shortly.',
        {},
        { 'Retry-After': 1 },
      );
    }
  }

  charge(keyId: string, ms: number): void {
    // A charge lost to a Redis outage is a few ms of one key's debt: not worth failing the answer.
    this.redis
      .ldsReadDebt(`${this.prefix}:${keyId}`, this.rate.msPerSec, this.rate.burstMs, Math.max(1, Math.round(ms)))
      .catch(() => undefined);
  }
}

/** The time budget of an app (Redis when there is one), or undefined when EXPENSIVE_READ_MS_PER_SEC is 0. */
export function readTimeBudget(redis: RedisClient | undefined, rate: BudgetRate): ReadTimeBudget | undefined {
  if (rate.msPerSec <= 0) return undefined;
  return redis ? new RedisReadTime(redis, rate) : new MemoryReadTime(rate);
}
