// /openapi.json (generated from the route schemas), /docs (interactive reference served from the
// package's own assets, so it works with no internet) and /docs/errors (every error code).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CATALOGUE, errorDocsUrl } from './errors.js';
import { ErrorSchema } from './schemas.js';

const HEADERS = {
  'X-Request-Id': {
    description: 'Id of this call; the same UUID as error.request_id',
    schema: { type: 'string', format: 'uuid' },
    example: '7f1c2d9e-1b7a-4c55-9d2e-0a6f3a1b2c3d',
  },
  'X-RateLimit-Limit': {
    description: 'Monthly request cap of the key (authenticated calls)',
    schema: { type: 'integer' },
    example: 100000,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left this UTC month (authenticated calls)',
    schema: { type: 'integer' },
    example: 99873,
  },
  'X-RateLimit-Reset': {
    description: 'Unix time in seconds when the monthly counter resets (first moment of the next UTC month)',
    schema: { type: 'integer' },
    example: 1767225600,
  },
  'Retry-After': {
    description:
      'Seconds to wait (429 only): 1 after a burst rejection, seconds to the next month after a monthly-cap rejection, 60 after subscription_limit, 5 after stream_limit',
    schema: { type: 'integer' },
    example: 1,
  },
};

const ERROR_EXAMPLE = {
  error: {
    code: 'bad_request',
    message: "Parameter 'state' must be a two-letter state code, DC or US; got 'ZZ'.",
    request_id: '7f1c2d9e-1b7a-4c55-9d2e-0a6f3a1b2c3d',
    docs: 'https://api.example.org/docs/errors#bad_request',
    field: 'state',
  },
};

type Doc = Record<string, unknown> & {
  paths?: Record<string, Record<string, Op>>;
  components?: Record<string, Record<string, unknown>>;
};
type Op = { security?: unknown[]; responses?: Record<string, Record<string, unknown>> };

const DESCRIPTION = `Read-only JSON API over US legislative data with a realtime change feed.

Authentication: send your key in the \`X-API-Key\` header (Bearer tokens and \`?api_key=\` are not read). Public without a key: /v1/health, /v1/status, /v1/coverage, /openapi.json, /docs. A key sent to a public endpoint is checked and counted. Unknown paths (404) and wrong methods (405) need no key and are not counted.

Limits: a burst limit per key (default 10 requests per second, a fixed one-second window aligned to the clock) and a monthly cap per UTC calendar month. Every request that passes authentication counts, including those the endpoint answers with 4xx; 429 answers do not count. Every authenticated response carries X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and X-Request-Id.

Paging: \`limit\` out of range is clamped, never rejected; \`offset\` above 100,000 is refused with bad_request (narrow the filters instead).

Parameters: query parameter names are exact. A parameter an endpoint does not list is refused with 400 bad_request naming it and the accepted ones (\`field\` holds the unknown name), never silently ignored.

Input and connections: control characters (U+0000–U+001F, U+007F–U+009F) in any query parameter, path parameter or JSON body string answer 400 bad_request naming the parameter in \`error.field\`. Any endpoint may answer 408 request_timeout (then the connection is closed) when the whole request, headers and body, is not received within the server's request timeout (30 s by default). A 401 closes the connection.

Answers every path can give besides those listed per operation: 405 method_not_allowed for a method the path does not take (the Allow header lists those it does); 413 payload_too_large for a request body over the limit; 415 unsupported_media_type for a body that is not JSON (Content-Type: application/json); all with the error envelope. Errors: see /docs/errors.`;

function decorate(doc: Doc): Doc {
  doc.components ??= {};
  doc.components.headers = HEADERS;
  doc.components.schemas ??= {};
  doc.components.schemas.ErrorEnvelope = { ...stripId(ErrorSchema), example: ERROR_EXAMPLE };
  doc.components.responses = {
    Unauthorized: {
      description: 'unauthorized, invalid_api_key or revoked_api_key',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    },
    RateLimited: {
      description: 'rate_limit_exceeded (burst: limit, window; monthly: limit, used, resets_at)',
      headers: refs(Object.keys(HEADERS)),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    },
    BadRequest: envelope(
      'bad_request: a parameter failed validation, or a query parameter the operation does not list (field names it)',
    ),
    MethodNotAllowed: {
      ...envelope('method_not_allowed: the path exists but does not take this method'),
      headers: {
        Allow: { description: 'the methods the path takes', schema: { type: 'string' }, example: 'GET, HEAD' },
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      },
    },
    PayloadTooLarge: envelope('payload_too_large: the request body is over the size limit'),
    UnsupportedMediaType: envelope(
      'unsupported_media_type: the request body must be JSON (Content-Type: application/json)',
    ),
  };
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const authed = !(Array.isArray(op.security) && op.security.length === 0);
      for (const [status, res] of Object.entries(op.responses)) {
        if (status === '401' || status === '429' || '$ref' in res) continue;
        const names = [
          'X-Request-Id',
          ...(authed ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : []),
        ];
        res.headers = { ...(res.headers as object | undefined), ...refs(names) };
      }
      if (authed) {
        op.responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
        op.responses['429'] ??= { $ref: '#/components/responses/RateLimited' };
      }
      // Unknown query parameters are refused on every operation (http/unknown-params.ts); a path
      // answers 405 to the methods it does not take; a body can be too large or not JSON.
      op.responses['400'] ??= { $ref: '#/components/responses/BadRequest' };
      op.responses['405'] ??= { $ref: '#/components/responses/MethodNotAllowed' };
      if ((op as { requestBody?: unknown }).requestBody) {
        op.responses['413'] ??= { $ref: '#/components/responses/PayloadTooLarge' };
        op.responses['415'] ??= { $ref: '#/components/responses/UnsupportedMediaType' };
      }
    }
  }
  return doc;
}

function envelope(description: string) {
  return {
    description,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

function refs(names: string[]) {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function stripId(schema: object): object {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === '$id' ? undefined : v)));
}

function errorsPage(base: string): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .map(([code, e]) => `<tr id="${code}"><td><code>${code}</code></td><td>${e.status}</td><td>${e.message}</td></tr>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error codes · Legislative Data Service</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}tr:target{background:#fff6d5}</style></head>
<body><h1>Error codes</h1><p>Every non-2xx response is <code>{ "error": { "code", "message", "request_id", "docs" } }</code>; <code>request_id</code> equals the <code>X-Request-Id</code> header. Rate-limit errors add <code>limit</code> and <code>window</code> (burst) or <code>limit</code>, <code>used</code> and <code>resets_at</code> (monthly cap); honour <code>Retry-After</code>. Validation errors add <code>field</code> when one parameter is at fault. Example: <a href="${errorDocsUrl(base, 'bad_request')}">bad_request</a>.</p>
<table><thead><tr><th>code</th><th>HTTP</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table><p><a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a></p></body></html>`;
}

function landingLinks(base: string) {
  return {
    docs: `${base}/docs`,
    openapi: `${base}/openapi.json`,
    dashboard: `${base}/dashboard`,
    health: `${base}/v1/health`,
    errors: `${base}/docs/errors`,
  };
}

/** HTML only when the client ranks text/html above JSON (a browser); curl and fetch get JSON. */
function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const q = (type: string) => {
    const part = accept
      .split(',')
      .map((s) => s.trim())
      .find((s) => s.split(';')[0].trim() === type);
    if (!part) return -1;
    const m = /;\s*q=([0-9.]+)/.exec(part);
    return m ? Number(m[1]) : 1;
  };
  return q('text/html') > Math.max(q('application/json'), 0);
}

function landingPage(links: ReturnType<typeof landingLinks>): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Legislative Data Service</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}li{margin:.3rem 0}</style></head>
<body><h1>Legislative Data Service</h1><p>Read-only JSON API over US legislative data with a realtime change feed. Send your key in the <code>X-API-Key</code> header.</p>
<ul><li><a href="${links.docs}">API reference</a> (interactive)</li><li><a href="${links.dashboard}">Live dashboard</a></li>
<li><a href="${links.openapi}">openapi.json</a></li><li><a href="${links.errors}">Error codes</a></li><li><a href="${links.health}">Health</a></li></ul></body></html>`;
}

// fastify-plugin: swagger must see the routes of every module, not only those of a child context.
export const docsPlugin = fp(
  async function docs(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Legislative Data Service', version: 'v1', description: DESCRIPTION },
        servers: [{ url: app.config.publicBaseUrl }],
        components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
        security: [{ ApiKey: [] }],
        tags: [{ name: 'Meta', description: 'Health, freshness, coverage, usage and documentation' }],
      },
      refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
      transform: ({ schema, url, route }) => {
        const s = { ...(schema ?? {}) } as Record<string, unknown>;
        // @fastify/websocket hides every WebSocket route; /v1/stream/ws is part of the API, so it is listed.
        if (route.websocket) s.hide = false;
        if (route.config?.public) s.security = [];
        return { schema: s, url };
      },
      // decorate() fills the document in place, so the typed object swagger handed over is returned as is.
      transformObject: (doc) => {
        const out = 'openapiObject' in doc ? doc.openapiObject : doc.swaggerObject;
        decorate(out as Doc);
        return out;
      },
    });

    // Docs routes are public and kept out of the document itself.
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...(route.config as object), public: true };
      });
      await docs.register(swaggerUi, {
        routePrefix: '/docs',
        uiConfig: { validatorUrl: null, deepLinking: true, persistAuthorization: false },
        staticCSP: true,
        logLevel: 'warn',
      });
      docs.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      docs.get('/docs/errors', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').send(errorsPage(app.config.publicBaseUrl)),
      );
      // A newcomer's first request: point at the reference, the dashboard and the machine-readable spec.
      docs.get('/', { schema: { hide: true } }, async (req, reply) => {
        const links = landingLinks(app.config.publicBaseUrl);
        if (prefersHtml(req.headers.accept)) return reply.type('text/html; charset=utf-8').send(landingPage(links));
        return {
          service: 'Legislative Data Service',
          version: 'v1',
          links,
          authentication: 'send your key in the X-API-Key header; keys are issued by the operator',
        };
      });
      // Browsers ask for it on every page: answer with no content rather than a 404 in the console.
      docs.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) =>
        reply.code(204).header('Cache-Control', 'public, max-age=86400').send(),
      );
    });
  },
  { name: 'lds-docs', fastify: '5.x', dependencies: ['lds-envelope'], decorators: { fastify: ['config'] } },
);
