// A bill's parts embedded in the bill (`include=` on /v1/bills and /v1/bills/{bill_id}, and the
// bulk files): each part is read by its own endpoint's SQL over a list of bills, so the rows and
// their order are the endpoint's by construction, and a page of 500 bills costs one query per part.
import { Type, type TSchema } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import { badRequest } from '../../http/errors.js';
import * as S from './schemas.js';
import { subresourceOf, textChangesOf } from './repository.js';

/**
 * The includable parts, in the order they are embedded: every list sub-resource of a bill.
 * `changes` is /changes as served by default (whitespace-only changes excluded); /diff needs a
 * pair of text ids, so it is not a part.
 */
export const PARTS = {
  ...S.SUBRESOURCE_ROWS,
  changes: S.TextChangeRow,
} satisfies Record<string, TSchema>;

export type PartName = keyof typeof PARTS;
export const PART_NAMES = Object.keys(PARTS) as PartName[];

/** The bill with every part it may embed (each optional: present exactly when included). */
export const BillWithParts = Type.Object({
  ...S.BillSchema.properties,
  ...Object.fromEntries(PART_NAMES.map((n) => [n, Type.Optional(Type.Array(PARTS[n]))])),
});

export const IncludeParam = Type.Optional(
  Type.String({
    description:
      `comma list of parts to embed in each bill, each under its own key with exactly the rows and order of its own ` +
      `endpoint: ${PART_NAMES.join(', ')}; or all. changes is /changes as served by default (whitespace-only changes ` +
      'excluded). 400 for any other name. A list with include costs one query per part for the whole page, and the ' +
      'request counts once against the limits.',
  }),
);

/** The named parts (deduplicated, in PARTS order), or undefined when none was asked; 400 for an unknown name. */
export function parseInclude(raw: string | undefined): PartName[] | undefined {
  if (raw === undefined) return undefined;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.includes('all')) return PART_NAMES;
  const unknown = names.filter((n) => !Object.hasOwn(PARTS, n));
  if (unknown.length) {
    throw badRequest(
      `Unknown part${unknown.length > 1 ? 's' : ''} '${unknown.map((n) => n.slice(0, 40)).join("', '")}' in include; ` +
        `accepted: ${PART_NAMES.join(', ')}, or all.`,
      'include',
    );
  }
  return names.length ? PART_NAMES.filter((n) => names.includes(n)) : undefined;
}

/** A part's rows for many bills, each naming its bill (text changes in `_bill`, which is not served). */
async function partRows(
  db: Queryable,
  name: PartName,
  billIds: number[],
): Promise<Array<{ bill_id?: number; _bill?: number }>> {
  if (name === 'changes') return textChangesOf(db, billIds, false);
  return subresourceOf(db, name, billIds);
}

/**
 * Embeds the named parts into each bill (in place): one query per part for all the bills. Rows
 * arrive ordered by bill, then in the endpoint's order, and keep that order.
 */
export async function embedParts<B extends { bill_id: number }>(
  db: Queryable,
  bills: B[],
  names: readonly PartName[],
): Promise<B[]> {
  if (bills.length === 0 || names.length === 0) return bills;
  const ids = bills.map((b) => b.bill_id);
  const byBill = new Map<number, Record<string, unknown[]>>();
  for (const b of bills) {
    const parts: Record<string, unknown[]> = {};
    for (const n of names) parts[n] = [];
    byBill.set(b.bill_id, parts);
  }
  // Sequential: the caller may hold one client (the bulk snapshot's transaction); a pool runs them anyway.
  for (const name of names) {
    for (const row of await partRows(db, name, ids)) {
      const bill = row.bill_id ?? row._bill;
      if (name === 'changes') delete row._bill;
      if (bill !== undefined) byBill.get(bill)?.[name].push(row);
    }
  }
  for (const b of bills) Object.assign(b, byBill.get(b.bill_id));
  return bills;
}
