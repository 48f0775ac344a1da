// The bill writer shared by every importer. A bill arrives as one normalised record with all its
// parts; its content hash decides whether anything is written at all, so a re-import of the same
// data changes nothing and records nothing. When something did change, the domain rows and the
// change-log rows are written together (the caller's transaction):
//   first import → NewBill; a different status → StatusChange; a text, roll call or amendment id
//   not seen before on an existing bill → Text / Vote / Amendment.
import { recordChanges, type ChangeInput } from '../changes/record.js';
import type { Queryable } from '../db/pool.js';
import type { RawSubject, SubjectIndex } from '../topics/assign.js';
import { contentHash, nextId } from './ids.js';
import type { Outcome } from './report.js';

export interface BillRow {
  bill_id?: number; state_id: number; session_id: number; bill_number: string; bill_type_id: number; body_id: number;
  current_body_id: number; status_id: number; status_date: string | null; title: string; description: string; state_url: string;
  url: string; change_hash: string; summary: string | null; last_action: string | null; last_action_date: string | null;
  completed: number | null; pending_committee_id: number | null; legiscan_status: number | null; external_ids: Record<string, unknown>; source: string;
}
export interface SponsorRow { people_id: number; sponsor_order: number; sponsor_type_id: number; committee_sponsor: number; committee_id: number }
export interface HistoryRow { date: string | null; action: string; body_id: number; major: number }
export interface TextRow { text_id: number; type_id: number; date: string | null; mime_id: number; size: number; state_url: string; hash: string }
export interface VoteHeader {
  roll_call_id: number; body_id: number; date: string | null; desc: string; yea: number | null; nay: number | null; nv: number | null;
  absent: number | null; total: number | null; passed: number; state_url: string;
}
export interface AmendmentRow { amendment_id: number; adopted: number; body_id: number; date: string | null; title: string; desc: string; mime_id: number; size: number; hash: string; state_url: string }
export interface SupplementRow { supplement_id: number; type_id: number; date: string | null; title: string; desc: string; state_url: string; mime_id: number; size: number; hash: string }
export interface SastRow { type_id: number; sast_bill_id: number; sast_bill_number: string }
export interface CalendarRow { type_id: number; hash: string; date: string | null; time: string; location: string; desc: string }
export interface ReferralRow { committee_id: number; name: string; date: string | null }

export interface BillRecord {
  bill: BillRow;
  /** lookup key for sources without native bill ids, e.g. ['congress_bill_id', 'hr1-116'] */
  externalKey?: [string, string];
  sponsors: SponsorRow[]; history: HistoryRow[]; texts: TextRow[]; votes: VoteHeader[]; amendments: AmendmentRow[];
  supplements: SupplementRow[]; sasts: SastRow[]; subjects: RawSubject[]; calendar: CalendarRow[]; referrals: ReferralRow[];
}

const BILL_COLS = ['state_id', 'session_id', 'bill_number', 'bill_number_key', 'bill_type_id', 'body_id', 'current_body_id', 'status_id',
  'status_date', 'title', 'description', 'state_url', 'url', 'change_hash', 'content_hash', 'summary', 'last_action', 'last_action_date',
  'completed', 'pending_committee_id', 'subject_names', 'legiscan_status', 'external_ids', 'source'] as const;

/** HB0001 → HB1: compact, upper case, leading zeros of the number removed. */
export function billNumberKey(n: string): string {
  return n.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/([A-Z])0+(\d)/g, '$1$2');
}

const arr = <T, K extends keyof T>(rows: T[], k: K) => rows.map((r) => r[k]);

export async function resolveBillId(db: Queryable, rec: BillRecord): Promise<{ id: number; exists: boolean; status_id?: number; content_hash?: string }> {
  const q = rec.bill.bill_id !== undefined
    ? await db.query<{ bill_id: number; status_id: number; content_hash: string }>('SELECT bill_id, status_id, content_hash FROM bills WHERE bill_id = $1', [rec.bill.bill_id])
    : await db.query<{ bill_id: number; status_id: number; content_hash: string }>(`SELECT bill_id, status_id, content_hash FROM bills WHERE external_ids->>'${rec.externalKey![0]}' = $1`, [rec.externalKey![1]]);
  const row = q.rows[0];
  if (row) return { id: row.bill_id, exists: true, status_id: row.status_id, content_hash: row.content_hash };
  return { id: rec.bill.bill_id ?? (await nextId(db)), exists: false };
}

export async function upsertBill(db: Queryable, rec: BillRecord, subjects: SubjectIndex): Promise<{ bill_id: number; outcome: Outcome }> {
  const found = await resolveBillId(db, rec);
  const hash = contentHash(rec);
  if (found.exists && found.content_hash === hash) return { bill_id: found.id, outcome: 'unchanged' };
  const billId = found.id;
  const b = rec.bill;
  const row: Record<string, unknown> = {
    ...b, bill_number_key: billNumberKey(b.bill_number), content_hash: hash,
    subject_names: rec.subjects.map((s) => s.name).join('; '), external_ids: JSON.stringify(b.external_ids),
  };
  await db.query(
    `INSERT INTO bills (bill_id, ${BILL_COLS.join(', ')}, updated, created) VALUES ($1, ${BILL_COLS.map((_, i) => `$${i + 2}`).join(', ')}, now(), now())
     ON CONFLICT (bill_id) DO UPDATE SET ${BILL_COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated = now()`,
    [billId, ...BILL_COLS.map((c) => row[c] ?? null)],
  );
  const changes: ChangeInput[] = [];
  const base = { bill_id: billId, state_id: b.state_id };
  if (!found.exists) changes.push({ ...base, reason: 'NewBill', new_status: b.status_id });
  else if (found.status_id !== b.status_id) changes.push({ ...base, reason: 'StatusChange', old_status: found.status_id, new_status: b.status_id });

  await replaceChildren(db, billId, rec);
  await subjects.setBillSubjects(db, billId, b.state_id, rec.subjects);

  const before = async (table: string, col: string) => new Set((await db.query(`SELECT ${col} AS id FROM ${table} WHERE bill_id = $1`, [billId])).rows.map((r: { id: number }) => r.id));
  const oldTexts = await before('bill_texts', 'text_id');
  const oldVotes = await before('roll_calls', 'roll_call_id');
  const oldAmendments = await before('amendments', 'amendment_id');
  await upsertParts(db, billId, rec);
  if (found.exists) {
    for (const t of rec.texts) if (!oldTexts.has(t.text_id)) changes.push({ ...base, reason: 'Text', detail: { text_id: t.text_id } });
    for (const v of rec.votes) if (!oldVotes.has(v.roll_call_id)) changes.push({ ...base, reason: 'Vote', detail: { roll_call_id: v.roll_call_id } });
    for (const a of rec.amendments) if (!oldAmendments.has(a.amendment_id)) changes.push({ ...base, reason: 'Amendment', detail: { amendment_id: a.amendment_id } });
  }
  await recordChanges(db, changes);
  return { bill_id: billId, outcome: found.exists ? 'updated' : 'inserted' };
}

async function replaceChildren(db: Queryable, billId: number, rec: BillRecord): Promise<void> {
  for (const t of ['bill_sponsors', 'bill_history', 'bill_sasts', 'bill_calendar', 'bill_referrals']) await db.query(`DELETE FROM ${t} WHERE bill_id = $1`, [billId]);
  // A source may list the same person twice (sponsor and cosponsor): the first listing wins.
  const seen = new Set<number>();
  const sponsors = rec.sponsors.filter((s) => !seen.has(s.people_id) && seen.add(s.people_id));
  if (sponsors.length) {
    await db.query(
      `INSERT INTO bill_sponsors (bill_id, people_id, sponsor_order, sponsor_type_id, committee_sponsor, committee_id)
       SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::smallint[], $5::smallint[], $6::int[])`,
      [billId, arr(sponsors, 'people_id'), arr(sponsors, 'sponsor_order'), arr(sponsors, 'sponsor_type_id'), arr(sponsors, 'committee_sponsor'), arr(sponsors, 'committee_id')],
    );
  }
  if (rec.history.length) {
    await db.query(
      `INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major)
       SELECT $1, * FROM unnest($2::int[], $3::date[], $4::text[], $5::int[], $6::smallint[])`,
      [billId, rec.history.map((_, i) => i + 1), arr(rec.history, 'date'), arr(rec.history, 'action'), arr(rec.history, 'body_id'), arr(rec.history, 'major')],
    );
  }
  if (rec.sasts.length) {
    await db.query(
      `INSERT INTO bill_sasts (bill_id, sast_type_id, sast_bill_id, sast_bill_number)
       SELECT $1, * FROM unnest($2::smallint[], $3::int[], $4::text[]) ON CONFLICT DO NOTHING`,
      [billId, arr(rec.sasts, 'type_id'), arr(rec.sasts, 'sast_bill_id'), arr(rec.sasts, 'sast_bill_number')],
    );
  }
  if (rec.calendar.length) {
    await db.query(
      `INSERT INTO bill_calendar (bill_id, event_hash, event_type_id, event_date, event_time, event_location, event_desc)
       SELECT $1, * FROM unnest($2::text[], $3::smallint[], $4::date[], $5::text[], $6::text[], $7::text[]) ON CONFLICT DO NOTHING`,
      [billId, arr(rec.calendar, 'hash'), arr(rec.calendar, 'type_id'), arr(rec.calendar, 'date'), arr(rec.calendar, 'time'), arr(rec.calendar, 'location'), arr(rec.calendar, 'desc')],
    );
  }
  if (rec.referrals.length) {
    await db.query(
      `INSERT INTO bill_referrals (bill_id, referral_step, committee_id, committee_name, referral_date)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::date[])`,
      [billId, rec.referrals.map((_, i) => i + 1), arr(rec.referrals, 'committee_id'), arr(rec.referrals, 'name'), arr(rec.referrals, 'date')],
    );
  }
}

async function upsertParts(db: Queryable, billId: number, rec: BillRecord): Promise<void> {
  for (const t of rec.texts) {
    // Header fields only: the decoded document (content) arrives separately and must survive.
    await db.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, mime_id, size_bytes, state_url, text_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (text_id) DO UPDATE SET bill_text_type_id = EXCLUDED.bill_text_type_id, text_date = EXCLUDED.text_date,
         mime_id = EXCLUDED.mime_id, size_bytes = CASE WHEN EXCLUDED.size_bytes > 0 THEN EXCLUDED.size_bytes ELSE bill_texts.size_bytes END,
         state_url = EXCLUDED.state_url, text_hash = CASE WHEN EXCLUDED.text_hash <> '' THEN EXCLUDED.text_hash ELSE bill_texts.text_hash END`,
      [t.text_id, billId, t.type_id, t.date, t.mime_id, t.size, t.state_url, t.hash],
    );
  }
  for (const v of rec.votes) {
    // Tallies missing from a header (older datasets) keep what the roll call file wrote.
    await db.query(
      `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url)
       VALUES ($1, $2, $3, $4, $5, coalesce($6, 0), coalesce($7, 0), coalesce($8, 0), coalesce($9, 0), coalesce($10, 0), $11, $12)
       ON CONFLICT (roll_call_id) DO UPDATE SET roll_call_body_id = EXCLUDED.roll_call_body_id, vote_date = EXCLUDED.vote_date,
         description = EXCLUDED.description, yea = coalesce($6, roll_calls.yea), nay = coalesce($7, roll_calls.nay), nv = coalesce($8, roll_calls.nv),
         absent = coalesce($9, roll_calls.absent), total = coalesce($10, roll_calls.total), passed = EXCLUDED.passed,
         state_url = CASE WHEN EXCLUDED.state_url <> '' THEN EXCLUDED.state_url ELSE roll_calls.state_url END`,
      [v.roll_call_id, billId, v.body_id, v.date, v.desc, v.yea, v.nay, v.nv, v.absent, v.total, v.passed, v.state_url],
    );
  }
  for (const a of rec.amendments) {
    await db.query(
      `INSERT INTO amendments (amendment_id, bill_id, adopted, amendment_body_id, amendment_date, amendment_title, amendment_desc, amendment_mime_id, amendment_size, amendment_hash, state_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (amendment_id) DO UPDATE SET adopted = EXCLUDED.adopted, amendment_body_id = EXCLUDED.amendment_body_id, amendment_date = EXCLUDED.amendment_date,
         amendment_title = EXCLUDED.amendment_title, amendment_desc = EXCLUDED.amendment_desc, amendment_mime_id = EXCLUDED.amendment_mime_id,
         amendment_size = EXCLUDED.amendment_size, amendment_hash = EXCLUDED.amendment_hash, state_url = EXCLUDED.state_url`,
      [a.amendment_id, billId, a.adopted, a.body_id, a.date, a.title, a.desc, a.mime_id, a.size, a.hash, a.state_url],
    );
  }
  for (const s of rec.supplements) {
    await db.query(
      `INSERT INTO supplements (supplement_id, bill_id, supplement_type_id, supplement_date, title, description, state_url, supplement_mime_id, supplement_size, supplement_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (supplement_id) DO UPDATE SET supplement_type_id = EXCLUDED.supplement_type_id, supplement_date = EXCLUDED.supplement_date, title = EXCLUDED.title,
         description = EXCLUDED.description, state_url = EXCLUDED.state_url, supplement_mime_id = EXCLUDED.supplement_mime_id,
         supplement_size = EXCLUDED.supplement_size, supplement_hash = EXCLUDED.supplement_hash`,
      [s.supplement_id, billId, s.type_id, s.date, s.title, s.desc, s.state_url, s.mime_id, s.size, s.hash],
    );
  }
}
