// Operations endpoints: GET /v1/ready (readiness for load balancers: database, bus and Redis
// reachable, relay lag) and GET /metrics (Prometheus text format; bearer METRICS_TOKEN when set,
// otherwise direct loopback callers of a loopback-bound server only). /v1/health stays pure liveness.
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logFailure } from '../db/health.js';
import { isLoopbackHost } from '../config.js';
import { ApiError } from '../http/errors.js';
import { ErrorSchema } from '../http/schemas.js';
import {
  deliveriesByStatus,
  httpDuration,
  httpRequests,
  queueDepth,
  registry,
  relayLag,
  relayUnpublished,
  streamConnections,
  streamOpensWaiting,
} from '../metrics/registry.js';

const ReadySchema = Type.Object({
  ready: Type.Boolean(),
  checks: Type.Object({
    database: Type.Boolean(),
    bus: Type.Boolean(),
    redis: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'null when REDIS_URL is not set or this process serves neither api nor stream',
    }),
    relay: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'false while the relay of this process is active and cannot publish to the bus; null when it runs no relay',
    }),
  }),
  relay_lag_seconds: Type.Union([Type.Number(), Type.Null()]),
  roles: Type.Array(Type.String()),
  ts: Type.String({ format: 'date-time' }),
});

/** Upper bound on how long a readiness probe may wait for any one dependency. */
const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

async function lagSeconds(app: FastifyInstance): Promise<number> {
  const { rows } = await app.db.query<{ lag: number | null }>(
    `SELECT extract(epoch FROM clock_timestamp() - min(created_at))::float8 AS lag FROM changes WHERE seq IS NULL`,
  );
  return Math.max(0, rows[0]?.lag ?? 0);
}

export interface StreamCounts {
  connections(): number;
  waitingToOpen(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counters of the stream plugin, summed on scrape into lds_stream_connections (open streams)
     * and lds_stream_opens_waiting (admitted streams waiting for their moment to open). The stream
     * plugin is encapsulated (its decorations are invisible here), so it registers its counts in
     * this root-level set instead.
     */
    streamSources: Set<StreamCounts>;
  }
}

// A proxy on the same host (nginx, a sidecar) connects from loopback on behalf of anyone, so a
// request carrying forwarding headers is never taken for a local one.
const FORWARDING = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host', 'via'];

function isDirectLoopback(req: FastifyRequest): boolean {
  const ip = req.socket.remoteAddress ?? '';
  if (ip !== '127.0.0.1' && ip !== '::1' && ip !== '::ffff:127.0.0.1') return false;
  return !FORWARDING.some((h) => req.headers[h] !== undefined);
}

/**
 * Who may read /metrics: with METRICS_TOKEN, whoever sends it as a bearer token; without it, only a
 * direct loopback caller of a server bound to loopback. A server bound to a public address
 * without a token serves /metrics to nobody (it warns at start): the socket address alone cannot
 * tell a scraper from the internet behind a proxy.
 */
function metricsAllowed(app: FastifyInstance, req: FastifyRequest): boolean {
  const token = app.config.metricsToken;
  if (token) return req.headers.authorization === `Bearer ${token}`;
  return isLoopbackHost(app.config.host) && isDirectLoopback(req);
}

// fastify-plugin so the onResponse hook sees every route, not only the ones declared here.
export const opsPlugin = fp(
  async function ops(app: FastifyInstance) {
    app.decorate('streamSources', new Set<StreamCounts>());
    if (!app.config.metricsToken && !isLoopbackHost(app.config.host)) {
      app.log.warn({ host: app.config.host }, '/metrics is disabled: HOST is not loopback and METRICS_TOKEN is unset');
    }

    // Callback style: an async hook would cost a promise on every response.
    app.addHook('onResponse', (req, reply, done) => {
      const route = req.routeOptions.url ?? 'unmatched';
      httpRequests.inc({ route, method: req.method, status: String(reply.statusCode) });
      if (!String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream'))
        httpDuration.observe({ route, method: req.method }, reply.elapsedTime / 1000);
      done();
    });

    app.get(
      '/v1/ready',
      {
        config: { public: true, probe: true },
        schema: {
          operationId: 'getReadiness',
          summary: 'Readiness for load balancers: database, bus and Redis reachable, relay publishing, relay lag',
          description:
            'Public; the X-API-Key header is not read (a probe). Answers 200 when this process can serve traffic. When a dependency is unreachable it answers 503 with the error envelope (code service_unavailable, the message naming the failing dependencies) and the same checks (relay is false while the relay of this process is active and its publishes to the bus fail, e.g. a NATS server that lost its JetStream store, until the stream is re-created), relay_lag_seconds, roles and ts inside `error`. relay_lag_seconds is the age of the oldest change not yet published (informational; a lagging relay does not make API processes unready).',
          tags: ['Meta'],
          response: { 200: ReadySchema, 503: ErrorSchema },
        },
      },
      async (_req, reply) => {
        const redis = app.redis;
        const [database, lag, redisOk] = await Promise.all([
          withTimeout(app.db.query('SELECT 1')).then(
            () => true,
            () => false,
          ),
          withTimeout(lagSeconds(app)).catch(() => null),
          // Known down: no ping queued behind the reconnection; otherwise a real round trip.
          !redis
            ? Promise.resolve(null)
            : redis.down
              ? Promise.resolve(false)
              : withTimeout(redis.ping()).then(
                  () => true,
                  () => false,
                ),
        ]);
        const bus = app.bus ? app.bus.healthy() : true;
        const relay = app.relay ? !app.relay.publishFailing() : null;
        const ready = database && bus && redisOk !== false && relay !== false;
        const body = {
          ready,
          checks: { database, bus, redis: redisOk, relay },
          relay_lag_seconds: lag,
          roles: app.config.roles,
          ts: app.clock().toISOString(),
        };
        if (ready) return reply.send(body);
        // Every non-2xx carries the envelope; the checks travel inside `error` for probes that read them.
        const failing = Object.entries(body.checks)
          .filter(([, ok]) => ok === false)
          .map(([name]) => (name === 'relay' ? 'relay cannot publish to the bus' : `${name} unreachable`));
        throw new ApiError('service_unavailable', `Not ready: ${failing.join(', ')}.`, body);
      },
    );

    app.get(
      '/metrics',
      {
        config: { public: true },
        schema: { hide: true },
      },
      async (req, reply) => {
        if (!metricsAllowed(app, req)) throw new ApiError('not_found');
        await collectDatabaseGauges(app).catch((err) =>
          logFailure(app.db, req.log, 'warn', err, 'metrics: database gauges unavailable'),
        );
        let open = 0;
        let waiting = 0;
        for (const s of app.streamSources) {
          open += s.connections();
          waiting += s.waitingToOpen();
        }
        streamConnections.set(open);
        streamOpensWaiting.set(waiting);
        return reply.type(registry.contentType).send(await registry.metrics());
      },
    );
  },
  {
    name: 'lds-ops',
    fastify: '5.x',
    // Readiness answers 503 in the envelope; it checks the root's pool, bus and Redis client.
    dependencies: ['lds-envelope'],
    decorators: { fastify: ['config', 'db', 'redis', 'bus', 'relay', 'clock'] },
  },
);

async function collectDatabaseGauges(app: FastifyInstance) {
  relayLag.set(await lagSeconds(app));
  const rs = await app.db.query<{ n: number }>(
    'SELECT greatest(last_seq - published_seq, 0)::int AS n FROM relay_state WHERE id = 1',
  );
  relayUnpublished.set(rs.rows[0]?.n ?? 0);
  const { rows } = await app.db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM deliveries GROUP BY status`,
  );
  let waiting = 0;
  for (const s of ['pending', 'in_flight', 'delivered', 'failed', 'cancelled']) {
    const n = rows.find((r) => r.status === s)?.n ?? 0;
    deliveriesByStatus.set({ status: s }, n);
    if (s === 'pending' || s === 'in_flight') waiting += n;
  }
  queueDepth.set(waiting);
}
