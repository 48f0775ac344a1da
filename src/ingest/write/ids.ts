// Id allocation for sources without LegiScan ids. Rows get ids from the import_ids sequence
// (100,000,000 upward); people get a stable id derived from their strongest external id so the
// same legislator keeps the same people_id across databases and re-imports.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/pool.js';

/** Where derived people_ids begin. */
export const DERIVED_LOW = 2 ** 32;
const LOW = DERIVED_LOW;
const SPAN = 2 ** 53 - 2 ** 32;

/** Deterministic people_id in [2^32, 2^53) for an external id such as ('bioguide', 'B001314'). */
export function derivedPeopleId(scheme: string, value: string): number {
  const h = createHash('sha256').update(`${scheme}:${value}`).digest();
  // 52 bits of the hash: below SPAN after the modulo, exact as a JS number.
  const n = h.readUIntBE(0, 6) * 16 + (h[6]! >> 4);
  return LOW + (n % SPAN);
}

export async function nextIds(db: Queryable, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT nextval('import_ids')::text AS id FROM generate_series(1, $1)`,
    [n],
  );
  return rows.map((r) => Number(r.id));
}

export async function nextId(db: Queryable): Promise<number> {
  return (await nextIds(db, 1))[0]!;
}

export function contentHash(value: unknown): string {
  return createHash('md5').update(JSON.stringify(value)).digest('hex');
}
