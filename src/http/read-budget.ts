// What one request may take of the read pool. Every read it runs through here is cancelled in
// PostgreSQL when the client hangs up; an expensive read (full-text search, substring filters, deep
// offsets: up to READ_STATEMENT_TIMEOUT_MS each) also takes one of its key's
// EXPENSIVE_READS_PER_KEY slots, shared by every replica through Redis. The burst limit counts
// requests, not their cost: without the slots ten 5-second searches a second from one key would
// hold every connection, and every other tenant would queue behind them. The slots bound one key;
// the expensive pool bounds all keys together.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis, Result } from 'ioredis';
import { cancellable } from '../db/cancel.js';
import type { Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';
import type { ReadTimeBudget } from './read-time.js';

/** Takes a slot of the key; resolves to its release, or undefined when the key has none free. */
export interface SlotGate {
  acquire(keyId: string, limit: number): Promise<(() => void) | undefined>;
}

export class MemorySlots implements SlotGate {
  private running = new Map<string, number>();
  async acquire(keyId: string, limit: number) {
    const n = this.running.get(keyId) ?? 0;
    if (n >= limit) return undefined;
    this.running.set(keyId, n + 1);
    return once(() => {
      const left = (this.running.get(keyId) ?? 1) - 1;
      if (left <= 0) this.running.delete(keyId);
      else this.running.set(keyId, left);
    });
  }
}

// A sorted set per key of lease ids scored by their expiry (Redis clock): a replica that dies with
// slots taken frees them when their lease ends, never later than the statement timeout allows.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsSlot(key: string, limit: number, leaseMs: number, id: string): Result<number, Context>;
  }
}

export class RedisSlots implements SlotGate {
  constructor(
    private redis: Redis,
    private leaseMs: number,
    private prefix = 'lds:slots',
  ) {
    if (!Object.hasOwn(redis, 'ldsSlot')) redis.defineCommand('ldsSlot', { numberOfKeys: 1, lua: ACQUIRE });
  }

  async acquire(keyId: string, limit: number) {
    const key = `${this.prefix}:${keyId}`;
    const id = randomUUID();
    let ok: number;
    try {
      ok = await this.redis.ldsSlot(key, limit, this.leaseMs, id);
    } catch {
      throw new ApiError(
        'service_unavailable',
        'The limit counters are temporarily unavailable; retry shortly.',
        {},
        { 'Retry-After': 1 },
      );
    }
    if (ok !== 1) return undefined;
    return once(() => void this.redis.zrem(key, id).catch(() => undefined));
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** Aborts when the client hangs up before its response is complete. */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/**
 * Runs `fn` with a read connection source cancelled on disconnect. An expensive read first checks
 * its key's time budget (429 read_budget_exceeded while the key is in debt, read-time.ts), takes a
 * slot of the key (429 concurrency_limit_exceeded when none is free), frees it after, and charges
 * its statements' time to the key.
 */
export async function budgetedRead<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  expensive: boolean,
  fn: (db: Queryable) => Promise<T>,
): Promise<T> {
  const limit = app.config.expensiveReadsPerKey;
  const keyId = expensive ? req.apiKey?.api_key_id : undefined;
  // the key's time budget first: a key in debt takes no slot
  const budget = keyId !== undefined && app.readTime ? { keyId, of: app.readTime } : undefined;
  const wait = budget ? await budget.of.wait(budget.keyId) : 0;
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new ApiError(
      'read_budget_exceeded',
      `This key's expensive reads (text search, deep offset) used their share of time, ${app.config.expensiveReadMsPerSec} ms a second; retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { ms_per_sec: app.config.expensiveReadMsPerSec },
      { 'Retry-After': seconds },
    );
  }
  let release: (() => void) | undefined;
  if (keyId !== undefined && limit > 0) {
    release = await app.readSlots.acquire(keyId, limit);
    if (!release) {
      throw new ApiError(
        'concurrency_limit_exceeded',
        `This key already runs ${limit} expensive reads (text search, deep offset) at once; retry after 1 second.`,
        { limit },
        { 'Retry-After': 1 },
      );
    }
  }
  const spent = { ms: 0 };
  try {
    // On their own pool (EXPENSIVE_READ_POOL_SIZE): when every key's slot is busy, the expensive
    // reads queue there, and a cheap read still finds a free connection in the read pool.
    return await fn(cancellable(expensive ? app.dbExpensive : app.dbRead, disconnectSignal(reply), spent));
  } finally {
    release?.();
    // what its statements ran, whatever the answer (a timeout or a hang-up cost the database too)
    if (budget && spent.ms > 0) budget.of.charge(budget.keyId, spent.ms);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** per-key slots of expensive reads (Redis when REDIS_URL is set, this process otherwise) */
    readSlots: SlotGate;
    /** per-key time budget of expensive reads; undefined when EXPENSIVE_READ_MS_PER_SEC is 0 */
    readTime: ReadTimeBudget | undefined;
  }
}

/** The slot gate of an app: shared through Redis when there is one. */
export function readSlots(redis: Redis | undefined, statementTimeoutMs: number): SlotGate {
  // A lease outlives the longest statement a slot can cover, with margin for the rest of the request.
  return redis ? new RedisSlots(redis, (statementTimeoutMs || 60_000) + 5_000) : new MemorySlots();
}
