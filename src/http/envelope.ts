// Request ids and the error envelope for every non-2xx response: unknown routes, validation
// failures, bad JSON, oversized bodies and unhandled errors alike. 5xx never carry internals;
// they are logged with the stack and the request id.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseStatus, isDatabaseUnavailable } from '../db/health.js';
import type { KeyLookup } from '../keys/store.js';
import { ApiError, ERROR_CATALOGUE, type ErrorCode, errorBody } from './errors.js';
import { RouteTable } from './methods.js';
import { ErrorSchema } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** reachable without an API key */
    public?: boolean;
    /** a probe (liveness, readiness): X-API-Key is never read, so it is never checked, counted or limited */
    probe?: boolean;
    /** query parameters for which an empty value is meaningful (every other empty one is 400) */
    emptyParams?: readonly string[];
  }
  interface FastifyRequest {
    /** the authenticated API key (set by the auth hook; absent on public routes called without a key) */
    apiKey?: KeyLookup;
  }
  interface FastifyInstance {
    /** every registered route (patterns and methods), for 405 answers and the OpenAPI check */
    routeTable: RouteTable;
  }
  interface FastifyReply {
    /** Sends the error envelope for a catalogue code. */
    sendError(code: ErrorCode, message?: string, extra?: Record<string, unknown>): FastifyReply;
  }
}

const EMPTY_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'bad_request', 401: 'unauthorized', 404: 'not_found', 405: 'method_not_allowed', 413: 'payload_too_large',
  415: 'unsupported_media_type', 429: 'rate_limit_exceeded', 500: 'internal_error', 503: 'service_unavailable',
};

export const DATABASE_DOWN_MESSAGE = 'The service is temporarily unavailable; retry shortly.';

function fromFastifyError(err: FastifyError): ApiError {
  if (err instanceof ApiError) return err;
  if (err.validation) {
    const v = err.validation[0];
    const where = err.validationContext ?? 'request';
    const field = v?.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : (v?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const msg = field ? `Invalid ${where} parameter '${field}': ${v?.message ?? 'invalid value'}.` : `Invalid ${where}: ${v?.message ?? 'invalid value'}.`;
    return new ApiError('bad_request', msg, field ? { field } : {});
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('bad_request', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('bad_request', 'The Content-Length header does not match the body.');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 404) return new ApiError('not_found');
    if (err.statusCode === 429) return new ApiError('rate_limit_exceeded', undefined, {}, { 'Retry-After': 1 }); // every 429 carries it
    return new ApiError('bad_request', err.message);
  }
  // A statement cut by the read pool's statement_timeout (57014 query_canceled; a cancel because
  // the client hung up raises the same code, but nobody is left to read that answer).
  if (pgCode(err) === '57014') return new ApiError('query_timeout');
  // Safety net: a PostgreSQL data exception (class 22: bad datetime, out-of-range number, invalid
  // text representation, ...) can only come from a value a client sent that validation let pass;
  // it is the client's 400, never a 500 and never a database outage.
  if (/^22[0-9A-Z]{3}$/.test(pgCode(err))) return new ApiError('bad_request', 'A parameter value is out of range or malformed.');
  // PostgreSQL restarting or unreachable: a retryable 503, never a 500, and nothing about why.
  if (isDatabaseUnavailable(err)) return new ApiError('service_unavailable', DATABASE_DOWN_MESSAGE, {}, { 'Retry-After': 1 });
  return new ApiError('internal_error');
}

function pgCode(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  // pg's DatabaseError carries the SQLSTATE as code; Node and Fastify errors use other shapes.
  return typeof code === 'string' && (err as { severity?: unknown }).severity !== undefined ? code : '';
}

function envelopeFor(base: string, req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  let frameworkCode: string | undefined;
  if (payload !== undefined && payload !== null && payload !== '') {
    if (typeof payload !== 'string' || !payload.startsWith('{"error":"')) return payload;
    try {
      frameworkCode = (JSON.parse(payload) as { code?: string }).code ?? '';
    } catch {
      return payload;
    }
  }
  if (reply.statusCode === 414) reply.code(400);
  const code = EMPTY_ERROR_CODES[reply.statusCode] ?? (reply.statusCode >= 500 ? 'internal_error' : 'bad_request');
  let message: string = ERROR_CATALOGUE[code].message;
  if (frameworkCode === 'FST_ERR_MAX_PARAM_LENGTH') message = 'A path parameter is too long.';
  else if (frameworkCode === 'FST_ERR_BAD_URL') message = 'The URL is not valid (bad percent-encoding).';
  else if (reply.statusCode === 404 && (req.routeOptions as { websocket?: boolean }).websocket) message = 'This endpoint speaks WebSocket only: send an Upgrade: websocket request.';
  reply.type('application/json; charset=utf-8');
  reply.removeHeader('content-length');
  return JSON.stringify(errorBody(base, code, message, String(req.id)));
}

export const envelopePlugin = fp(async function envelope(app: FastifyInstance) {
  const base = () => app.config.publicBaseUrl;

  // A request reaching a closing server (a keep-alive connection, a pipelined request) is sent
  // elsewhere with a 503 in the envelope, as Fastify's return503OnClosing would without it.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // Callback style (not async): this runs on every request and an async hook costs a promise.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    if (closing) {
      reply.header('Connection', 'close').header('Retry-After', 1);
      reply.sendError('service_unavailable', 'The server is shutting down; retry (another instance will answer).');
      return;
    }
    done();
  });

  app.decorateReply('sendError', function sendError(this: FastifyReply, code: ErrorCode, message?: string, extra: Record<string, unknown> = {}) {
    const entry = ERROR_CATALOGUE[code];
    return this.code(entry.status).type('application/json; charset=utf-8').send(errorBody(base(), code, message ?? entry.message, String(this.request.id), extra));
  });

  app.setErrorHandler(async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const apiErr = fromFastifyError(err);
    if (apiErr.message === DATABASE_DOWN_MESSAGE && !(err instanceof ApiError)) {
      // An outage fails every request the same way: no stack, no error line per request (the
      // access log has the 503s); the pool's status logs the outage once and tells open streams.
      req.log.debug({ request_id: req.id, reason: err.message }, 'database unavailable');
      databaseStatus(app.db).failed(err);
    } else if (apiErr.status >= 500 && !(err instanceof ApiError)) req.log.error({ err, request_id: req.id }, 'unhandled error');
    for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
    return reply.sendError(apiErr.code, apiErr.message, apiErr.extra);
  });

  // Safety net for answers that bypass the error handler: an error with no body (e.g.
  // @fastify/websocket's 404 to a GET without Upgrade) or Fastify's own router errors (malformed
  // URL encoding, over-long path parameter: 414 becomes 400 bad_request, an id that long is
  // malformed). Every non-2xx still carries the envelope.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode < 400 || req.method === 'HEAD') return done(null, payload);
    done(null, envelopeFor(base(), req, reply, payload));
  });

  const routes = new RouteTable();
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    routes.add(route);
    // Every keyed route reads the key store (and its data) in PostgreSQL, so each can answer 503
    // service_unavailable while the database is down or restarting: document it on all of them.
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    if (response && response[401] !== undefined && response[503] === undefined) response[503] = ErrorSchema;
  });

  // Unknown paths and wrong methods need no key and count against no limit: they touch no data.
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = routes.allowed(path);
    if (allowed && !allowed.includes(req.method)) {
      reply.header('Allow', allowed.join(', '));
      return reply.sendError('method_not_allowed', `${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`);
    }
    return reply.sendError('not_found', `No endpoint ${req.method} ${path}.`);
  });
}, { name: 'lds-envelope', fastify: '5.x', decorators: { fastify: ['config'] } });

/**
 * Fastify's `frameworkErrors` option: router-level failures (malformed percent-encoding, a path
 * parameter over maxParamLength) are answered before any route or hook runs; without this they
 * would bypass the envelope. Both mean a malformed request, so 400 bad_request.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const base = (req.server as FastifyInstance | undefined)?.config?.publicBaseUrl ?? '';
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : err.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid (bad percent-encoding).' : 'The request is malformed.';
  reply.code(400).header('X-Request-Id', String(req.id)).header('Access-Control-Allow-Origin', '*').type('application/json; charset=utf-8');
  reply.send(JSON.stringify(errorBody(base, 'bad_request', message, String(req.id))));
}
