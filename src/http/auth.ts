// X-API-Key authentication and the limits, run once per request in onRequest.
//
// Only the X-API-Key header is read: Authorization: Bearer and ?api_key= are ignored on purpose, so
// a key never ends up in URLs, proxy logs or browser history. Lookups are cached in-process for
// KEY_CACHE_MS (default 2 s), which bounds how late a revocation is seen on every replica. Misses are
// cached too, for at most one second, so a key-guessing flood does not reach PostgreSQL on every
// request while a just-issued key still works within the TTL.
//
// This is the hot path of every authenticated request, so it is a callback-style hook (no promise
// when the key is cached and the limiter answers synchronously) and the cache is keyed by the raw
// header value (no hash per request; findKey hashes on a miss).
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { findKey, type KeyLookup } from '../keys/store.js';
import type { Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';
import { period, type Limiter, type LimitOutcome } from './limits.js';
import { RedisDownError } from '../redis/client.js';
import { isDatabaseUnavailable } from '../db/health.js';

/** Bounds the cache (and the memory a flood of random keys can take); cleared when full. */
const MAX_CACHE_ENTRIES = 50_000;
const LAST_USED_EVERY_MS = 60_000;
/** Longer values cannot be keys; they are refused without a lookup or a cache entry. */
const MAX_KEY_LENGTH = 200;

type Entry = { key: KeyLookup | null; expires: number };

export class KeyCache {
  private entries = new Map<string, Entry>();
  /** the last answer the database gave for each key that exists, and when, for outages */
  private known = new Map<string, { key: KeyLookup; at: number }>();
  private inflight = new Map<string, Promise<KeyLookup | null>>();
  private lastTouched = new Map<string, number>();

  constructor(
    private db: Queryable,
    private ttlMs: number,
    private now: () => number = Date.now,
    /**
     * While the database is unreachable, a key the database answered for within this long is
     * served from that answer (KEY_OUTAGE_GRACE_MS): a stream that reconnects during an outage
     * gets its 200 (and `event: error` inside) instead of a 503 that EventSource treats as final.
     */
    private outageGraceMs = 0,
  ) {}

  /** The cached answer for a raw key: a key, null (known unknown) or undefined (not cached). */
  peek(raw: string): KeyLookup | null | undefined {
    const hit = this.entries.get(raw);
    if (hit === undefined) return undefined;
    if (hit.expires > this.now()) return hit.key;
    this.entries.delete(raw);
    return undefined;
  }

  lookup(raw: string): Promise<KeyLookup | null> {
    const hit = this.peek(raw);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.inflight.get(raw);
    if (pending) return pending;
    const p = findKey(this.db, raw)
      .then(
        (key) => {
          if (this.entries.size >= MAX_CACHE_ENTRIES) this.entries.clear();
          const ttl = key ? this.ttlMs : Math.min(this.ttlMs, 1000);
          if (ttl > 0) this.entries.set(raw, { key: key ?? null, expires: this.now() + ttl });
          if (key && this.outageGraceMs > 0) {
            if (this.known.size >= MAX_CACHE_ENTRIES) this.known.clear();
            this.known.set(raw, { key, at: this.now() });
          }
          return key ?? null;
        },
        (err: unknown) => {
          const last = this.known.get(raw);
          if (last && isDatabaseUnavailable(err) && this.now() - last.at <= this.outageGraceMs) return last.key;
          throw err;
        },
      )
      .finally(() => this.inflight.delete(raw));
    this.inflight.set(raw, p);
    return p;
  }

  /** Forgets every answer about a key (it was found revoked), so the next request asks the database. */
  forget(apiKeyId: string): void {
    for (const [raw, e] of this.entries) if (e.key?.api_key_id === apiKeyId) this.entries.delete(raw);
    for (const [raw, e] of this.known) if (e.key.api_key_id === apiKeyId) this.known.delete(raw);
  }

  /** Records last use at most once a minute per key; never delays the request. */
  touch(key: KeyLookup, log: FastifyRequest['log']): void {
    const t = this.now();
    if ((this.lastTouched.get(key.api_key_id) ?? 0) > t - LAST_USED_EVERY_MS) return;
    if (this.lastTouched.size >= MAX_CACHE_ENTRIES) this.lastTouched.clear();
    this.lastTouched.set(key.api_key_id, t);
    this.db
      .query(`UPDATE api_keys SET last_used_at = now() WHERE api_key_id = $1`, [key.api_key_id])
      .catch((err) => log.warn({ err }, 'last_used_at update failed'));
  }
}

function limitError(key: KeyLookup, out: LimitOutcome, now: Date, end: Date): ApiError {
  if (out.ok === false && out.kind === 'burst') {
    return new ApiError(
      'rate_limit_exceeded',
      `Burst limit of ${key.burst_limit} requests per second exceeded; retry after 1 second.`,
      { limit: key.burst_limit, window: '1s' },
      { 'Retry-After': 1 },
    );
  }
  const wait = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
  return new ApiError(
    'rate_limit_exceeded',
    `Monthly cap of ${key.monthly_cap} requests reached; it resets at ${end.toISOString()}.`,
    { limit: key.monthly_cap, used: out.used, resets_at: end.toISOString() },
    { 'Retry-After': wait },
  );
}

/** The key store or the counters could not be reached: fail closed, but as a retryable 503 rather
 * than an opaque 500 (logged with the cause). */
let lastDownLog = 0;
function unavailable(req: FastifyRequest, err: unknown): ApiError {
  // A known Redis outage fails every keyed request at once: log it every few seconds, not per request.
  // A database outage is logged once by the pool's status tracker; per request it is debug detail.
  if (isDatabaseUnavailable(err))
    req.log.debug({ err, request_id: req.id }, 'key check unavailable: database unreachable');
  else if (!(err instanceof RedisDownError))
    req.log.error({ err, request_id: req.id }, 'key check or limit counters unavailable');
  else if (Date.now() - lastDownLog > 5000) {
    lastDownLog = Date.now();
    req.log.error({ request_id: req.id }, 'limit counters unavailable: Redis is down; keyed requests answer 503');
  }
  return new ApiError(
    'service_unavailable',
    'The key check is temporarily unavailable; retry shortly.',
    {},
    { 'Retry-After': 1 },
  );
}

export function authHook(app: FastifyInstance, keys: KeyCache, limiter: Limiter) {
  function limit(req: FastifyRequest, reply: FastifyReply, key: KeyLookup, done: HookHandlerDoneFunction) {
    req.apiKey = key;
    keys.touch(key, req.log);
    const now = app.clock();
    const p = period(now);
    const settle = (out: LimitOutcome) => {
      reply.header('X-RateLimit-Limit', key.monthly_cap);
      reply.header('X-RateLimit-Remaining', Math.max(0, key.monthly_cap - out.used));
      reply.header('X-RateLimit-Reset', p.resetSeconds);
      done(out.ok ? undefined : limitError(key, out, now, p.end));
    };
    const out = limiter.hit(key, now);
    if ('then' in out) out.then(settle, (err: unknown) => done(unavailable(req, err)));
    else settle(out);
  }

  // A 401 closes the connection once it is sent: an unauthenticated client gets no keep-alive
  // socket to hold, and a body it is still trickling is not waited for.
  function refuse(reply: FastifyReply, err: ApiError, done: HookHandlerDoneFunction) {
    reply.header('Connection', 'close');
    done(err);
  }

  function checked(req: FastifyRequest, reply: FastifyReply, key: KeyLookup | null, done: HookHandlerDoneFunction) {
    if (!key) return refuse(reply, new ApiError('invalid_api_key'), done);
    if (key.revoked) return refuse(reply, new ApiError('revoked_api_key'), done);
    limit(req, reply, key, done);
  }

  return function auth(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    // Preflight and unknown paths (404/405) never need a key: they reveal nothing and touch no data.
    // Probes ignore a key: liveness must answer whatever the caller's plan, usage or the key store's
    // state (a client sending its key everywhere got 429 from /v1/health once its cap was spent).
    if (req.method === 'OPTIONS' || req.is404 || req.routeOptions.config?.probe === true) return done();
    const header = req.headers['x-api-key'];
    const raw = Array.isArray(header) ? header[0] : header;
    if (raw === undefined || raw === '') {
      if (req.routeOptions.config?.public === true) return done();
      return refuse(
        reply,
        new ApiError(
          'unauthorized',
          'Send your key in the X-API-Key header (Authorization: Bearer and ?api_key= are not read).',
        ),
        done,
      );
    }
    // A key sent to a public route is checked and counted like anywhere else.
    if (raw.length > MAX_KEY_LENGTH) return refuse(reply, new ApiError('invalid_api_key'), done);
    const cached = keys.peek(raw);
    if (cached !== undefined) return checked(req, reply, cached, done);
    keys.lookup(raw).then(
      (key) => checked(req, reply, key, done),
      (err: unknown) => done(unavailable(req, err)),
    );
  };
}
