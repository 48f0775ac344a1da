// Composition root: builds the Fastify app from plugins. Tests import buildApp, never the server.
// buildApp(config, deps) receives ready connections (pools, bus, redis) so tests can swap an edge
// (clock, outbound HTTP) while keeping the real PostgreSQL.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { Logger } from './logger.js';
import type { ChangeBus } from './changes/events.js';
import type { App } from './http/app-type.js';
import { clientErrorHandler } from './http/client-errors.js';
import { AccessLog } from './http/access-log.js';
import { envelopePlugin, frameworkErrors } from './http/envelope.js';
import { requestIdPlugin } from './http/closing.js';
import { routeTablePlugin } from './http/route-table.js';
import { httpPlugin } from './http/index.js';
import { unknownParamsPlugin } from './http/unknown-params.js';
import { bulkRoutes } from './bulk/routes.js';
import { partAwareValidators } from './http/validators.js';
import { apiPlugin } from './api/index.js';
import { healthRoutes } from './api/health.js';
import { realtimePlugin } from './changes/plugin.js';
import { streamPlugin } from './stream/plugin.js';
import { webhooksPlugin } from './webhooks/plugin.js';
import { mirrorPlugin } from './mirror/plugin.js';
import { dashboardPlugin } from './dashboard.js';
import { opsPlugin } from './ops/plugin.js';
import type { RedisClient } from './redis/client.js';
import type { DeliveryKinds } from './webhooks/delivery/kinds.js';
import type { Outbound } from './webhooks/delivery/outbound.js';

export interface AppDeps {
  /** primary pool: writes and read-your-writes */
  db: Pool;
  /** optional read replica pool for read endpoints and stream resume */
  dbRead?: Pool;
  /** pool of expensive reads (text search, substring filters, deep offsets); dbRead when absent */
  dbExpensive?: Pool;
  /** pool of stream catch-ups from the change log; dbRead when absent */
  dbStream?: Pool;
  logger?: Logger | false;
  /** the bus the stream hub subscribes to; the in-process bus when absent */
  bus?: ChangeBus;
  /** the process's Redis client when REDIS_URL is set (limits, stream caps and readiness share it);
   * absent: no Redis for this app (counters in this process; a process serving neither api nor
   * stream counts no requests, and its readiness does not depend on Redis) */
  redis?: RedisClient;
  /** the process's guarded outbound HTTP (SSRF checks at connect time): webhook and mirror test sends */
  outbound: Outbound;
  /** the subscription kinds this process delivers (src/delivery-kinds.ts) */
  kinds: DeliveryKinds;
  clock?: () => Date;
  /** connection string of the primary (the stream listener needs its own connection) */
  databaseUrl?: string;
  /** the relay this process runs, if any: readiness reports whether it can publish */
  relay?: { publishFailing(): boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Pool;
    dbRead: Pool;
    dbExpensive: Pool;
    dbStream: Pool;
    /** the process's Redis client (limits, stream caps, readiness); undefined without Redis */
    redis: RedisClient | undefined;
    /** the bus the stream hub subscribes to and readiness checks */
    bus: ChangeBus | undefined;
    /** the relay this process runs, if any (readiness) */
    relay: { publishFailing(): boolean } | undefined;
    /** guarded outbound HTTP for test sends, shared with the process's delivery worker */
    outbound: Outbound;
    /** the subscription kinds this process delivers */
    kinds: DeliveryKinds;
    clock: () => Date;
  }
}

/** The app as route plugins see it: the TypeBox type provider types req.params/query/body and the
 * reply from each route's schema (plugins are typed with FastifyPluginAsyncTypebox). */
export type { App } from './http/app-type.js';

export async function buildApp(config: Config, deps: AppDeps): Promise<App> {
  const app: App = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    genReqId: () => randomUUID(),
    logController: new AccessLog(deps.logger || undefined),
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(() => config.publicBaseUrl),
    bodyLimit: config.bodyLimit,
    // Slow-client protection that does not cut the long-lived stream: a request's headers must
    // arrive within HEADERS_TIMEOUT_MS and the whole request, body included, within
    // REQUEST_TIMEOUT_MS (checked every second), else 408 and the connection is closed. Node
    // bounds only the receipt of the request, not the response, so /v1/stream and WebSocket
    // responses still live for minutes (their request is complete as soon as its headers are).
    serverFactory: (handler) => {
      const requestTimeout = Math.max(config.requestTimeoutMs, config.headersTimeoutMs);
      const server = http.createServer(
        { headersTimeout: config.headersTimeoutMs, requestTimeout, connectionsCheckingInterval: 1000 },
        handler,
      );
      server.keepAliveTimeout = 72_000;
      return server;
    },
    connectionTimeout: 0,
    requestTimeout: 0,
    // Fastify's own 503 while closing has a body of its own; the envelope plugin answers instead.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false, useDefaults: true },
    },
    // Coercion for query strings, path parameters and headers only; JSON bodies are taken as sent.
    schemaController: { compilersFactory: { buildValidator: partAwareValidators() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', deps.db);
  app.decorate('dbRead', deps.dbRead ?? deps.db);
  app.decorate('dbExpensive', deps.dbExpensive ?? deps.dbRead ?? deps.db);
  app.decorate('dbStream', deps.dbStream ?? deps.dbRead ?? deps.db);
  // Each dependency is its own decorator, read by the plugins that need it (one way to reach one).
  // The process root (server.ts) makes and closes these, once per process: the app only uses them.
  app.decorate('redis', deps.redis);
  app.decorate('bus', deps.bus);
  app.decorate('relay', deps.relay);
  app.decorate('outbound', deps.outbound);
  app.decorate('kinds', deps.kinds);
  app.decorate('clock', deps.clock ?? (() => new Date()));

  await app.register(envelopePlugin);
  await app.register(requestIdPlugin);
  await app.register(routeTablePlugin);
  await app.register(unknownParamsPlugin);
  await app.register(httpPlugin);
  await app.register(opsPlugin);
  // Roles decide which routes a process serves: `api` the JSON endpoints, `stream` the event
  // stream. Health, readiness and metrics are served by every HTTP process.
  const roles = new Set(config.roles);
  if (roles.has('api')) {
    await app.register(apiPlugin);
    await app.register(realtimePlugin);
    await app.register(bulkRoutes);
    await app.register(webhooksPlugin);
    await app.register(mirrorPlugin);
    await app.register(dashboardPlugin);
  } else {
    await app.register(healthRoutes);
  }
  if (roles.has('stream')) await app.register(streamPlugin);
  return app;
}
