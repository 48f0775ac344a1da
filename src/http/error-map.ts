// Any error a route, a hook or Fastify raises, mapped onto the catalogue. The mapping says what
// kind of failure it was, so the handler logs by kind (a client's mistake, a database outage, a
// bug) and never by comparing message text.
import type { FastifyError } from 'fastify';
import { isDatabaseUnavailable } from '../db/health.js';
import { ApiError } from './errors.js';

/** `api`: raised on purpose; `client`: the request was wrong; `database`: PostgreSQL unreachable; `bug`: anything else */
export type FailureKind = 'api' | 'client' | 'database' | 'bug';

export interface MappedError {
  error: ApiError;
  kind: FailureKind;
}

export const DATABASE_DOWN_MESSAGE = 'The service is temporarily unavailable; retry shortly.';

/** SQLSTATE of a pg DatabaseError; '' for Node and Fastify errors (their codes are not SQLSTATEs). */
function pgCode(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (err as { severity?: unknown }).severity !== undefined ? code : '';
}

export function mapError(err: FastifyError): MappedError {
  if (err instanceof ApiError) return { error: err, kind: 'api' };
  const client = (error: ApiError): MappedError => ({ error, kind: 'client' });
  if (err.validation) {
    const v = err.validation[0];
    const where = err.validationContext ?? 'request';
    const field = v?.instancePath
      ? v.instancePath.replace(/^\//, '').replace(/\//g, '.')
      : (v?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const msg = field
      ? `Invalid ${where} parameter '${field}': ${v?.message ?? 'invalid value'}.`
      : `Invalid ${where}: ${v?.message ?? 'invalid value'}.`;
    return client(new ApiError('bad_request', msg, field ? { field } : {}));
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return client(new ApiError('bad_request', 'The request body is not valid JSON.'));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return client(new ApiError('payload_too_large'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return client(new ApiError('unsupported_media_type'));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return client(new ApiError('bad_request', 'The Content-Length header does not match the body.'));
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 404) return client(new ApiError('not_found'));
    if (err.statusCode === 429) return client(new ApiError('rate_limit_exceeded', undefined, {}, { 'Retry-After': 1 })); // every 429 carries it
    return client(new ApiError('bad_request', err.message));
  }
  const sqlstate = pgCode(err);
  // A statement cut by the read pool's statement_timeout (57014 query_canceled; the cancel sent
  // because the client hung up raises the same code, and the error handler takes that one first:
  // clientLeft in read-budget.ts).
  if (sqlstate === '57014') return client(new ApiError('query_timeout'));
  // Safety net: a PostgreSQL data exception (class 22: bad datetime, out-of-range number, invalid
  // text representation, ...) can only come from a value a client sent that validation let pass;
  // it is the client's 400, never a 500 and never a database outage.
  if (/^22[0-9A-Z]{3}$/.test(sqlstate))
    return client(new ApiError('bad_request', 'A parameter value is out of range or malformed.'));
  // PostgreSQL restarting or unreachable: a retryable 503, never a 500, and nothing about why.
  if (isDatabaseUnavailable(err))
    return {
      error: new ApiError('service_unavailable', DATABASE_DOWN_MESSAGE, {}, { 'Retry-After': 1 }),
      kind: 'database',
    };
  return { error: new ApiError('internal_error'), kind: 'bug' };
}
