// The error envelope for every non-2xx response: validation failures, bad JSON, oversized bodies,
// router errors and unhandled errors alike. 5xx never carry internals; a bug is logged with its
// stack and the request id, a database outage once by the pool's status, a client's mistake not
// at all (the access log has it). How an error maps onto the catalogue: error-map.ts.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, type ErrorCode, errorBody } from './errors.js';
import { mapError } from './error-map.js';
import { clientLeft } from './read-budget.js';
import './route-config.js';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends the error envelope for a catalogue code. */
    sendError(code: ErrorCode, message?: string, extra?: Record<string, unknown>): FastifyReply;
  }
}

const EMPTY_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  503: 'service_unavailable',
};

const ROUTER_MESSAGES: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long.',
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding).',
};

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
  let message: string = ROUTER_MESSAGES[frameworkCode ?? ''] ?? ERROR_CATALOGUE[code].message;
  if (reply.statusCode === 404 && (req.routeOptions as { websocket?: boolean }).websocket)
    message = 'This endpoint speaks WebSocket only: send an Upgrade: websocket request.';
  reply.type('application/json; charset=utf-8');
  reply.removeHeader('content-length');
  return JSON.stringify(errorBody(base, code, message, String(req.id)));
}

export const envelopePlugin = fp(
  async function envelope(app: FastifyInstance) {
    const base = () => app.config.publicBaseUrl;

    app.decorateReply(
      'sendError',
      function sendError(this: FastifyReply, code: ErrorCode, message?: string, extra: Record<string, unknown> = {}) {
        const entry = ERROR_CATALOGUE[code];
        return this.code(entry.status)
          .type('application/json; charset=utf-8')
          .send(errorBody(base(), code, message ?? entry.message, String(this.request.id), extra));
      },
    );

    app.setErrorHandler(async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      if (clientLeft(req, err)) {
        // Its read was stopped because the client hung up: no error line and no 500 (an error
        // alert would fire whenever clients give up under load, when it matters most), but one
        // line with nginx's 499 "client closed request", since no access line follows an answer
        // nobody received. The reply goes nowhere.
        req.log.info({ req, res: { statusCode: 499 }, responseTime: reply.elapsedTime }, 'client closed request');
        return reply.code(499).send();
      }
      const { error, kind } = mapError(err);
      if (kind === 'database') {
        // An outage fails every request the same way: no stack, no error line per request (the
        // access log has the 503s); the pool's status logs the outage once and tells open streams.
        req.log.debug({ request_id: req.id, reason: err.message }, 'database unavailable');
        app.db.status.failed(err);
      } else if (kind === 'bug') req.log.error({ err, request_id: req.id }, 'unhandled error');
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.sendError(error.code, error.message, error.extra);
    });

    // Safety net for answers that bypass the error handler: an error with no body (e.g.
    // @fastify/websocket's 404 to a GET without Upgrade) or Fastify's own router errors (malformed
    // URL encoding, over-long path parameter: 414 becomes 400 bad_request, an id that long is
    // malformed). Every non-2xx still carries the envelope.
    app.addHook('onSend', (req, reply, payload, done) => {
      if (reply.statusCode < 400 || req.method === 'HEAD') return done(null, payload);
      done(null, envelopeFor(base(), req, reply, payload));
    });
  },
  { name: 'lds-envelope', fastify: '5.x', decorators: { fastify: ['config'] } },
);

/**
 * Fastify's `frameworkErrors` option: router-level failures (malformed percent-encoding, a path
 * parameter over maxParamLength) are answered before any route or hook runs; without this they
 * would bypass the envelope. Both mean a malformed request, so 400 bad_request.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const base = (req.server as FastifyInstance | undefined)?.config?.publicBaseUrl ?? '';
  const message = ROUTER_MESSAGES[err.code] ?? 'The request is malformed.';
  reply
    .code(400)
    .header('X-Request-Id', String(req.id))
    .header('Access-Control-Allow-Origin', '*')
    .type('application/json; charset=utf-8');
  reply.send(JSON.stringify(errorBody(base, 'bad_request', message, String(req.id))));
}
