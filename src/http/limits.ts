// Burst and monthly limits per key.
//
// Burst: a fixed one-second window aligned to the wall clock (key.burst_limit requests per second).
// Monthly: key.monthly_cap requests per UTC calendar month. What counts: every request that passed
// authentication and was not itself rejected by a limit (4xx answers from the route count, 429s
// do not, public endpoints called without a key do not).
//
// With Redis the live counters are shared by every replica (one Lua script, one round trip); without
// it they live in this process. Either way monthly usage survives a restart: each process flushes
// the increments it made to usage_counters every few seconds and on close, and seeds a counter from
// PostgreSQL the first time it sees a key in a period.
import type { Redis } from 'ioredis';
import type { Queryable } from '../db/pool.js';

export interface LimitKey {
  api_key_id: string;
  monthly_cap: number;
  burst_limit: number;
}

export type LimitOutcome =
  | { ok: true; used: number }
  | { ok: false; kind: 'burst'; used: number }
  | { ok: false; kind: 'monthly'; used: number };

/** First moment of the UTC month containing `now`, and of the next one. */
export function period(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export interface Limiter {
  /** Checks both limits and, when both pass, counts the request. */
  hit(key: LimitKey, now: Date): Promise<LimitOutcome>;
  /** Requests counted for the key in the period containing `now`. */
  used(key: LimitKey, now: Date): Promise<number>;
  /** Writes pending increments to PostgreSQL. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Pending increments per (key, period), flushed to usage_counters in one statement. */
class UsageLedger {
  private pending = new Map<string, { id: string; start: string; n: number }>();
  constructor(private db: Queryable) {}

  add(id: string, start: Date): void {
    const k = `${id}|${start.toISOString()}`;
    const e = this.pending.get(k);
    if (e) e.n++;
    else this.pending.set(k, { id, start: start.toISOString(), n: 1 });
  }

  async seed(id: string, start: Date): Promise<number> {
    const { rows } = await this.db.query<{ used: string }>(`SELECT used FROM usage_counters WHERE api_key_id = $1 AND period_start = $2`, [id, start.toISOString()]);
    return rows[0] ? Number(rows[0].used) : 0;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    try {
      await this.db.query(
        `INSERT INTO usage_counters (api_key_id, period_start, used)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::bigint[])
         ON CONFLICT (api_key_id, period_start) DO UPDATE SET used = usage_counters.used + EXCLUDED.used`,
        [batch.map((b) => b.id), batch.map((b) => b.start), batch.map((b) => b.n)],
      );
    } catch (err) {
      // Keep the increments for the next attempt rather than lose them.
      for (const b of batch) {
        const k = `${b.id}|${b.start}`;
        const e = this.pending.get(k);
        if (e) e.n += b.n;
        else this.pending.set(k, b);
      }
      throw err;
    }
  }
}

export class MemoryLimiter implements Limiter {
  private burst = new Map<string, { sec: number; n: number }>();
  private monthly = new Map<string, { start: number; used: number } | Promise<{ start: number; used: number }>>();
  private ledger: UsageLedger;
  constructor(db: Queryable) {
    this.ledger = new UsageLedger(db);
  }

  private async counter(id: string, start: Date) {
    const cur = this.monthly.get(id);
    const resolved = cur instanceof Promise ? await cur : cur;
    if (resolved && resolved.start === start.getTime()) return resolved;
    // Read-through once per key and period; concurrent first requests share one query.
    const p = this.ledger.seed(id, start).then((used) => ({ start: start.getTime(), used }));
    this.monthly.set(id, p);
    try {
      const c = await p;
      this.monthly.set(id, c);
      return c;
    } catch (err) {
      this.monthly.delete(id);
      throw err;
    }
  }

  async hit(key: LimitKey, now: Date): Promise<LimitOutcome> {
    const { start } = period(now);
    const c = await this.counter(key.api_key_id, start);
    const sec = Math.floor(now.getTime() / 1000);
    let b = this.burst.get(key.api_key_id);
    if (!b || b.sec !== sec) {
      b = { sec, n: 0 };
      this.burst.set(key.api_key_id, b);
    }
    if (b.n >= key.burst_limit) return { ok: false, kind: 'burst', used: c.used };
    if (c.used >= key.monthly_cap) return { ok: false, kind: 'monthly', used: c.used };
    b.n++;
    c.used++;
    this.ledger.add(key.api_key_id, start);
    return { ok: true, used: c.used };
  }

  async used(key: LimitKey, now: Date): Promise<number> {
    return (await this.counter(key.api_key_id, period(now).start)).used;
  }

  flush() {
    return this.ledger.flush();
  }

  async close() {
    await this.flush();
  }
}

// KEYS[1] burst counter, KEYS[2] monthly counter.
// ARGV: burst limit, monthly cap, seed value (or -1 when not known yet), monthly ttl seconds.
// Returns {status, used}: status 0 counted, 1 burst rejected, 2 monthly rejected, 3 needs seed.
const HIT_SCRIPT = `
local used = redis.call('GET', KEYS[2])
if not used then
  if tonumber(ARGV[3]) < 0 then return {3, 0} end
  redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4], 'NX')
  used = redis.call('GET', KEYS[2])
end
used = tonumber(used)
local b = tonumber(redis.call('GET', KEYS[1]) or '0')
if b >= tonumber(ARGV[1]) then return {1, used} end
if used >= tonumber(ARGV[2]) then return {2, used} end
redis.call('INCR', KEYS[1])
if b == 0 then redis.call('EXPIRE', KEYS[1], 2) end
used = redis.call('INCR', KEYS[2])
return {0, used}
`;

type RedisWithHit = Redis & { ldsHit(k1: string, k2: string, burst: number, cap: number, seed: number, ttl: number): Promise<[number, number]> };

export class RedisLimiter implements Limiter {
  private ledger: UsageLedger;
  private redis: RedisWithHit;
  constructor(
    db: Queryable,
    redis: Redis,
    private prefix = 'lds:rl',
  ) {
    this.ledger = new UsageLedger(db);
    if (!(redis as unknown as Partial<RedisWithHit>).ldsHit) redis.defineCommand('ldsHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis = redis as unknown as RedisWithHit;
  }

  private keys(id: string, now: Date) {
    const { start, end } = period(now);
    const sec = Math.floor(now.getTime() / 1000);
    const month = start.toISOString().slice(0, 7);
    const ttl = Math.ceil((end.getTime() - now.getTime()) / 1000) + 7 * 86400;
    return { burst: `${this.prefix}:b:${id}:${sec}`, month: `${this.prefix}:m:${id}:${month}`, start, ttl };
  }

  async hit(key: LimitKey, now: Date): Promise<LimitOutcome> {
    const k = this.keys(key.api_key_id, now);
    let [status, used] = await this.redis.ldsHit(k.burst, k.month, key.burst_limit, key.monthly_cap, -1, k.ttl);
    if (status === 3) {
      // Redis has no counter for this period yet: seed it from PostgreSQL (SET NX keeps a racing seed).
      const seed = await this.ledger.seed(key.api_key_id, k.start);
      [status, used] = await this.redis.ldsHit(k.burst, k.month, key.burst_limit, key.monthly_cap, seed, k.ttl);
    }
    if (status === 0) {
      this.ledger.add(key.api_key_id, k.start);
      return { ok: true, used };
    }
    return { ok: false, kind: status === 1 ? 'burst' : 'monthly', used };
  }

  async used(key: LimitKey, now: Date): Promise<number> {
    const k = this.keys(key.api_key_id, now);
    const v = await this.redis.get(k.month);
    return v === null ? this.ledger.seed(key.api_key_id, k.start) : Number(v);
  }

  flush() {
    return this.ledger.flush();
  }

  async close() {
    await this.flush();
  }
}
