// Cross-cutting HTTP plumbing shared by every endpoint: CORS, authentication and limits, ETag and
// Cache-Control, compression, OpenAPI and docs. Registered with fastify-plugin so the hooks apply
// to every route registered after it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import { authHook, KeyCache } from './auth.js';
import { etagOnSend } from './cache.js';
import { refuseControlCharacters } from './control.js';
import { docsPlugin } from './docs.js';
import { MemoryLimiter, RedisLimiter, type Limiter } from './limits.js';
import { retryLog } from '../db/health.js';
import { expensiveReadGate } from './expensive-reads.js';

declare module 'fastify' {
  interface FastifyInstance {
    limiter: Limiter;
    keyCache: KeyCache;
  }
}

const EXPOSED = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
];
const FLUSH_EVERY_MS = 3000;

export const httpPlugin = fp(
  async function http(app: FastifyInstance) {
    await app.register(cors, {
      origin: '*',
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['X-API-Key', 'Content-Type', 'Last-Event-ID', 'If-None-Match', 'Accept', 'Accept-Encoding'],
      exposedHeaders: EXPOSED,
      maxAge: 86400,
      strictPreflight: false,
    });

    // The process's Redis client comes from the composition root (app.ts / server.ts), shared with
    // readiness; it is never created here.
    const redis = app.redis;
    const limiter: Limiter = redis ? new RedisLimiter(app.db, redis) : new MemoryLimiter(app.db);
    const keys = new KeyCache(app.db, app.config.keyCacheMs, Date.now, app.config.keyOutageGraceMs);
    app.decorate('limiter', limiter);
    app.decorate('keyCache', keys);
    app.decorate(
      'expensiveReads',
      expensiveReadGate(
        redis,
        {
          msPerSec: app.config.expensiveReadMsPerSec,
          burstMs: app.config.expensiveReadBurstMs,
          slots: app.config.expensiveReadsPerKey,
        },
        app.config.readStatementTimeoutMs,
      ),
    );

    // Counts wait in memory while the database is down: one warning per outage, one line when it works again.
    const flushFailures = retryLog(app.log, 'usage flush failed; the counts are kept and flushed later');
    const timer = setInterval(
      () =>
        limiter.flush().then(
          () => flushFailures.ok(),
          (err) => flushFailures.failed(err),
        ),
      FLUSH_EVERY_MS,
    );
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await limiter.close().catch((err) => app.log.warn({ err }, 'usage flush on close failed'));
    });

    app.addHook('onRequest', authHook(app, keys, limiter));
    app.addHook('preValidation', refuseControlCharacters);
    // Before compression, so the ETag is computed over the JSON text.
    app.addHook('onSend', etagOnSend);
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip', 'deflate'],
      threshold: 1024,
      // JSON and the docs assets only: never text/event-stream, whose events must not sit in a buffer.
      customTypes: /^(application\/(json|javascript|problem\+json)|text\/(html|css|javascript|plain))(;|$)/,
      brotliOptions: { params: { 1: 4 } },
    });
    await app.register(docsPlugin);
  },
  {
    name: 'lds-http',
    fastify: '5.x',
    // Errors of the auth hook are answered in the envelope; the pools, config and Redis client come from the root.
    dependencies: ['lds-envelope'],
    decorators: { fastify: ['config', 'db', 'redis'] },
  },
);
