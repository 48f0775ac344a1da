// The one error catalogue and the envelope every non-2xx response uses:
//   { error: { code, message, request_id, docs, ...extra } }
// Handlers throw ApiError (or call reply.apiError); the error handler in http/envelope.ts turns
// anything else into the right envelope, and 5xx never carry internals.

export const ERROR_CATALOGUE = {
  bad_request: { status: 400, message: 'A parameter failed validation.' },
  unauthorized: { status: 401, message: 'Missing X-API-Key header.' },
  invalid_api_key: { status: 401, message: 'The API key does not match an issued key.' },
  revoked_api_key: { status: 401, message: 'The API key has been revoked.' },
  not_found: { status: 404, message: 'No such record or endpoint.' },
  diff_not_computed: {
    status: 404,
    message: 'This text diff pair has not been processed yet; it is queued, retry later.',
  },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  subscription_inactive: { status: 409, message: 'The addressed subscription is not active.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  range_not_satisfiable: { status: 416, message: 'The requested range is outside the file.' },
  query_timeout: {
    status: 422,
    message:
      'The query ran longer than the time allowed and was cancelled; narrow it (more filters, fewer search terms, a smaller offset).',
  },
  unsupported_media_type: { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  rate_limit_exceeded: { status: 429, message: 'Rate limit exceeded; honour Retry-After.' },
  concurrency_limit_exceeded: {
    status: 429,
    message: 'This key already runs as many expensive reads as it may at once; honour Retry-After.',
  },
  read_budget_exceeded: {
    status: 429,
    message: 'This key used its share of expensive-read time (EXPENSIVE_READ_MS_PER_SEC); honour Retry-After.',
  },
  subscription_limit: { status: 429, message: 'This key already holds 25 active subscriptions.' },
  stream_limit: {
    status: 429,
    message: 'This key already holds its maximum of concurrent streams (STREAM_CONNECTIONS_PER_KEY, by tier).',
  },
  internal_error: { status: 500, message: 'Internal server error.' },
  status_unavailable: { status: 503, message: 'The status snapshot is temporarily unavailable.' },
  coverage_unavailable: { status: 503, message: 'The coverage snapshot is temporarily unavailable.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** extra fields placed inside `error` (limit, window, used, resets_at, field, ...) */
    readonly extra: Record<string, unknown> = {},
    /** response headers to set (Retry-After, ...) */
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'ApiError';
    this.status = ERROR_CATALOGUE[code].status;
  }
}

export const badRequest = (message: string, field?: string) =>
  new ApiError('bad_request', message, field ? { field } : {});
export const notFound = (what = 'No such record.') => new ApiError('not_found', what);

/** Address of the reference page for an error code (served by /docs/errors). */
export function errorDocsUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/errors#${code}`;
}

export interface ErrorBody {
  error: { code: string; message: string; request_id: string; docs: string; [k: string]: unknown };
}

export function errorBody(
  baseUrl: string,
  code: string,
  message: string,
  requestId: string,
  extra: Record<string, unknown> = {},
): ErrorBody {
  return { error: { code, message, request_id: requestId, docs: errorDocsUrl(baseUrl, code), ...extra } };
}
