// Source dates for a bill's `updated` / `created`, shared by the importers' mappers (which also run
// in parse workers, so this module imports nothing).

/** A source's calendar date as the start of that day in UTC (timestamps pass through). */
export const utcDay = (d: string | null): string | null => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T00:00:00Z` : d);

/** The latest / earliest of some ISO dates (nulls ignored), for `updated` / `created` from a source. */
export function latest(...d: (string | null | undefined)[]): string | null {
  return d.reduce<string | null>((a, x) => (x && (!a || x > a) ? x : a), null);
}
export function earliest(...d: (string | null | undefined)[]): string | null {
  return d.reduce<string | null>((a, x) => (x && (!a || x < a) ? x : a), null);
}
