// Path id helpers: the pattern in the params schema already rejected non-integers with 400; an
// integer that cannot exist (beyond int32 for int columns) is simply not found.
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { parseInt64, parseIntId } from '../../http/params.js';

/** Path id of an int column: any run of digits (a non-integer is 400; one beyond int32 is 404 by intIdOr404). */
export const PathIntId = Type.String({ pattern: '^[0-9]+$', description: 'integer id' });
/** Path id of a bigint column (people_id, candidate id): any run of digits, matched exactly. */
export const PathInt64Id = Type.String({ pattern: '^[0-9]+$', description: '64-bit integer id' });

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
