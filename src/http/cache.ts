// ETag and Cache-Control for successful GETs.
//
// Lifetimes: /v1/states and /v1/sessions one hour and /v1/status 60 seconds (the spec's lifetimes),
// /v1/coverage five minutes (its snapshot age). States and sessions are `private, max-age=3600`:
// their bodies are the same for everyone, but the endpoints need a key and each response carries
// that key's X-RateLimit-* headers, so a shared cache (CDN, corporate proxy) must not store them and
// serve them to callers without a key (which would bypass authentication and the limits); the
// client's own cache keeps them for the hour and revalidates with If-None-Match (304, counted like
// any other request). No `Vary: X-API-Key` is needed since only private caches store them. Status and
// coverage are public endpoints and may be shared. Every other JSON GET is `private, no-cache`: a
// client may store it but must revalidate, which the ETag makes cheap (304).
// A route can set its own lifetime with `config: { cacheSeconds }`.
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Cache-Control max-age for successful GETs of this route */
    cacheSeconds?: number;
  }
}

const LIFETIMES: Record<string, string> = {
  '/v1/states': 'private, max-age=3600',
  '/v1/sessions': 'private, max-age=3600',
  '/v1/status': 'public, max-age=60',
  '/v1/coverage': 'public, max-age=300',
};

function cacheControl(req: FastifyRequest): string {
  // read once: Fastify builds a new routeOptions object on every read
  const { config, url } = req.routeOptions;
  const own = config?.cacheSeconds;
  if (own !== undefined) return `${config?.public ? 'public' : 'private'}, max-age=${own}`;
  return LIFETIMES[url ?? ''] ?? 'private, no-cache';
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

// Callback style (not async): it runs on every response. Only 200 JSON answers to GET/HEAD are
// hashed, once; error envelopes and other types pass straight through.
export function etagOnSend(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, value?: unknown) => void,
) {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200 || req.is404)
    return done(null, payload);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json')) return done(null, payload);
  if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', cacheControl(req));
  // One-shot hash: no Hash object per response.
  const etag = `"${hash('sha1', payload, 'base64url')}"`;
  reply.header('ETag', etag);
  const inm = req.headers['if-none-match'];
  if (inm && matches(inm, etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    return done(null, '');
  }
  done(null, payload);
}
