// Control characters in any text a client sends (query, path parameters, JSON bodies) are refused
// here, once, for every route: 400 bad_request naming the parameter. No endpoint has a use for them,
// and PostgreSQL refuses a NUL in text (22021), which surfaced as a 500. Runs before schema
// validation, so the answer names the parameter whatever else is wrong with the request.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest } from './errors.js';

/** C0 controls (U+0000–U+001F, tab and line breaks included), DEL and C1 controls (U+0080–U+009F). */
const CONTROL = /\p{Cc}/u;

function codePoint(s: string): string {
  const c = CONTROL.exec(s)![0].codePointAt(0)!;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

function refuse(where: string, name: string, value: string) {
  return badRequest(
    `${where} '${name}' contains a control character (${codePoint(value)}); control characters are not accepted.`,
    name,
  );
}

/** A flat record of strings or string arrays (query string, path parameters). */
function checkFlat(values: unknown, where: string): Error | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const [name, v] of Object.entries(values as Record<string, unknown>)) {
    // Never echo a name that is itself malformed.
    if (CONTROL.test(name))
      return badRequest(`A ${where.toLowerCase()} name contains a control character (${codePoint(name)}).`);
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item === 'string' && CONTROL.test(item)) return refuse(where, name, item);
    }
  }
  return undefined;
}

/**
 * A parsed JSON body, walked without recursion (a 64 KiB body can nest 30,000 levels deep). The
 * field is named by its object keys, array positions left out: `filters.subjects`.
 */
function checkBody(body: unknown): Error | undefined {
  if (typeof body === 'string')
    return CONTROL.test(body)
      ? badRequest(`The request body contains a control character (${codePoint(body)}).`)
      : undefined;
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (CONTROL.test(value)) return refuse('Field', path || 'body', value);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push([item, path]);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (CONTROL.test(k))
          return badRequest(`A field name in the request body contains a control character (${codePoint(k)}).`);
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/** preValidation hook (callback style: it runs on every request). */
export function refuseControlCharacters(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  done(checkFlat(req.query, 'Query parameter') ?? checkFlat(req.params, 'Path parameter') ?? checkBody(req.body));
}
