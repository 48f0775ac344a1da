// Parameter parsers shared by every route. Path ids arrive as strings (their schemas are in
// api/common/ids.ts) so a non-integer id is a clear 400 and int64 ids never pass through a JS number.
import { isStateCode } from '../domain/states.js';
import { badRequest } from './errors.js';

/** Parses an int32 path id; values beyond int32 cannot exist, so they are treated as not found by callers. */
export function parseIntId(raw: string): number | undefined {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : undefined;
}

/** int64 as a decimal string within the signed 64-bit range, or undefined. */
export function parseInt64(raw: string): string | undefined {
  if (!/^[0-9]{1,19}$/.test(raw)) return undefined;
  return BigInt(raw) <= 9_223_372_036_854_775_807n ? BigInt(raw).toString() : undefined;
}

/** Normalises a state filter (case-insensitive) to its upper-case code; 400 for an unknown code. */
export function parseState(raw: string | undefined, param = 'state'): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const code = raw.trim().toUpperCase();
  if (!isStateCode(code))
    throw badRequest(`Parameter '${param}' must be a two-letter state code, DC or US; got '${raw}'.`, param);
  return code;
}

/** Parses states; each item must be 2 or 3 letters and a known code, else 400 naming it. */
export function parseStates(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const out = new Set<string>();
  for (const part of raw.split(',')) {
    const code = part.trim().toUpperCase();
    if (!/^[A-Z]{2,3}$/.test(code) || !isStateCode(code)) {
      throw badRequest(
        `Parameter 'states' must be a comma-separated list of state codes (two-letter codes, DC or US); '${part.trim()}' is not one.`,
        'states',
      );
    }
    out.add(code);
  }
  return [...out];
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TS = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/**
 * Validates an ISO 8601 date or timestamp and returns it in a form PostgreSQL reads exactly
 * (microseconds kept, which a JS Date would lose). A date means its first moment in UTC; a
 * timestamp without an offset is read as UTC. Throws 400 naming the parameter otherwise.
 */
export function parseTimestamp(raw: string | undefined, param: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const s = raw.trim();
  let m = ISO_DATE.exec(s);
  if (m) {
    if (!validDate(+m[1], +m[2], +m[3])) throw badTimestamp(param, raw);
    return `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`;
  }
  m = ISO_TS.exec(s);
  if (!m || !validDate(+m[1], +m[2], +m[3]) || +m[4] > 23 || +m[5] > 59 || (m[6] !== undefined && +m[6] > 59))
    throw badTimestamp(param, raw);
  // Real UTC offsets run from -12:00 to +14:00; PostgreSQL refuses beyond ±15:59 (22009), so the
  // hour is bounded at 15 with it and minutes at 59, rather than letting the query fail.
  if (m[9] !== undefined && (+m[9] > 15 || +m[10] > 59)) throw badTimestamp(param, raw);
  const offset = m[8] ?? 'Z';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${offset}`;
}

function validDate(y: number, mo: number, d: number): boolean {
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function badTimestamp(param: string, raw: string) {
  return badRequest(
    `Parameter '${param}' must be an ISO 8601 date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SSZ, or an offset from -15:59 to +15:59 instead of Z); got '${raw}'.`,
    param,
  );
}

/** Topic slugs: lowercase letters, digits and dashes. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// Free text reaches PostgreSQL as a full-text query or a LIKE pattern whose cost grows with its
// length and its number of terms (a 9 KB q of one repeated word ran 12 s), so it is bounded and
// normalised here, the same way for every route.
/** Longest substring or exact-match filter (title_contains, subject, sponsor_last_name, office, ...). */
export const MAX_TEXT_FILTER_CHARS = 200;
/** Longest full-text query q, and its most distinct terms (words, phrase words and exclusions). */
export const MAX_QUERY_CHARS = 300;
export const MAX_QUERY_TERMS = 16;

const chars = (s: string) => [...s].length;

/** A text filter, trimmed with inner runs of white space collapsed; empty means absent; 400 when too long. */
export function parseTextFilter(
  raw: string | undefined,
  param: string,
  max = MAX_TEXT_FILTER_CHARS,
): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw.replace(/\s+/g, ' ').trim();
  if (t === '') return undefined;
  if (chars(t) > max)
    throw badRequest(`Parameter '${param}' may be at most ${max} characters; got ${chars(t)}.`, param);
  return t;
}

/**
 * A web-search query (words, "phrases", -exclusions, or): bounded like any text filter, repeated
 * words and phrases dropped (they match nothing more and cost a lookup each), then at most
 * MAX_QUERY_TERMS distinct words in all; 400 naming q otherwise.
 */
export function parseSearchQuery(raw: string | undefined, param = 'q'): string | undefined {
  const t = parseTextFilter(raw, param, MAX_QUERY_CHARS);
  if (t === undefined) return undefined;
  const seen = new Set<string>();
  const kept: string[] = [];
  let terms = 0;
  for (const token of t.match(/-?"[^"]*"?|\S+/g) ?? []) {
    const lower = token.toLowerCase();
    if (lower === 'or') {
      kept.push(token);
      continue;
    }
    if (seen.has(lower)) continue;
    seen.add(lower);
    kept.push(token);
    terms += lower.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
  }
  if (terms > MAX_QUERY_TERMS)
    throw badRequest(`Parameter '${param}' may hold at most ${MAX_QUERY_TERMS} distinct terms; got ${terms}.`, param);
  return kept.join(' ');
}
