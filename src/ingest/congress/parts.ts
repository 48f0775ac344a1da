// Parts of a Congress bill that point elsewhere: committee referrals (joined to committee rows by
// their THOMAS code, dated by the referral action), amendments (ids kept stable across
// re-imports) and related bills (resolved to bill ids once every bill of the run is written).
import type { Queryable } from '../../db/pool.js';
import type { AmendmentRow, ReferralRow } from '../write/bills.js';
import { nextIds } from '../write/ids.js';
import type { CongressAmendment, CongressBillJson } from './source.js';

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const day = (v: unknown) => s(v).slice(0, 10) || null;

/** Committee ids by THOMAS code for this run. */
export type CommitteeCache = Map<string, number>;

/** Every committee already known by THOMAS code, one query per run (a re-import then asks nothing). */
export async function preloadCommittees(db: Queryable, cache: CommitteeCache): Promise<void> {
  const { rows } = await db.query<{ code: string; committee_id: number }>(
    `SELECT DISTINCT ON (code) external_ids->>'thomas_id' AS code, committee_id FROM committees WHERE external_ids ? 'thomas_id' ORDER BY code, committee_id`,
  );
  for (const r of rows) if (!cache.has(r.code)) cache.set(r.code, r.committee_id);
}

/**
 * The committee row for a THOMAS code: the congress-legislators one when imported, otherwise one
 * created from the bill's own naming (congress-legislators later joins it by the same code).
 */
async function committeeId(
  db: Queryable,
  cache: CommitteeCache,
  code: string,
  name: string,
  chamber: string,
): Promise<number> {
  const known = cache.get(code);
  if (known !== undefined) return known;
  const body = chamber === 'House' ? 114 : chamber === 'Senate' ? 115 : 123;
  const { rows } = await db.query<{ committee_id: number }>(
    `WITH found AS (SELECT committee_id FROM committees WHERE external_ids ? 'thomas_id' AND external_ids->>'thomas_id' = $1),
       made AS (INSERT INTO committees (committee_id, state_id, body_id, chamber, committee_name, committee_type, external_ids, source)
                SELECT nextval('import_ids')::int, 52, $3, $4, $2, $5, jsonb_build_object('thomas_id', $1::text), 'congress'
                WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING committee_id)
     SELECT committee_id FROM found UNION ALL SELECT committee_id FROM made`,
    [code, name, body, chamber, code.length > 4 ? 'subcommittee' : 'standing'],
  );
  const id = rows[0]!.committee_id;
  cache.set(code, id);
  return id;
}

export async function referrals(db: Queryable, cache: CommitteeCache, d: CongressBillJson): Promise<ReferralRow[]> {
  const actions = d.actions ?? [];
  const out: ReferralRow[] = [];
  for (const c of d.committees ?? []) {
    if (!c.activity?.includes('referral')) continue;
    const code = s(c.committee_id) + s(c.subcommittee_id);
    const name = s(c.subcommittee) ? `${s(c.committee)}: ${s(c.subcommittee)}` : s(c.committee);
    const chamber = code.startsWith('H') ? 'House' : code.startsWith('S') ? 'Senate' : 'Joint';
    // The referral action names the committee by code; a subcommittee referral names it or its parent.
    const action =
      actions.find((a) => s(a.type) === 'referral' && (a.committees ?? []).includes(code)) ??
      actions.find((a) => (a.committees ?? []).includes(code)) ??
      actions.find((a) => (a.committees ?? []).includes(s(c.committee_id)));
    out.push({ committee_id: await committeeId(db, cache, code, name, chamber), name, date: day(action?.acted_at) });
  }
  return out;
}

const AMDT_TITLE: Record<string, string> = { samdt: 'S.Amdt.', hamdt: 'H.Amdt.', supamdt: 'S.Up.Amdt.' };

/** Amendment ids by bill (`congress_bill_id`) and title, for this run. */
export type AmendmentIds = Map<string, Map<string, number>>;

/** Every Congress bill's stored amendment ids, one query per run. */
export async function preloadAmendments(db: Queryable, out: AmendmentIds): Promise<void> {
  const { rows } = await db.query<{ key: string; amendment_id: number; amendment_title: string }>(
    `SELECT b.external_ids->>'congress_bill_id' AS key, a.amendment_id, a.amendment_title
       FROM amendments a JOIN bills b USING (bill_id) WHERE b.external_ids ? 'congress_bill_id'`,
  );
  for (const r of rows) {
    let m = out.get(r.key);
    if (!m) out.set(r.key, (m = new Map()));
    m.set(r.amendment_title, r.amendment_id);
  }
}

/** Amendments listed on the bill; an amendment keeps the id it got on the first import. */
export async function amendments(
  db: Queryable,
  known: AmendmentIds,
  congressBillId: string,
  d: CongressBillJson,
): Promise<AmendmentRow[]> {
  const list = (d.amendments ?? []).filter((a) => s(a.amendment_id));
  if (!list.length) return [];
  const congress = s(d.congress);
  const titleOf = (a: CongressAmendment) =>
    `${AMDT_TITLE[s(a.amendment_type)] ?? s(a.amendment_type).toUpperCase()} ${s(a.number)}`;
  let existing = known.get(congressBillId);
  if (!existing) known.set(congressBillId, (existing = new Map()));
  const fresh = await nextIds(db, new Set(list.map(titleOf).filter((t) => !existing.has(t))).size);
  return list.map((a) => {
    const senate = s(a.chamber) === 's';
    const title = titleOf(a);
    // Ids given here are remembered: the same bill met again in this run keeps them.
    let id = existing.get(title);
    if (id === undefined) existing.set(title, (id = fresh.shift()!));
    return {
      // The bill file gives id, type, chamber and number only: outcome, date and document are not published.
      amendment_id: id,
      adopted: null,
      body_id: senate ? 115 : 114,
      date: null,
      title,
      desc: '',
      mime_id: null,
      size: null,
      hash: '',
      state_url: `https://www.congress.gov/amendment/${congress}th-congress/${senate ? 'senate' : 'house'}-amendment/${s(a.number)}`,
    };
  });
}

/** Congress's reasons → LegiScan SAST types: identical → 1 Same As; related, procedurally-related → 8 Related. */
export const SAST_TYPE: Record<string, number> = { identical: 1, related: 8, 'procedurally-related': 8 };

/**
 * Related bills as cross-references (sasts), once every bill of the run is written: each
 * related bill present in the database becomes a row (those outside it are not listed).
 */
export async function resolveRelatedBills(db: Queryable): Promise<number> {
  const r = await db.query(
    `INSERT INTO bill_sasts (bill_id, sast_type_id, sast_bill_id, sast_bill_number)
     SELECT b.bill_id, CASE r->>'reason' WHEN 'identical' THEN 1 ELSE 8 END, t.bill_id, t.bill_number
       FROM bills b CROSS JOIN LATERAL jsonb_array_elements(b.external_ids->'related_bills') r
       JOIN bills t ON t.external_ids ? 'congress_bill_id' AND t.external_ids->>'congress_bill_id' = r->>'bill_id'
      WHERE b.source = 'congress' AND jsonb_typeof(b.external_ids->'related_bills') = 'array'
     ON CONFLICT DO NOTHING`,
  );
  return r.rowCount ?? 0;
}
