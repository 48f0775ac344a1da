// Path id helpers: the pattern in the params schema already rejected non-integers with 400; an
// integer that cannot exist (beyond int32 for int columns) is simply not found.
import { notFound } from '../../http/errors.js';
import { parseInt64, parseIntId } from '../../http/params.js';

export function intIdOr404(raw: string, what: string): number {
  const id = parseIntId(raw);
  if (id === undefined) throw notFound(`No ${what} with id ${raw}.`);
  return id;
}

/** int64 ids stay decimal strings and are cast in SQL ($1::bigint), so ids above 2^53 match exactly. */
export function int64IdOr404(raw: string, what: string): string {
  const id = parseInt64(raw);
  if (id === undefined) throw notFound(`No ${what} with id ${raw}.`);
  return id;
}

/** Optional text filter: trimmed, empty means absent. */
export const text = (raw: string | undefined) => {
  const t = raw?.trim();
  return t ? t : undefined;
};
