// X-API-Key authentication and the limits, run once per request in onRequest.
//
// Only the X-API-Key header is read: Authorization: Bearer and ?api_key= are ignored on purpose, so
// a key never ends up in URLs, proxy logs or browser history. Lookups are cached in-process for
// KEY_CACHE_MS (default 2 s), which bounds how late a revocation is seen on every replica. Misses are
// cached too, for at most one second, so a key-guessing flood does not reach PostgreSQL on every
// request while a just-issued key still works within the TTL.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findKey, type KeyLookup } from '../keys/store.js';
import type { Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';
import { period, type Limiter } from './limits.js';

const MAX_CACHE_ENTRIES = 50_000;
const LAST_USED_EVERY_MS = 60_000;

export class KeyCache {
  private entries = new Map<string, { key: KeyLookup | null; expires: number }>();
  private inflight = new Map<string, Promise<KeyLookup | null>>();
  private lastTouched = new Map<string, number>();

  constructor(
    private db: Queryable,
    private ttlMs: number,
    private now: () => number = Date.now,
  ) {}

  async lookup(raw: string): Promise<KeyLookup | null> {
    const h = createHash('sha256').update(raw, 'utf8').digest('base64');
    const hit = this.entries.get(h);
    if (hit && hit.expires > this.now()) return hit.key;
    const pending = this.inflight.get(h);
    if (pending) return pending;
    const p = findKey(this.db, raw)
      .then((key) => {
        if (this.entries.size >= MAX_CACHE_ENTRIES) this.entries.clear();
        const ttl = key ? this.ttlMs : Math.min(this.ttlMs, 1000);
        if (ttl > 0) this.entries.set(h, { key: key ?? null, expires: this.now() + ttl });
        return key ?? null;
      })
      .finally(() => this.inflight.delete(h));
    this.inflight.set(h, p);
    return p;
  }

  /** Records last use at most once a minute per key; never delays the request. */
  touch(key: KeyLookup, log: FastifyRequest['log']): void {
    const t = this.now();
    if ((this.lastTouched.get(key.api_key_id) ?? 0) > t - LAST_USED_EVERY_MS) return;
    if (this.lastTouched.size >= MAX_CACHE_ENTRIES) this.lastTouched.clear();
    this.lastTouched.set(key.api_key_id, t);
    this.db.query(`UPDATE api_keys SET last_used_at = now() WHERE api_key_id = $1`, [key.api_key_id]).catch((err) => log.warn({ err }, 'last_used_at update failed'));
  }
}

/** Rate-limit headers of an authenticated request, for routes that hijack the reply (SSE). */
export function rateLimitHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id', 'retry-after']) {
    const v = reply.getHeader(h);
    if (v !== undefined) out[h] = String(v);
  }
  return out;
}

function setLimitHeaders(reply: FastifyReply, cap: number, used: number, resetAt: Date) {
  reply.header('X-RateLimit-Limit', cap);
  reply.header('X-RateLimit-Remaining', Math.max(0, cap - used));
  reply.header('X-RateLimit-Reset', Math.floor(resetAt.getTime() / 1000));
}

export function authHook(app: FastifyInstance, keys: KeyCache, limiter: Limiter) {
  return async function auth(req: FastifyRequest, reply: FastifyReply) {
    // Preflight and unknown paths (404/405) never need a key: they reveal nothing and touch no data.
    if (req.method === 'OPTIONS' || req.is404) return;
    const isPublic = req.routeOptions.config?.public === true;
    const header = req.headers['x-api-key'];
    const raw = Array.isArray(header) ? header[0] : header;
    if (raw === undefined || raw === '') {
      if (isPublic) return;
      throw new ApiError('unauthorized', 'Send your key in the X-API-Key header (Authorization: Bearer and ?api_key= are not read).');
    }
    // A key sent to a public route is checked and counted like anywhere else.
    const key = raw.length > 200 ? null : await keys.lookup(raw);
    if (!key) throw new ApiError('invalid_api_key');
    if (key.revoked) throw new ApiError('revoked_api_key');
    req.apiKey = key;
    keys.touch(key, req.log);

    const now = app.clock();
    const { end } = period(now);
    const out = await limiter.hit(key, now);
    setLimitHeaders(reply, key.monthly_cap, out.used, end);
    if (out.ok) return;
    if (out.kind === 'burst') {
      throw new ApiError('rate_limit_exceeded', `Burst limit of ${key.burst_limit} requests per second exceeded; retry after 1 second.`, { limit: key.burst_limit, window: '1s' }, { 'Retry-After': 1 });
    }
    const wait = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
    throw new ApiError(
      'rate_limit_exceeded',
      `Monthly cap of ${key.monthly_cap} requests reached; it resets at ${end.toISOString()}.`,
      { limit: key.monthly_cap, used: out.used, resets_at: end.toISOString() },
      { 'Retry-After': wait },
    );
  };
}
