// Unknown query parameters are refused, in one place, for every /v1 route: a misspelt or
// unsupported filter (`/v1/changes?sate=MS`, `/v1/bills?sort=title`) used to be ignored silently
// and answered with unfiltered data, which a client cannot tell from a correct answer. The accepted
// names come from each route's own querystring schema, so a parameter the spec names is accepted
// exactly where its route declares it, and a route without a querystring schema accepts none.
//
// Empty values are refused the same way: `updated_since=` or `state=` (an unfilled template variable,
// typically) used to be read as "no filter" and answered unfiltered data, while `session_id=` was
// already 400. Every parameter given empty (or only spaces) is 400 naming it; leave it out instead.
// A route lists the flags for which empty is a value of its own in `config.emptyParams`.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { badRequest } from './errors.js';

/** Names a querystring schema declares (TypeBox objects, or plain JSON Schema objects). */
function acceptedParams(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

/** The 400 for the first unknown parameter of a query, or undefined when every name is accepted. */
function unknownParamError(query: unknown, accepted: readonly string[], known: ReadonlySet<string>) {
  if (!query || typeof query !== 'object') return undefined;
  const unknown = Object.keys(query).filter((k) => !known.has(k));
  if (unknown.length === 0) return undefined;
  const list = accepted.length ? `accepted: ${accepted.join(', ')}` : 'this endpoint takes no query parameters';
  const names = unknown.map((k) => `'${k.slice(0, 40)}'`).join(', ');
  return badRequest(
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${list}.`,
    unknown[0].slice(0, 40),
  );
}

/** The 400 for the first parameter given an empty value (repeated parameters: any empty one). */
function emptyParamError(query: unknown, allowed: ReadonlySet<string>) {
  if (!query || typeof query !== 'object') return undefined;
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (allowed.has(name)) continue;
    const values = Array.isArray(value) ? value : [value];
    // Spaces only ('+' decodes to one) count as empty; tabs and line breaks are control characters,
    // refused with their own message by the control-character check.
    if (values.some((v) => typeof v === 'string' && /^ *$/.test(v))) {
      return badRequest(
        `Query parameter '${name}' is empty; give it a value, or leave it out to not filter by it.`,
        name,
      );
    }
  }
  return undefined;
}

function applies(route: RouteOptions): boolean {
  return route.url.startsWith('/v1/');
}

export const unknownParamsPlugin = fp(
  async function unknownParams(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      if (!applies(route)) return;
      const accepted = acceptedParams(route.schema?.querystring);
      const known = new Set(accepted); // once per route, not per request
      // A route-level onRequest hook runs after the global ones (request id, authentication, limits),
      // so a caller without a key still gets 401 first, and before schema validation, so the answer
      // names the unknown parameter instead of a detail of another one.
      const emptyAllowed = new Set(route.config?.emptyParams ?? []);
      const check = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) =>
        done(unknownParamError(req.query, accepted, known) ?? emptyParamError(req.query, emptyAllowed));
      const existing = route.onRequest;
      route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
    });
  },
  { name: 'lds-unknown-params', fastify: '5.x', dependencies: ['lds-envelope'] },
);
