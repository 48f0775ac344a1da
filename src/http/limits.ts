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
import type { Result } from 'ioredis';
import type { Queryable } from '../db/pool.js';
import { defineScript, RedisDownError, type RedisClient } from '../redis/client.js';

export interface LimitKey {
  api_key_id: string;
  monthly_cap: number;
  burst_limit: number;
}

export type LimitOutcome =
  | { ok: true; used: number }
  | { ok: false; kind: 'burst'; used: number }
  | { ok: false; kind: 'monthly'; used: number };

export interface Period {
  /** first moment of the UTC month containing `now` */
  start: Date;
  /** first moment of the next UTC month */
  end: Date;
  /** `end` in Unix seconds (the X-RateLimit-Reset value) */
  resetSeconds: number;
  /** YYYY-MM of `start` */
  label: string;
}

// The period changes once a month; computing it on every request would allocate two Dates each time.
// The memo hands out shared Date objects: callers must not mutate them.
let memo: Period | undefined;

/** First moment of the UTC month containing `now`, and of the next one. */
export function period(now: Date): Period {
  const t = now.getTime();
  if (memo && t >= memo.start.getTime() && t < memo.end.getTime()) return memo;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const p = { start, end, resetSeconds: Math.floor(end.getTime() / 1000), label: start.toISOString().slice(0, 7) };
  memo = p;
  return p;
}

export interface Limiter {
  /** Checks both limits and, when both pass, counts the request (synchronously when it can). */
  hit(key: LimitKey, now: Date): LimitOutcome | Promise<LimitOutcome>;
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

  add(id: string, start: Date, n = 1): void {
    const k = `${id}|${start.getTime()}`;
    const e = this.pending.get(k);
    if (e) e.n += n;
    else this.pending.set(k, { id, start: start.toISOString(), n });
  }

  async seed(id: string, start: Date): Promise<number> {
    const { rows } = await this.db.query<{ used: string }>(
      `SELECT used FROM usage_counters WHERE api_key_id = $1 AND period_start = $2`,
      [id, start.toISOString()],
    );
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
        const k = `${b.id}|${Date.parse(b.start)}`;
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

  hit(key: LimitKey, now: Date): LimitOutcome | Promise<LimitOutcome> {
    const { start } = period(now);
    const cur = this.monthly.get(key.api_key_id);
    // Synchronous once the counter of this period is loaded: the common case costs no promise.
    if (cur !== undefined && !(cur instanceof Promise) && cur.start === start.getTime())
      return this.count(key, now, start, cur);
    return this.counter(key.api_key_id, start).then((c) => this.count(key, now, start, c));
  }

  private count(key: LimitKey, now: Date, start: Date, c: { used: number }): LimitOutcome {
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
// ARGV: burst limit, monthly cap, seed value (or -1 when not known yet), monthly ttl seconds, n, f.
// First counts f requests this replica has already admitted (far from both limits, see
// RedisLimiter), whatever the room. Then counts up to n requests as if they arrived one after
// another: each is checked against the burst limit first, then the monthly cap, and counted when
// both pass.
// Returns {status, used_before, accepted, burst_after}: status 3 means the monthly counter needs a
// seed (nothing was counted); otherwise status tells why the requests after the accepted ones were
// refused (1 burst, 2 monthly; 0 when all were accepted). used_before includes the f.
const HIT_SCRIPT = `
local used = redis.call('GET', KEYS[2])
if not used then
  if tonumber(ARGV[3]) < 0 then return {3, 0, 0, 0} end
  redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4], 'NX')
  used = redis.call('GET', KEYS[2])
end
used = tonumber(used)
local b = tonumber(redis.call('GET', KEYS[1]) or '0')
local f = tonumber(ARGV[6])
if f > 0 then
  redis.call('INCRBY', KEYS[1], f)
  if b == 0 then redis.call('EXPIRE', KEYS[1], 2) end
  redis.call('INCRBY', KEYS[2], f)
  b = b + f
  used = used + f
end
local n = tonumber(ARGV[5])
local roomB = math.max(0, tonumber(ARGV[1]) - b)
local roomM = math.max(0, tonumber(ARGV[2]) - used)
local k = math.min(n, roomB, roomM)
if k > 0 then
  redis.call('INCRBY', KEYS[1], k)
  if b == 0 then redis.call('EXPIRE', KEYS[1], 2) end
  redis.call('INCRBY', KEYS[2], k)
end
local status = 0
if k < n then
  if roomB <= roomM then status = 1 else status = 2 end
end
return {status, used, k, b + k}
`;

// The script's command, typed as ioredis documents for defineCommand (module augmentation); it
// exists on a client once RedisLimiter's constructor has defined it.
declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsHitAhead(
      k1: string,
      k2: string,
      burst: number,
      cap: number,
      seed: number,
      ttl: number,
      n: number,
      f: number,
    ): Result<[number, number, number, number], Context>;
  }
}

/** The script's answer: status, used before, accepted, the burst counter after (HIT_SCRIPT). */
type HitAnswer = [number, number, number, number];

/** The script's keys and arguments for a batch (HIT_SCRIPT); seed -1 while the monthly count is not known. */
const hitArgs = (b: Batch, seed: number) =>
  [b.burst, b.month, b.key.burst_limit, b.key.monthly_cap, seed, b.ttl, b.waiters.length, b.ahead] as const;

interface Waiter {
  resolve(o: LimitOutcome): void;
  reject(e: unknown): void;
}

interface Batch {
  key: LimitKey;
  burst: string;
  month: string;
  start: Date;
  sec: number;
  ttl: number;
  waiters: Waiter[];
  /** requests admitted ahead of Redis, counted by this batch whatever the room */
  ahead: number;
}

/** What this process knows of a key's counters: Redis's last answer, plus what it admitted since. */
interface Seen {
  sec: number;
  month: string;
  /** the burst counter of second `sec` and the monthly counter, as Redis last answered */
  burst: number;
  used: number;
  /** requests admitted ahead of Redis in second `sec` whose count Redis has not confirmed yet */
  ahead: number;
}

/** Keys whose burst limit is below this are always counted in Redis first: a round trip costs them little. */
const AHEAD_MIN_BURST = 100;
/** Ahead admission keeps a key below this share of its burst limit, as far as this process knows. */
const AHEAD_BURST_SHARE = 0.5;
/** ... and this far from its monthly cap. */
const aheadMonthlyMargin = (cap: number) => Math.max(1000, Math.ceil(cap / 100));
/**
 * Requests admitted ahead are counted in Redis within this long, or as soon as this many are
 * waiting to be counted, whichever comes first. Each count is a script call costing the process
 * 0.2 ms of CPU or more (more at low rates, where the client's code stays cold): every 10 ms, as
 * this was before, that was 5 % of the CPU of a key reading 500 times a second, and the limits'
 * share of a request at 70 a second went 69 → 34 µs from 50 to 200 ms (bench/read --perf). The
 * count, not the time, is what bounds, at any request rate, what a replica has admitted that the
 * others cannot see yet: this many plus one batch on its way, 200, so the monthly margin (1,000 at
 * least) keeps the cap exact with up to six replicas admitting ahead at once; the time only bounds
 * how stale the others' view of the counters gets.
 */
const AHEAD_FLUSH_MS = 200;
const AHEAD_FLUSH_REQUESTS = 100;

/**
 * Counters in Redis, shared by every replica. Requests for the same key that arrive in the same
 * turn of the event loop are counted with one script call (they are answered exactly as if counted
 * one by one, in arrival order), so a busy key costs one Redis round trip per loop turn instead of
 * one per request.
 *
 * A request of a key that is far from both limits, as Redis last answered this process within the
 * current second (or the second before, for a key that was going ahead then: a new second's burst
 * counter starts at zero), is admitted at once, without waiting for a round trip, and counted in
 * Redis with the others admitted meanwhile within AHEAD_FLUSH_MS, or once AHEAD_FLUSH_REQUESTS
 * wait: "far" means under half the burst limit (keys with a burst limit of AHEAD_MIN_BURST or
 * more) and at least 1 % (1,000 requests at least) from the monthly cap. Near either limit, after
 * a second or more without a request, and for keys with small burst limits, every request waits
 * for Redis as above, so the limits stay exact where they bite; replicas see each other's counts
 * at most AHEAD_FLUSH_MS plus a round trip late.
 */
export class RedisLimiter implements Limiter {
  private ledger: UsageLedger;
  private redis: RedisClient;
  private batches = new Map<string, Batch>();
  private seen = new Map<string, Seen>();
  private immediate = false;
  private timer: NodeJS.Timeout | undefined;
  /** requests admitted ahead since the last drain */
  private unsent = 0;
  private sending = new Set<Promise<void>>();
  constructor(
    db: Queryable,
    redis: RedisClient,
    private prefix = 'lds:rl',
  ) {
    this.ledger = new UsageLedger(db);
    defineScript(redis, 'ldsHitAhead', 2, HIT_SCRIPT, true);
    this.redis = redis;
  }

  private batchFor(key: LimitKey, now: Date): Batch {
    const { start, end, label } = period(now);
    const sec = Math.floor(now.getTime() / 1000);
    const burst = `${this.prefix}:b:${key.api_key_id}:${sec}`;
    // Limits are part of the batch identity: a key whose limits changed is never mixed with its old self.
    const id = `${burst}|${key.burst_limit}|${key.monthly_cap}`;
    let batch = this.batches.get(id);
    if (!batch) {
      const ttl = Math.ceil((end.getTime() - now.getTime()) / 1000) + 7 * 86400;
      batch = {
        key,
        burst,
        month: `${this.prefix}:m:${key.api_key_id}:${label}`,
        start,
        sec,
        ttl,
        waiters: [],
        ahead: 0,
      };
      this.batches.set(id, batch);
    }
    return batch;
  }

  /** The outcome of a request admitted without waiting for Redis, or undefined when it must wait. */
  private admitAhead(key: LimitKey, now: Date): LimitOutcome | undefined {
    // Once AHEAD_FLUSH_REQUESTS wait to be counted, the rest of the turn waits for Redis with them.
    if (key.burst_limit < AHEAD_MIN_BURST || this.unsent >= AHEAD_FLUSH_REQUESTS) return undefined;
    const sec = Math.floor(now.getTime() / 1000);
    let s = this.seen.get(key.api_key_id);
    if (!s || s.month !== period(now).label) return undefined;
    if (s.sec !== sec) {
      // A new second. Its burst counter starts at zero in Redis, so this process knows it as well
      // as it knows a counter mid-second; a key that was going ahead in the second before keeps
      // going (otherwise the first requests of every second each waited a round trip). Its monthly
      // count carries over with the requests still to be confirmed. A key idle for longer asks
      // Redis first.
      if (s.sec !== sec - 1 || s.burst + s.ahead > key.burst_limit * AHEAD_BURST_SHARE) return undefined;
      s = { sec, month: s.month, burst: 0, used: s.used + s.ahead, ahead: 0 };
      this.seen.set(key.api_key_id, s);
    }
    if (s.burst + s.ahead + 1 > key.burst_limit * AHEAD_BURST_SHARE) return undefined;
    if (s.used + s.ahead + 1 > key.monthly_cap - aheadMonthlyMargin(key.monthly_cap)) return undefined;
    s.ahead++;
    this.batchFor(key, now).ahead++;
    this.ledger.add(key.api_key_id, period(now).start);
    if (++this.unsent >= AHEAD_FLUSH_REQUESTS) this.drainSoon();
    else if (!this.timer && !this.immediate) this.timer = setTimeout(() => this.drain(), AHEAD_FLUSH_MS).unref();
    return { ok: true, used: s.used + s.ahead };
  }

  hit(key: LimitKey, now: Date): LimitOutcome | Promise<LimitOutcome> {
    // While Redis is known down nothing is queued behind the reconnection: the request fails now
    // (503 from the auth hook) instead of after ioredis's retries.
    if (this.redis.down) return Promise.reject(new RedisDownError());
    const ahead = this.admitAhead(key, now);
    if (ahead) return ahead;
    const b = this.batchFor(key, now);
    this.drainSoon();
    return new Promise((resolve, reject) => b.waiters.push({ resolve, reject }));
  }

  /** Drains at the end of this turn of the event loop, with whatever else arrives in it. */
  private drainSoon() {
    if (this.immediate) return;
    this.immediate = true;
    setImmediate(() => this.drain());
  }

  private drain() {
    this.immediate = false;
    this.unsent = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.batches.values()];
    this.batches.clear();
    const answers = this.countInRedis(batches);
    for (const [i, b] of batches.entries()) {
      const p = this.send(b, answers[i]).catch((err) => {
        // Requests admitted ahead were served: their count stays in the PostgreSQL ledger, and
        // Redis misses them (it is failing; limits answer 503 until it is back).
        for (const w of b.waiters) w.reject(err);
      });
      this.sending.add(p);
      void p.finally(() => this.sending.delete(p));
    }
  }

  /**
   * The script's first answer for each batch of a drain. One batch (one busy key, the common case)
   * is one command; several go in one pipeline, one write to Redis. Neither goes through ioredis's
   * automatic pipelining, which for a lone command cost about twice the CPU of sending it directly
   * (a pipeline built and executed per command).
   */
  private countInRedis(batches: Batch[]): Promise<HitAnswer>[] {
    if (batches.length === 1) return [this.redis.ldsHitAhead(...hitArgs(batches[0], -1))];
    const pipeline = this.redis.pipeline();
    for (const b of batches) pipeline.ldsHitAhead(...hitArgs(b, -1));
    const all = pipeline.exec();
    return batches.map((_, i) =>
      all.then((results) => {
        const [err, answer] = results?.[i] ?? [new Error('redis pipeline answered nothing')];
        if (err) throw err;
        return answer as HitAnswer;
      }),
    );
  }

  private async send(b: Batch, first: Promise<HitAnswer>) {
    const { key, waiters } = b;
    const n = waiters.length;
    let [status, used, accepted, burst] = await first;
    if (status === 3) {
      // Redis has no counter for this period yet: seed it from PostgreSQL (SET NX keeps a racing seed).
      const seed = await this.ledger.seed(key.api_key_id, b.start);
      [status, used, accepted, burst] = await this.redis.ldsHitAhead(...hitArgs(b, seed));
    }
    if (accepted > 0) this.ledger.add(key.api_key_id, b.start, accepted);
    this.remember(b, burst, used + accepted);
    for (let i = 0; i < n; i++) {
      if (i < accepted) waiters[i].resolve({ ok: true, used: used + i + 1 });
      else waiters[i].resolve({ ok: false, kind: status === 1 ? 'burst' : 'monthly', used: used + accepted });
    }
  }

  /** Records Redis's answer for a batch: the counters now include the batch's requests admitted ahead. */
  private remember(b: Batch, burst: number, used: number) {
    const id = b.key.api_key_id;
    const month = period(new Date(b.sec * 1000)).label;
    const s = this.seen.get(id);
    if (s && s.sec === b.sec && s.month === month) {
      s.burst = Math.max(s.burst, burst);
      s.used = Math.max(s.used, used);
      s.ahead = Math.max(0, s.ahead - b.ahead);
    } else if (!s || s.sec < b.sec) {
      if (this.seen.size >= 50_000) this.seen.clear();
      this.seen.set(id, { sec: b.sec, month, burst, used, ahead: 0 });
    }
  }

  async used(key: LimitKey, now: Date): Promise<number> {
    if (this.redis.down) throw new RedisDownError();
    // requests admitted ahead (this one among them) are counted in Redis before it is read
    if (this.batches.size > 0) this.drain();
    await Promise.allSettled([...this.sending]);
    const { start, label } = period(now);
    const v = await this.redis.get(`${this.prefix}:m:${key.api_key_id}:${label}`);
    return v === null ? this.ledger.seed(key.api_key_id, start) : Number(v);
  }

  flush() {
    return this.ledger.flush();
  }

  async close() {
    // Requests admitted ahead are counted in Redis before the process goes.
    if (this.batches.size > 0) this.drain();
    await Promise.allSettled([...this.sending]);
    await this.flush();
  }
}
