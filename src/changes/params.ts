// Parameters shared by the change feed and the stream: reason names are the change log's own.
import { badRequest } from '../http/errors.js';
import { REASONS, type ReasonName } from './record.js';

/** Exact reason name to id; 400 for anything else (names are case-sensitive, as documented). */
export function parseReason(raw: string | undefined, param = 'reason'): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!Object.hasOwn(REASONS, raw)) {
    throw badRequest(
      `Parameter '${param}' must be one of ${Object.keys(REASONS).join(', ')} (exact name); got '${raw}'.`,
      param,
    );
  }
  return REASONS[raw as ReasonName];
}
