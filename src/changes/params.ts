// Parameters shared by the change feed and the stream: reason names are the change log's own.
import { badRequest } from '../http/errors.js';
import { REASONS, type ReasonName } from './record.js';

/** The `reason` parameter's description in the OpenAPI, with each reason's id. */
export const REASON_PARAM_DOC =
  `exact reason name: ${Object.entries(REASONS)
    .map(([name, id]) => `${name} (${id})`)
    .join(', ')}. ` +
  'TextDiff (ours, outside the LegiScan reason ids the others use) is a text change the diff worker computed some time ' +
  "after the text arrived (the bill's `changes` part grew); it emits no webhook event and no mirror push.";

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
