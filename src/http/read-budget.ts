// What one request may take of the read pool. Every read it runs through here is cancelled in
// PostgreSQL when the client hangs up; an expensive read (full-text search, substring filters, deep
// offsets: up to READ_STATEMENT_TIMEOUT_MS each) also takes one of its key's
// EXPENSIVE_READS_PER_KEY slots, shared by every replica through Redis. The burst limit counts
// requests, not their cost: without the slots ten 5-second searches a second from one key would
// hold every connection, and every other tenant would queue behind them.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis, Result } from 'ioredis';
import { cancellable } from '../db/cancel.js';
import type { Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';

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
// ARGV: limit, lease ms, then the lease ids asking, in arrival order; each gets a slot while there
// is room, as if they had asked one by one. Returns how many got one (the first ones).
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local room = tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1])
local k = 0
for i = 3, #ARGV do
  if k >= room then break end
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[i])
  k = k + 1
end
if k > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return k
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsSlots(key: string, limit: number, leaseMs: number, ...ids: string[]): Result<number, Context>;
  }
}

interface SlotAsk {
  id: string;
  resolve(release: (() => void) | undefined): void;
  reject(err: unknown): void;
}

/**
 * Slots in Redis, shared by every replica. The requests of one key that ask in the same turn of
 * the event loop ask in one script call, and the slots freed in one turn go back in one ZREM: a
 * busy key costs two round trips per loop turn instead of two per request, answered exactly as if
 * they had asked one by one in arrival order.
 */
export class RedisSlots implements SlotGate {
  private asks = new Map<string, { key: string; limit: number; asks: SlotAsk[] }>();
  private freed = new Map<string, string[]>();
  private scheduled = false;
  /** lease ids: unique per process and request without a random UUID each */
  private idPrefix = randomUUID();
  private seq = 0;

  constructor(
    private redis: Redis,
    private leaseMs: number,
    private prefix = 'lds:slots',
  ) {
    if (!Object.hasOwn(redis, 'ldsSlots')) redis.defineCommand('ldsSlots', { numberOfKeys: 1, lua: ACQUIRE });
  }

  acquire(keyId: string, limit: number): Promise<(() => void) | undefined> {
    const key = `${this.prefix}:${keyId}`;
    const id = `${this.idPrefix}:${++this.seq}`;
    // The limit is part of the batch: a key whose limit changed is never mixed with its old self.
    const batchId = `${key}|${limit}`;
    let batch = this.asks.get(batchId);
    if (!batch) {
      batch = { key, limit, asks: [] };
      this.asks.set(batchId, batch);
    }
    this.schedule();
    return new Promise((resolve, reject) => batch.asks.push({ id, resolve, reject }));
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain() {
    this.scheduled = false;
    const asks = [...this.asks.values()];
    this.asks.clear();
    const freed = [...this.freed];
    this.freed.clear();
    for (const [key, ids] of freed) void this.redis.zrem(key, ...ids).catch(() => undefined);
    for (const b of asks) {
      this.redis.ldsSlots(b.key, b.limit, this.leaseMs, ...b.asks.map((a) => a.id)).then((granted) => {
        b.asks.forEach((a, i) => a.resolve(i < granted ? once(() => this.free(b.key, a.id)) : undefined));
      }, () => {
        const err = new ApiError('service_unavailable', 'The limit counters are temporarily unavailable; retry shortly.', {}, { 'Retry-After': 1 });
        for (const a of b.asks) a.reject(err);
      });
    }
  }

  private free(key: string, id: string) {
    const ids = this.freed.get(key);
    if (ids) ids.push(id);
    else this.freed.set(key, [id]);
    this.schedule();
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
 * Runs `fn` with a read connection source cancelled on disconnect; an expensive read first takes
 * a slot of the request's key (429 concurrency_limit_exceeded when none is free) and frees it after.
 */
export async function budgetedRead<T>(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, expensive: boolean, fn: (db: Queryable) => Promise<T>): Promise<T> {
  const limit = app.config.expensiveReadsPerKey;
  let release: (() => void) | undefined;
  if (expensive && limit > 0 && req.apiKey) {
    release = await app.readSlots.acquire(req.apiKey.api_key_id, limit);
    if (!release) {
      throw new ApiError('concurrency_limit_exceeded', `This key already runs ${limit} expensive reads (text search, deep offset) at once; retry after 1 second.`, { limit }, { 'Retry-After': 1 });
    }
  }
  try {
    return await fn(cancellable(app.dbRead, disconnectSignal(reply)));
  } finally {
    release?.();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** per-key slots of expensive reads (Redis when REDIS_URL is set, this process otherwise) */
    readSlots: SlotGate;
  }
}

/** The slot gate of an app: shared through Redis when there is one. */
export function readSlots(redis: Redis | undefined, statementTimeoutMs: number): SlotGate {
  // A lease outlives the longest statement a slot can cover, with margin for the rest of the request.
  return redis ? new RedisSlots(redis, (statementTimeoutMs || 60_000) + 5_000) : new MemorySlots();
}
