// Per-key rules for open streams (SSE and WebSocket together):
// - a cap on concurrent streams per key, by tier (STREAM_CONNECTIONS_PER_KEY); with Redis the count
//   is shared by every replica, else it is this process's;
// - a key revoked while its streams are open: they are closed within KEY_CACHE_MS (the key is
//   checked once at connect, and a stream lives for minutes);
// - the pace at which a key's admitted streams open in this process (STREAM_OPENS_PER_SEC,
//   open-pace.ts).
//
// With Redis each key has a sorted set of leases (member = process id + stream number, score =
// expiry). A process renews its leases every LEASE_MS / 3 and removes them when streams close, so
// the streams of a replica that died free their slots after LEASE_MS at most.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Result } from 'ioredis';
import { isDatabaseUnavailable } from '../db/health.js';
import type { Pool } from '../db/pool.js';
import { ApiError } from '../http/errors.js';
import type { KeyLookup } from '../keys/store.js';
import { defineScript, type RedisClient } from '../redis/client.js';
import type { Hub } from './hub.js';
import type { OutageNotices } from './outage.js';
import { OpenPace } from './open-pace.js';

const LEASE_MS = 30_000;
/** Seconds a refused client is told to wait (the stream's own reconnect delay). */
const RETRY_AFTER_S = 5;

// KEYS[1] the key's lease set; times are Redis's own clock, so replicas' clocks do not matter.
// Admit: ARGV limit, lease ms, member; 1 = admitted, 0 = full. Renew: ARGV lease ms, members...
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const ADMIT_SCRIPT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;
const RENEW_SCRIPT = `${NOW}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ldsStreamAdmit(key: string, limit: number, leaseMs: number, member: string): Result<number, Context>;
    ldsStreamRenew(key: string, leaseMs: number, ...members: string[]): Result<number, Context>;
  }
}

/** What the two transports share: the hub, the outage notices and this guard. */
export interface Streams {
  hub: Hub;
  outage: OutageNotices;
  guard: StreamGuard;
}

/** One admitted stream. */
export interface Lease {
  readonly keyId: string;
  readonly member: string;
  /** closes the stream (set by the transport once it is open) */
  end?: () => void;
}

export interface StreamGuardOptions {
  /** the primary: a revocation is written there */
  db: Pool;
  redis?: RedisClient;
  /** streams per key by tier; a tier not listed gets the standard one's */
  limits: Record<string, number>;
  /** how often the keys of open streams are checked for revocation */
  checkMs: number;
  /** stream openings a second per key in this process (0 = no pacing) */
  opensPerSec?: number;
  /** forgets cached answers for a revoked key */
  forget(apiKeyId: string): void;
  log: { warn(obj: object, msg: string): void };
  prefix?: string;
}

export class StreamGuard {
  private readonly open = new Map<string, Set<Lease>>();
  private readonly process = randomBytes(6).toString('hex');
  private next = 0;
  private checking = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly prefix: string;
  private readonly pace: OpenPace;
  /** streams waiting for their moment to open, by their socket: closed when the server stops */
  private readonly waiting = new Map<Socket, () => void>();

  constructor(private readonly o: StreamGuardOptions) {
    this.prefix = o.prefix ?? 'lds:st';
    this.pace = new OpenPace(o.opensPerSec ?? 0);
    const redis = o.redis;
    if (redis) {
      // pipelined: a crowd of streams opening sends many of these in one turn
      defineScript(redis, 'ldsStreamAdmit', 1, ADMIT_SCRIPT);
      defineScript(redis, 'ldsStreamRenew', 1, RENEW_SCRIPT);
    }
    this.timers.push(setInterval(() => void this.checkRevoked(), o.checkMs));
    if (redis) this.timers.push(setInterval(() => this.renew(), LEASE_MS / 3));
    for (const t of this.timers) t.unref();
  }

  limitOf(tier: string): number {
    const l = this.o.limits;
    return l[tier] ?? l.standard ?? Math.min(...Object.values(l));
  }

  /** Admits a stream for the key, or throws 429 stream_limit (503 when the shared count cannot be reached). */
  async admit(key: KeyLookup): Promise<Lease> {
    const limit = this.limitOf(key.tier);
    const lease: Lease = { keyId: key.api_key_id, member: `${this.process}:${this.next++}` };
    let admitted: boolean;
    const redis = this.o.redis;
    if (redis) {
      if (redis.down) throw unavailable();
      try {
        admitted = (await redis.ldsStreamAdmit(this.setOf(lease.keyId), limit, LEASE_MS, lease.member)) === 1;
      } catch {
        throw unavailable();
      }
    } else admitted = (this.open.get(lease.keyId)?.size ?? 0) < limit;
    if (!admitted) {
      throw new ApiError(
        'stream_limit',
        `This key already holds its ${limit} concurrent streams (SSE and WebSocket together); close one, then retry.`,
        { limit },
        { 'Retry-After': RETRY_AFTER_S },
      );
    }
    let set = this.open.get(lease.keyId);
    if (!set) this.open.set(lease.keyId, (set = new Set()));
    set.add(lease);
    return lease;
  }

  /**
   * Waits for the admitted stream's moment to open (the key's pace); false when its client left
   * meanwhile or the server is stopping (its slot is then freed and its socket closed).
   */
  async opening(lease: Lease, socket: Socket): Promise<boolean> {
    const { wait, release } = this.pace.reserve(lease.keyId);
    if (wait === 0) return true;
    return new Promise<boolean>((resolve) => {
      const done = (open: boolean) => {
        clearTimeout(timer);
        socket.off('close', gone);
        this.waiting.delete(socket);
        if (!open) {
          release();
          this.release(lease);
          socket.destroy();
        }
        resolve(open && !socket.destroyed);
      };
      const gone = () => done(false);
      const timer = setTimeout(() => done(true), wait);
      socket.once('close', gone);
      this.waiting.set(socket, gone);
      if (socket.destroyed) gone();
    });
  }

  /** Streams waiting for their moment to open in this process. */
  waitingToOpen(): number {
    return this.waiting.size;
  }

  /** Frees the stream's slot; idempotent. */
  release(lease: Lease): void {
    const set = this.open.get(lease.keyId);
    if (!set?.delete(lease)) return;
    if (set.size === 0) this.open.delete(lease.keyId);
    this.o.redis?.zrem(this.setOf(lease.keyId), lease.member).catch(() => undefined); // the lease expires anyway
  }

  /** Stops the checks, and ends the streams still waiting to open (the server is stopping). */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    for (const gone of [...this.waiting.values()]) gone();
  }

  private setOf(keyId: string): string {
    return `${this.prefix}:${keyId}`;
  }

  private renew(): void {
    const redis = this.o.redis;
    if (!redis || this.open.size === 0 || redis.down) return;
    // A missed renewal is retried at the next one, within the lease.
    for (const [keyId, set] of this.open) {
      redis.ldsStreamRenew(this.setOf(keyId), LEASE_MS, ...[...set].map((l) => l.member)).catch(() => undefined);
    }
  }

  /** One query for every key with open streams; the streams of a revoked key end with a final error. */
  private async checkRevoked(): Promise<void> {
    if (this.checking || this.open.size === 0) return;
    this.checking = true;
    try {
      const { rows } = await this.o.db.query<{ api_key_id: string }>(
        `SELECT api_key_id FROM api_keys WHERE api_key_id = ANY ($1::text[]) AND revoked_at IS NOT NULL`,
        [[...this.open.keys()]],
      );
      for (const { api_key_id: id } of rows) {
        this.o.forget(id);
        for (const lease of [...(this.open.get(id) ?? [])]) {
          lease.end?.();
          this.release(lease);
        }
      }
    } catch (err) {
      // While the database is away no key can be revoked (that is a write there): checked again next time.
      if (!isDatabaseUnavailable(err)) this.o.log.warn({ err }, 'stream key check failed');
    } finally {
      this.checking = false;
    }
  }
}

function unavailable(): ApiError {
  return new ApiError(
    'service_unavailable',
    'The stream limit check is temporarily unavailable; retry shortly.',
    {},
    { 'Retry-After': 1 },
  );
}
