// SQL for bills and their sub-resources. Reads go to the read pool; every list has a stable order.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type * as S from './schemas.js';
import { iso, likeContains, PARTY_NAME, Where } from '../common/sql.js';
import { CONSECUTIVE_PAIRS_SQL } from '../../texts/store.js';

/** A bill as the API answers it: the rows below are typed from the response schemas, so a route's answer is checked against its schema by tsc. */
export type BillRow = Static<typeof S.BillSchema>;
/** A text change with the bill it belongs to in `_bill` (see textChangesOf). */
export type TextChangeOfBill = Static<typeof S.TextChangeRow> & { _bill: number };

/** Each list sub-resource of a bill, by its path, with the row its endpoint answers. */
export type SubresourceRows = { [K in keyof typeof S.SUBRESOURCE_ROWS]: Static<(typeof S.SUBRESOURCE_ROWS)[K]> };
export type SubresourceName = keyof SubresourceRows;

export const BILL_COLUMNS = `
  b.bill_id, b.state_id, s.state_abbr::text AS state_abbr, b.session_id, b.bill_number, b.bill_type_id,
  coalesce(bt.bill_type_name, '') AS bill_type_name, b.body_id, b.current_body_id, b.status_id, b.status_date,
  b.title, b.description, b.state_url, ${iso('b.updated')} AS updated, ${iso('b.created')} AS created,
  b.change_hash, b.content_hash, b.summary, b.last_action, b.completed, b.pending_committee_id`;

const BILL_JOINS = `JOIN states s ON s.state_id = b.state_id LEFT JOIN bill_types bt ON bt.bill_type_id = b.bill_type_id`;
const BILL_FROM = `bills b ${BILL_JOINS}`;

export interface BillFilters {
  stateId?: number;
  sessionId?: number;
  numberKey?: string;
  q?: string;
  topicId?: number;
  subject?: string;
  sponsorLastName?: string;
  statusId?: number;
  titleContains?: string;
  updatedSince?: string;
  limit: number;
  offset: number;
}

/**
 * Bill search. Every filter narrows through an index (state/session/status + updated, number key,
 * GIN full text, trigram title, topic and subject/sponsor semi-joins). Always newest-updated first,
 * as the spec's contract says, q included: ranking by relevance means reading every match
 * (170 ms for a common word on a million bills, seconds under load), whereas the updated order
 * lets PostgreSQL stop after the first page for common words and use the GIN index for rare ones.
 */
export async function searchBills(db: Queryable, f: BillFilters): Promise<BillRow[]> {
  const w = new Where();
  if (f.stateId !== undefined) w.add(`b.state_id = ${w.p(f.stateId)}`);
  if (f.sessionId !== undefined) w.add(`b.session_id = ${w.p(f.sessionId)}`);
  if (f.numberKey !== undefined) w.add(`b.bill_number_key = ${w.p(f.numberKey)}`);
  if (f.statusId !== undefined) w.add(`b.status_id = ${w.p(f.statusId)}`);
  if (f.updatedSince !== undefined) w.add(`b.updated >= ${w.p(f.updatedSince)}::timestamptz`);
  if (f.titleContains !== undefined) w.add(`b.title ILIKE ${w.p(likeContains(f.titleContains))}`);
  if (f.topicId !== undefined)
    w.add(`b.bill_id IN (SELECT bill_id FROM bill_topics WHERE topic_id = ${w.p(f.topicId)})`);
  if (f.subject !== undefined) {
    w.add(`b.bill_id IN (SELECT bs.bill_id FROM subjects su JOIN bill_subjects bs ON bs.subject_id = su.subject_id
                          WHERE lower(su.subject_name) = lower(${w.p(f.subject)}))`);
  }
  if (f.sponsorLastName !== undefined) {
    w.add(`b.bill_id IN (SELECT sp.bill_id FROM people p JOIN bill_sponsors sp ON sp.people_id = p.people_id
                          WHERE lower(p.last_name) = lower(${w.p(f.sponsorLastName)}))`);
  }
  if (f.q !== undefined) w.add(`b.search @@ websearch_to_tsquery('english', ${w.p(f.q)})`);
  // The page is cut from bills alone and only its rows are joined to their state and type: joined
  // first, every match of a rare word (1,600 at a million bills) went through both joins before the sort.
  const page = `SELECT * FROM bills b ${w.sql()} ORDER BY b.updated DESC, b.bill_id DESC LIMIT ${w.p(f.limit)} OFFSET ${w.p(f.offset)}`;
  const sql = `SELECT ${BILL_COLUMNS} FROM (${page}) b ${BILL_JOINS} ORDER BY b.updated DESC, b.bill_id DESC`;
  return (await db.query<BillRow>(sql, w.params)).rows;
}

export async function getBill(db: Queryable, billId: number): Promise<BillRow | undefined> {
  return (await db.query<BillRow>(`SELECT ${BILL_COLUMNS} FROM ${BILL_FROM} WHERE b.bill_id = $1`, [billId])).rows[0];
}

/** A jurisdiction's bills after a bill id, in bill_id order (the bulk files' keyset walk). */
export async function billsOfSession(
  db: Queryable,
  sessionId: number,
  afterId: number,
  limit: number,
): Promise<BillRow[]> {
  return (
    await db.query<BillRow>(
      `SELECT ${BILL_COLUMNS} FROM ${BILL_FROM} WHERE b.session_id = $1 AND b.bill_id > $2 ORDER BY b.bill_id LIMIT $3`,
      [sessionId, afterId, limit],
    )
  ).rows;
}

export async function billExists(db: Queryable, billId: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM bills WHERE bill_id = $1', [billId])).rowCount === 1;
}

export async function topicIdBySlug(db: Queryable, slug: string): Promise<number | undefined> {
  return (await db.query<{ topic_id: number }>('SELECT topic_id FROM topics WHERE slug = $1', [slug])).rows[0]
    ?.topic_id;
}

/**
 * One query per sub-resource, each in the spec's order, over a list of bills ($1, int[]) ordered by
 * bill first: the sub-resource endpoints pass one id, `include=` on the bill list passes a page of
 * them, so a part reads the same rows in the same order either way (one definition, parts.ts).
 */
export const SUBRESOURCE_SQL: Record<SubresourceName, string> = {
  // A committee sponsor is named by its committee, with people_id 0: it is no legislator. Each
  // person and committee is read by primary key (LATERAL … LIMIT 1, which the planner keeps as a
  // nested loop): joined plainly, the planner hashed all of people (~8,000 rows) and committees for
  // a page of bills, 2–3× the time for 100 or 500 bills (a bulk build's batch, include=all).
  sponsors: `SELECT sp.bill_id, CASE WHEN c.committee_id IS NULL THEN sp.people_id ELSE 0 END AS people_id,
      coalesce(c.committee_name, p.name) AS name, CASE WHEN c.committee_id IS NULL THEN p.first_name ELSE '' END AS first_name,
      CASE WHEN c.committee_id IS NULL THEN p.last_name ELSE '' END AS last_name, p.party_id,
      CASE WHEN c.committee_id IS NULL THEN ${PARTY_NAME} ELSE '' END AS party_name,
      CASE WHEN c.committee_id IS NULL THEN p.district ELSE '' END AS district, sp.sponsor_order, sp.sponsor_type_id,
      coalesce(st.sponsor_type_name, '') AS sponsor_type_name
    FROM bill_sponsors sp
    CROSS JOIN LATERAL (SELECT p.name, p.first_name, p.last_name, p.party_id, p.party_name, p.district, p.committee_id
      FROM people p WHERE p.people_id = sp.people_id LIMIT 1) p
    LEFT JOIN LATERAL (SELECT c.committee_id, c.committee_name FROM committees c
      WHERE c.committee_id = p.committee_id AND p.committee_id > 0 LIMIT 1) c ON true
    LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN sponsor_types st ON st.sponsor_type_id = sp.sponsor_type_id
    WHERE sp.bill_id = ANY($1::int[]) ORDER BY sp.bill_id, sp.sponsor_order, sp.people_id`,
  history: `SELECT h.bill_id, h.history_step, h.history_date, h.history_action, h.history_body_id,
      coalesce(bo.body_name, '') AS body_name, h.history_major
    FROM bill_history h LEFT JOIN bodies bo ON bo.body_id = h.history_body_id
    WHERE h.bill_id = ANY($1::int[]) ORDER BY h.bill_id, h.history_step`,
  texts: `SELECT t.text_id, t.bill_id, t.bill_text_type_id, coalesce(tt.text_type, '') AS text_type, t.text_date, t.size_bytes,
      t.word_count, t.state_url
    FROM bill_texts t LEFT JOIN text_types tt ON tt.text_type_id = t.bill_text_type_id
    WHERE t.bill_id = ANY($1::int[]) ORDER BY t.bill_id, t.text_date DESC NULLS LAST, t.text_id DESC`,
  votes: `SELECT r.roll_call_id, r.bill_id, r.roll_call_body_id, coalesce(bo.body_name, '') AS body, r.vote_date, r.description,
      r.yea, r.nay, r.nv, r.absent, r.total, r.passed, r.state_url
    FROM roll_calls r LEFT JOIN bodies bo ON bo.body_id = r.roll_call_body_id
    WHERE r.bill_id = ANY($1::int[]) ORDER BY r.bill_id, r.vote_date DESC NULLS LAST, r.roll_call_id DESC`,
  subjects: `SELECT bs.bill_id, bs.subject_id, su.subject_name
    FROM bill_subjects bs JOIN subjects su ON su.subject_id = bs.subject_id
    WHERE bs.bill_id = ANY($1::int[]) ORDER BY bs.bill_id, su.subject_name, bs.subject_id`,
  amendments: `SELECT a.amendment_id, a.bill_id, a.adopted, a.amendment_body_id, coalesce(bo.body_name, '') AS body, a.amendment_date,
      a.amendment_title, a.amendment_desc, a.amendment_mime_id, a.amendment_size, a.state_url
    FROM amendments a LEFT JOIN bodies bo ON bo.body_id = a.amendment_body_id
    WHERE a.bill_id = ANY($1::int[]) ORDER BY a.bill_id, a.amendment_date DESC NULLS LAST, a.amendment_id DESC`,
  referrals: `SELECT r.bill_id, r.committee_id, coalesce(nullif(r.committee_name, ''), c.committee_name, '') AS committee_name,
      r.referral_date, r.referral_step
    FROM bill_referrals r LEFT JOIN committees c ON c.committee_id = r.committee_id
    WHERE r.bill_id = ANY($1::int[]) ORDER BY r.bill_id, r.referral_step`,
  calendar: `SELECT c.bill_id, c.event_hash, c.event_type_id, coalesce(et.event_type_name, '') AS event_type_name, c.event_date,
      c.event_time, c.event_location, c.event_desc
    FROM bill_calendar c LEFT JOIN event_types et ON et.event_type_id = c.event_type_id
    WHERE c.bill_id = ANY($1::int[]) ORDER BY c.bill_id, c.event_date DESC NULLS LAST, c.event_time DESC, c.event_hash`,
  supplements: `SELECT su.supplement_id, su.bill_id, su.supplement_type_id, coalesce(st.supplement_type, '') AS supplement_type,
      su.supplement_date, su.title, su.description, su.state_url, su.supplement_mime_id, su.supplement_size
    FROM supplements su LEFT JOIN supplement_types st ON st.supplement_type_id = su.supplement_type_id
    WHERE su.bill_id = ANY($1::int[]) ORDER BY su.bill_id, su.supplement_date DESC NULLS LAST, su.supplement_id DESC`,
  sast: `SELECT x.bill_id, x.sast_type_id, coalesce(st.sast_type, '') AS sast_type, x.sast_bill_id, x.sast_bill_number
    FROM bill_sasts x LEFT JOIN sast_types st ON st.sast_type_id = x.sast_type_id
    WHERE x.bill_id = ANY($1::int[]) ORDER BY x.bill_id, x.sast_type_id, x.sast_bill_number`,
  citations: `SELECT c.id, c.bill_id, c.citation_type, c.citation_number, c.catchline, c.bill_page, c.state_url,
      ${iso('c.created')} AS created
    FROM bill_citations c WHERE c.bill_id = ANY($1::int[]) ORDER BY c.bill_id, c.id`,
  analyses: `SELECT a.id, a.bill_id, a.analysis_type, a.analysis_title, a.author, a.analysis_date, a.state_url,
      ${iso('a.created')} AS created
    FROM bill_analyses a WHERE a.bill_id = ANY($1::int[]) ORDER BY a.bill_id, a.analysis_date DESC NULLS LAST, a.id`,
};

/**
 * Rows of a sub-resource, or undefined when the bill does not exist. The existence check runs only
 * when there are no rows, so the common case is one round trip.
 */
export async function subresource<K extends SubresourceName>(
  db: Queryable,
  name: K,
  billId: number,
): Promise<Array<SubresourceRows[K]> | undefined> {
  const rows = (await db.query<SubresourceRows[K]>(SUBRESOURCE_SQL[name], [[billId]])).rows;
  if (rows.length > 0) return rows;
  return (await billExists(db, billId)) ? rows : undefined;
}

/** Rows of one sub-resource for many bills (`include=`, bulk files): ordered by bill, then as the endpoint orders them. */
export async function subresourceOf<K extends SubresourceName>(
  db: Queryable,
  name: K,
  billIds: number[],
): Promise<Array<SubresourceRows[K]>> {
  return (await db.query<SubresourceRows[K]>(SUBRESOURCE_SQL[name], [billIds])).rows;
}

// Text changes (computed by the diff worker, src/texts).
const CHANGE_COLUMNS = `tc.from_text_id, tc.to_text_id, tc.from_type_id, tc.to_type_id, ${iso('tc.from_created')} AS from_created,
  ${iso('tc.to_created')} AS to_created, tc.added_chars, tc.removed_chars, tc.added_lines, tc.removed_lines, tc.similarity,
  tc.is_whitespace_only, tc.changed_sections, tc.highlights, tc.diff_truncated, ${iso('tc.computed_at')} AS computed_at`;

/**
 * Computed changes between consecutive versions of bills, oldest first per bill. Each row carries
 * its bill in `_bill` (the response row has no bill_id): the endpoint's serializer drops it, parts.ts
 * groups by it and removes it.
 */
export async function textChangesOf(
  db: Queryable,
  billIds: number[],
  withWhitespace: boolean,
): Promise<TextChangeOfBill[]> {
  const { rows } = await db.query<TextChangeOfBill>(
    `SELECT p.bill_id AS _bill, ${CHANGE_COLUMNS} FROM (${CONSECUTIVE_PAIRS_SQL}) p
     JOIN text_changes tc ON tc.from_text_id = p.from_text_id AND tc.to_text_id = p.to_text_id
     WHERE ($2 OR NOT tc.is_whitespace_only)
     ORDER BY p.bill_id, tc.to_created, tc.to_text_id`,
    [billIds, withWhitespace],
  );
  return rows;
}

/** One computed change with its unified diff, if the pair has been computed. */
export async function textChange(
  db: Queryable,
  billId: number,
  from: number,
  to: number,
): Promise<Static<typeof S.DiffSchema> | undefined> {
  const { rows } = await db.query<Static<typeof S.DiffSchema>>(
    `SELECT tc.bill_id, ${CHANGE_COLUMNS}, tc.diff_unified FROM text_changes tc
     WHERE tc.from_text_id = $1 AND tc.to_text_id = $2 AND tc.bill_id = $3`,
    [from, to, billId],
  );
  return rows[0];
}

/** Which of these texts belong to the bill, and whether each is listed without its document. */
export async function textsOfBill(
  db: Queryable,
  billId: number,
  textIds: number[],
): Promise<{ text_id: number; absent: boolean }[]> {
  const { rows } = await db.query<{ text_id: number; absent: boolean }>(
    'SELECT text_id, content IS NULL AS absent FROM bill_texts WHERE bill_id = $1 AND text_id = ANY($2::int[])',
    [billId, textIds],
  );
  return rows;
}
