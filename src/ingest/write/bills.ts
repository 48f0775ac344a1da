// The bill writer shared by every importer. A bill arrives as one normalised record with all its
// parts; its content hash decides whether anything is written at all, so a re-import of the same
// data changes nothing and records nothing. When something did change, the domain rows and the
// change-log rows are written together (the caller's transaction):
//   first import → NewBill; a different status → StatusChange; a text, roll call or amendment id
//   not seen before on an existing bill → Text / Vote / Amendment.
// A changed bill costs two round trips however many parts it has (three for an existing bill):
// look-up, (the ids of its parts before the write,) bill upsert with the deletes of its replaced
// children; the children themselves are queued and written per batch (buffer.ts).
import type { ChangeInput } from '../../changes/record.js';
import { billNumberKey } from '../../domain/bill-number.js';
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group, Later, WriteResult } from './batch.js';
import { canCopy, copyRows, withCopy, type RowBuffer, type TableSpec } from './buffer.js';
import type { RawSubject, SubjectIndex } from '../../topics/assign.js';
import { contentHash } from './ids.js';
import type { Outcome } from './report.js';

export interface BillRow {
  bill_id?: number;
  state_id: number;
  session_id: number;
  bill_number: string;
  bill_type_id: number;
  body_id: number;
  current_body_id: number;
  status_id: number;
  status_date: string | null;
  title: string;
  description: string;
  state_url: string;
  url: string;
  change_hash: string;
  summary: string | null;
  last_action: string | null;
  last_action_date: string | null;
  completed: number | null;
  pending_committee_id: number | null;
  legiscan_status: number | null;
  external_ids: Record<string, unknown>;
  source: string;
  /** when the source last changed the bill / first listed it (ISO date or timestamp); unknown = import time */
  updated?: string | null;
  created?: string | null;
}

export interface SponsorRow {
  people_id: number;
  sponsor_order: number;
  sponsor_type_id: number;
  committee_sponsor: number;
  committee_id: number;
}
export interface HistoryRow {
  date: string | null;
  action: string;
  body_id: number;
  major: number;
}
export interface TextRow {
  text_id: number;
  type_id: number;
  date: string | null;
  mime_id: number;
  size: number;
  state_url: string;
  hash: string;
}
export interface VoteHeader {
  roll_call_id: number;
  body_id: number;
  date: string | null;
  desc: string;
  yea: number | null;
  nay: number | null;
  nv: number | null;
  absent: number | null;
  total: number | null;
  passed: number;
  state_url: string;
}
/** adopted, mime_id and size: null where the source does not publish them (Congress lists amendments by number alone) */
export interface AmendmentRow {
  amendment_id: number;
  adopted: number | null;
  body_id: number;
  date: string | null;
  title: string;
  desc: string;
  mime_id: number | null;
  size: number | null;
  hash: string;
  state_url: string;
}
export interface SupplementRow {
  supplement_id: number;
  type_id: number;
  date: string | null;
  title: string;
  desc: string;
  state_url: string;
  mime_id: number;
  size: number;
  hash: string;
}
export interface SastRow {
  type_id: number;
  sast_bill_id: number;
  sast_bill_number: string;
}
export interface CalendarRow {
  type_id: number;
  hash: string;
  date: string | null;
  time: string;
  location: string;
  desc: string;
}
export interface ReferralRow {
  committee_id: number;
  name: string;
  date: string | null;
}

export interface BillRecord {
  bill: BillRow;
  /** lookup key for sources without native bill ids, e.g. ['congress_bill_id', 'hr1-116'] */
  externalKey?: [string, string];
  sponsors: SponsorRow[];
  history: HistoryRow[];
  texts: TextRow[];
  votes: VoteHeader[];
  amendments: AmendmentRow[];
  supplements: SupplementRow[];
  sasts: SastRow[];
  subjects: RawSubject[];
  calendar: CalendarRow[];
  referrals: ReferralRow[];
}

// `updated` follows the source's own date (import time when it has none); `created` only ever
// moves earlier, so a re-import without a source date keeps the first one.
const SOURCE_DATES = 'updated = EXCLUDED.updated, created = LEAST(bills.created, EXCLUDED.created)';

const BILL_COLS = [
  'state_id',
  'session_id',
  'bill_number',
  'bill_number_key',
  'bill_type_id',
  'body_id',
  'current_body_id',
  'status_id',
  'status_date',
  'title',
  'description',
  'state_url',
  'url',
  'change_hash',
  'content_hash',
  'summary',
  'last_action',
  'last_action_date',
  'completed',
  'pending_committee_id',
  'subject_names',
  'legiscan_status',
  'external_ids',
  'source',
] as const;

/** The bills row of a record: its columns, with the derived ones (number key, hash, subject names). */
function billRow(rec: BillRecord, hash: string): Record<string, unknown> {
  return {
    ...rec.bill,
    bill_number_key: billNumberKey(rec.bill.bill_number),
    content_hash: hash,
    subject_names: rec.subjects.map((s) => s.name).join('; '),
  };
}

/** BILL_COLS of a record as statement parameters or COPY cells (external_ids as JSON text). */
function billValues(rec: BillRecord, hash: string): unknown[] {
  const row = billRow(rec, hash);
  row.external_ids = JSON.stringify(rec.bill.external_ids);
  return BILL_COLS.map((c) => row[c] ?? null);
}
const FRESH_COPY = `bills (bill_id, ${BILL_COLS.join(', ')}, updated, created)`;

interface Written {
  bill_id: number;
  status_id: number | null;
  wrote: boolean;
  dropped: number[] | null;
  texts: number[] | null;
  votes: number[] | null;
  amendments: number[] | null;
}

/**
 * One statement per bill: find it (by LegiScan id or external key), upsert it only when its
 * content hash differs, delete the children it replaces, and return what was there before (status,
 * part ids) so the caller can tell NewBill / StatusChange / Text / Vote / Amendment apart.
 */
async function writeBill(db: Queryable, rec: BillRecord, hash: string): Promise<Written> {
  const b = rec.bill;
  const params: unknown[] = [
    b.bill_id ?? null,
    rec.externalKey?.[1] ?? null,
    ...billValues(rec, hash),
    b.updated ?? null,
    b.created ?? null,
  ];
  const find =
    b.bill_id !== undefined
      ? 'bill_id = $1'
      : `external_ids ? '${rec.externalKey![0]}' AND external_ids->>'${rec.externalKey![0]}' = $2`;
  const gone = (t: string) => `DELETE FROM ${t} WHERE bill_id = (SELECT bill_id FROM up)`;
  const { rows } = await db.query<Written>(
    `WITH old AS (SELECT bill_id, status_id, content_hash FROM bills WHERE ${find}),
       id AS (SELECT coalesce((SELECT bill_id FROM old), $1::int, nextval('import_ids')::int) AS bill_id),
       up AS (INSERT INTO bills (bill_id, ${BILL_COLS.join(', ')}, updated, created)
              VALUES ((SELECT bill_id FROM id), ${BILL_COLS.map((_, i) => `$${i + 3}`).join(', ')},
                      coalesce($${BILL_COLS.length + 3}::timestamptz, now()), coalesce($${BILL_COLS.length + 4}::timestamptz, $${BILL_COLS.length + 3}::timestamptz, now()))
              ON CONFLICT (bill_id) DO UPDATE SET ${BILL_COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, ${SOURCE_DATES}
              WHERE bills.content_hash IS DISTINCT FROM EXCLUDED.content_hash
              RETURNING bill_id),
       ${['bill_sponsors', 'bill_history', 'bill_sasts', 'bill_calendar', 'bill_referrals', 'bill_topics'].map((t, i) => `d${i} AS (${gone(t)})`).join(', ')},
       ds AS (${gone('bill_subjects')} RETURNING subject_id)
     SELECT id.bill_id, old.status_id, $2::text AS external_key, EXISTS (SELECT 1 FROM up) AS wrote, (SELECT array_agg(subject_id) FROM ds) AS dropped,
       (SELECT array_agg(text_id) FROM bill_texts WHERE bill_id = old.bill_id) AS texts,
       (SELECT array_agg(roll_call_id) FROM roll_calls WHERE bill_id = old.bill_id) AS votes,
       (SELECT array_agg(amendment_id) FROM amendments WHERE bill_id = old.bill_id) AS amendments
     FROM id LEFT JOIN old ON true`,
    params,
  );
  return rows[0]!;
}

/**
 * Bills with LegiScan ids are written in groups: one statement upserts every bill of the batch
 * whose content hash differs, deletes the children they replace and returns what was there
 * before, then each bill's children are queued. Bills identified by an external key (Congress)
 * take the one-statement-per-bill path, which also allocates their ids.
 */
class BillGroup implements Group {
  private pending: { rec: BillRecord; hash: string; later: Later }[] = [];
  constructor(private readonly subjects: SubjectIndex) {}

  add(rec: BillRecord, hash: string): Later {
    const later: Later = { later: true };
    this.pending.push({ rec, hash, later });
    return later;
  }

  clear(): void {
    this.pending = [];
  }

  async flush(db: Queryable, w: BatchWriter): Promise<void> {
    const all = this.pending;
    this.pending = [];
    if (!all.length) return;
    // Hashes first (a few bytes per bill): a re-import of unchanged bills ships no bill rows at all.
    const stored = new Map(
      (
        await db.query<{ bill_id: number; content_hash: string }>(
          'SELECT bill_id, content_hash FROM bills WHERE bill_id = ANY($1::int[])',
          [all.map((x) => x.rec.bill.bill_id)],
        )
      ).rows.map((r) => [r.bill_id, r.content_hash]),
    );
    const work = all.filter((x) => {
      if (stored.get(x.rec.bill.bill_id!) !== x.hash) return true;
      x.later.value = 'unchanged';
      return false;
    });
    if (!work.length) return;
    // Every subject of the batch's bills in at most two statements, not two per new subject.
    await this.subjects.prefetch(
      db,
      work.map(({ rec }) => ({ stateId: rec.bill.state_id, subjects: rec.subjects })),
    );
    // A bill the database does not have yet has no parts either (every part references its bill):
    // nothing to delete or compare, so it goes in by COPY, the cheapest write there is.
    const fresh = w.bulk && canCopy(db) ? work.filter((x) => !stored.has(x.rec.bill.bill_id!)) : [];
    if (fresh.length) {
      const now = new Date().toISOString();
      await copyRows(
        db,
        FRESH_COPY,
        fresh.map(({ rec, hash }) => [
          rec.bill.bill_id,
          ...billValues(rec, hash),
          rec.bill.updated ?? now,
          rec.bill.created ?? rec.bill.updated ?? now,
        ]),
      );
      for (const { rec, later } of fresh) {
        later.value = await afterWrite(
          db,
          rec,
          {
            bill_id: rec.bill.bill_id!,
            status_id: null,
            wrote: true,
            dropped: null,
            texts: null,
            votes: null,
            amendments: null,
          },
          this.subjects,
          w,
          true,
        );
      }
    }
    const changed = fresh.length ? work.filter((x) => stored.has(x.rec.bill.bill_id!)) : work;
    if (!changed.length) return;
    const input = changed.map(({ rec, hash }) => billRow(rec, hash));
    const gone = (t: string) => `DELETE FROM ${t} WHERE bill_id IN (SELECT bill_id FROM up)`;
    const { rows } = await db.query<Written>(
      `WITH input AS (SELECT * FROM json_populate_recordset(NULL::bills, $1::json)),
         old AS (SELECT b.bill_id, b.status_id FROM bills b JOIN input USING (bill_id)),
         up AS (INSERT INTO bills (bill_id, ${BILL_COLS.join(', ')}, updated, created)
                SELECT bill_id, ${BILL_COLS.join(', ')}, coalesce(updated, now()), coalesce(created, updated, now()) FROM input
                ON CONFLICT (bill_id) DO UPDATE SET ${BILL_COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, ${SOURCE_DATES}
                WHERE bills.content_hash IS DISTINCT FROM EXCLUDED.content_hash
                RETURNING bill_id),
         ${['bill_sponsors', 'bill_history', 'bill_sasts', 'bill_calendar', 'bill_referrals', 'bill_topics'].map((t, i) => `d${i} AS (${gone(t)})`).join(', ')},
         ds AS (${gone('bill_subjects')} RETURNING bill_id, subject_id)
       SELECT i.bill_id, old.status_id, i.bill_id IN (SELECT bill_id FROM up) AS wrote,
         (SELECT array_agg(subject_id) FROM ds WHERE ds.bill_id = i.bill_id) AS dropped,
         (SELECT array_agg(text_id) FROM bill_texts WHERE bill_id = old.bill_id) AS texts,
         (SELECT array_agg(roll_call_id) FROM roll_calls WHERE bill_id = old.bill_id) AS votes,
         (SELECT array_agg(amendment_id) FROM amendments WHERE bill_id = old.bill_id) AS amendments
       FROM input i LEFT JOIN old USING (bill_id)`,
      [JSON.stringify(input)],
    );
    const byId = new Map(rows.map((r) => [r.bill_id, r]));
    for (const { rec, later } of changed) {
      later.value = await afterWrite(db, rec, byId.get(rec.bill.bill_id!)!, this.subjects, w);
    }
  }
}

/**
 * The bill's content hash. A bill found by its external key (Congress) hashes as it always did,
 * without the id the importer gives it before the write: an id is not content, and the hashes
 * stored by earlier imports stay valid, so a re-import still finds the bill unchanged.
 */
export function billHash(rec: BillRecord): string {
  return contentHash(
    rec.externalKey && rec.bill.bill_id !== undefined ? { ...rec, bill: { ...rec.bill, bill_id: undefined } } : rec,
  );
}

export async function upsertBill(
  db: Queryable,
  rec: BillRecord,
  subjects: SubjectIndex,
  w: BatchWriter,
): Promise<WriteResult> {
  const key = rec.bill.bill_id !== undefined ? `bill:${rec.bill.bill_id}` : `bill:${rec.externalKey!.join(':')}`;
  // The same bill twice in one batch: the second must see the first.
  if (w.buffer.has(key)) await w.flush(db);
  w.buffer.claim(key);
  const hash = billHash(rec);
  if (rec.bill.bill_id !== undefined) return w.group('bills', () => new BillGroup(subjects)).add(rec, hash);
  return afterWrite(db, rec, await writeBill(db, rec, hash), subjects, w);
}

/**
 * Changes and children of a bill just written (or nothing, when it was unchanged). `fresh`: the
 * bill was not stored before, so none of its parts can be either and they go in by COPY.
 */
async function afterWrite(
  db: Queryable,
  rec: BillRecord,
  found: Written,
  subjects: SubjectIndex,
  w: BatchWriter,
  fresh = false,
): Promise<Outcome> {
  if (!found.wrote) return 'unchanged';
  const billId = found.bill_id;
  const exists = found.status_id !== null;
  const b = rec.bill;
  const changes: ChangeInput[] = [];
  const base = { bill_id: billId, state_id: b.state_id };
  if (!exists) changes.push({ ...base, reason: 'NewBill', new_status: b.status_id });
  else if (found.status_id !== b.status_id)
    changes.push({ ...base, reason: 'StatusChange', old_status: found.status_id, new_status: b.status_id });
  const old = { t: new Set(found.texts ?? []), v: new Set(found.votes ?? []), a: new Set(found.amendments ?? []) };
  const subjectIds = await subjects.resolveAll(db, b.state_id, rec.subjects);
  subjects.touch([...(found.dropped ?? []), ...subjectIds]);
  queueParts(w.buffer, billId, rec, subjectIds, fresh);
  if (exists) {
    for (const t of rec.texts)
      if (!old.t.has(t.text_id)) changes.push({ ...base, reason: 'Text', detail: { text_id: t.text_id } });
    for (const v of rec.votes)
      if (!old.v.has(v.roll_call_id))
        changes.push({ ...base, reason: 'Vote', detail: { roll_call_id: v.roll_call_id } });
    for (const a of rec.amendments)
      if (!old.a.has(a.amendment_id))
        changes.push({ ...base, reason: 'Amendment', detail: { amendment_id: a.amendment_id } });
  }
  w.change(...changes);
  return exists ? 'updated' : 'inserted';
}

// Child rows and parts, queued per batch (see buffer.ts). Parts are upserts: a text's decoded
// document arrives separately and must survive; tallies missing from a header (older datasets)
// keep what the roll call file wrote.
const SPONSORS = withCopy({
  types: ['int', 'bigint', 'int', 'smallint', 'smallint', 'int'],
  sql: 'INSERT INTO bill_sponsors (bill_id, people_id, sponsor_order, sponsor_type_id, committee_sponsor, committee_id) SELECT * FROM $COLS',
});
const HISTORY = withCopy({
  types: ['int', 'int', 'date', 'text', 'int', 'smallint'],
  sql: 'INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major) SELECT * FROM $COLS',
});
const SASTS: TableSpec = {
  types: ['int', 'smallint', 'int', 'text'],
  sql: 'INSERT INTO bill_sasts (bill_id, sast_type_id, sast_bill_id, sast_bill_number) SELECT * FROM $COLS ON CONFLICT DO NOTHING',
};
const CALENDAR: TableSpec = {
  types: ['int', 'text', 'smallint', 'date', 'text', 'text', 'text'],
  sql: 'INSERT INTO bill_calendar (bill_id, event_hash, event_type_id, event_date, event_time, event_location, event_desc) SELECT * FROM $COLS ON CONFLICT DO NOTHING',
};
const REFERRALS = withCopy({
  types: ['int', 'int', 'int', 'text', 'date'],
  sql: 'INSERT INTO bill_referrals (bill_id, referral_step, committee_id, committee_name, referral_date) SELECT * FROM $COLS',
});
const SUBJECTS: TableSpec = {
  types: ['int', 'int'],
  sql: 'INSERT INTO bill_subjects (bill_id, subject_id) SELECT * FROM $COLS ON CONFLICT DO NOTHING',
};
const TOPICS: TableSpec = {
  types: ['int', 'int'],
  sql: 'INSERT INTO bill_topics (bill_id, topic_id) SELECT DISTINCT b.bill_id, t.topic_id FROM $COLS AS b(bill_id, subject_id) JOIN subject_topics t USING (subject_id) ON CONFLICT DO NOTHING',
};
const TEXTS: TableSpec = {
  types: ['int', 'int', 'smallint', 'date', 'smallint', 'int', 'text', 'text'],
  dedupe: 0,
  sql: `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, mime_id, size_bytes, state_url, text_hash) SELECT * FROM $COLS
       ON CONFLICT (text_id) DO UPDATE SET bill_text_type_id = EXCLUDED.bill_text_type_id, text_date = EXCLUDED.text_date,
         mime_id = EXCLUDED.mime_id, size_bytes = CASE WHEN EXCLUDED.size_bytes > 0 THEN EXCLUDED.size_bytes ELSE bill_texts.size_bytes END,
         state_url = EXCLUDED.state_url, text_hash = CASE WHEN EXCLUDED.text_hash <> '' THEN EXCLUDED.text_hash ELSE bill_texts.text_hash END`,
};
const voteSpec = (withTally: boolean): TableSpec => ({
  types: ['int', 'int', 'int', 'date', 'text', 'int', 'int', 'int', 'int', 'int', 'smallint', 'text'],
  dedupe: 0,
  sql: `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url) SELECT * FROM $COLS
       ON CONFLICT (roll_call_id) DO UPDATE SET roll_call_body_id = EXCLUDED.roll_call_body_id, vote_date = EXCLUDED.vote_date,
         description = EXCLUDED.description, ${['yea', 'nay', 'nv', 'absent', 'total'].map((c) => `${c} = ${withTally ? 'EXCLUDED' : 'roll_calls'}.${c}`).join(', ')},
         passed = EXCLUDED.passed, state_url = CASE WHEN EXCLUDED.state_url <> '' THEN EXCLUDED.state_url ELSE roll_calls.state_url END`,
});
const VOTES_FULL = voteSpec(true);
const VOTES_HEAD = voteSpec(false);
const AMENDMENTS: TableSpec = {
  types: ['int', 'int', 'smallint', 'int', 'date', 'text', 'text', 'smallint', 'int', 'text', 'text'],
  dedupe: 0,
  sql: `INSERT INTO amendments (amendment_id, bill_id, adopted, amendment_body_id, amendment_date, amendment_title, amendment_desc, amendment_mime_id, amendment_size, amendment_hash, state_url)
       SELECT * FROM $COLS
       ON CONFLICT (amendment_id) DO UPDATE SET adopted = EXCLUDED.adopted, amendment_body_id = EXCLUDED.amendment_body_id, amendment_date = EXCLUDED.amendment_date,
         amendment_title = EXCLUDED.amendment_title, amendment_desc = EXCLUDED.amendment_desc, amendment_mime_id = EXCLUDED.amendment_mime_id,
         amendment_size = EXCLUDED.amendment_size, amendment_hash = EXCLUDED.amendment_hash, state_url = EXCLUDED.state_url`,
};
const SUPPLEMENTS: TableSpec = {
  types: ['int', 'int', 'smallint', 'date', 'text', 'text', 'text', 'smallint', 'int', 'text'],
  dedupe: 0,
  sql: `INSERT INTO supplements (supplement_id, bill_id, supplement_type_id, supplement_date, title, description, state_url, supplement_mime_id, supplement_size, supplement_hash)
       SELECT * FROM $COLS
       ON CONFLICT (supplement_id) DO UPDATE SET supplement_type_id = EXCLUDED.supplement_type_id, supplement_date = EXCLUDED.supplement_date, title = EXCLUDED.title,
         description = EXCLUDED.description, state_url = EXCLUDED.state_url, supplement_mime_id = EXCLUDED.supplement_mime_id,
         supplement_size = EXCLUDED.supplement_size, supplement_hash = EXCLUDED.supplement_hash`,
};

/**
 * The parts with ids of their own, written by COPY for a bill not stored before: nothing to
 * update, and COPY is the cheapest write (a conflicting id fails the batch, which is then
 * replayed record by record through the upserts).
 */
const FRESH_TEXTS = withCopy(TEXTS);
const FRESH_VOTES = withCopy(VOTES_FULL);
const FRESH_AMENDMENTS = withCopy(AMENDMENTS);
const FRESH_SUPPLEMENTS = withCopy(SUPPLEMENTS);

/** Queues every child row and part of the bill (its old children are already deleted). */
function queueParts(buf: RowBuffer, id: number, rec: BillRecord, subjectIds: number[], fresh: boolean): void {
  // A source may list the same person twice (sponsor and cosponsor): the first listing wins.
  const seen = new Set<number>();
  const sponsors = rec.sponsors.filter((s) => !seen.has(s.people_id) && seen.add(s.people_id));
  buf.add(
    SPONSORS,
    sponsors.map((s) => [id, s.people_id, s.sponsor_order, s.sponsor_type_id, s.committee_sponsor, s.committee_id]),
  );
  buf.add(
    HISTORY,
    rec.history.map((h, i) => [id, i + 1, h.date, h.action, h.body_id, h.major]),
  );
  buf.add(
    SASTS,
    rec.sasts.map((s) => [id, s.type_id, s.sast_bill_id, s.sast_bill_number]),
  );
  buf.add(
    CALENDAR,
    rec.calendar.map((c) => [id, c.hash, c.type_id, c.date, c.time, c.location, c.desc]),
  );
  buf.add(
    REFERRALS,
    rec.referrals.map((r, i) => [id, i + 1, r.committee_id, r.name, r.date]),
  );
  buf.add(
    SUBJECTS,
    subjectIds.map((s) => [id, s]),
  );
  buf.add(
    TOPICS,
    subjectIds.map((s) => [id, s]),
  );
  buf.add(
    fresh ? FRESH_TEXTS : TEXTS,
    rec.texts.map((t) => [t.text_id, id, t.type_id, t.date, t.mime_id, t.size, t.state_url, t.hash]),
  );
  const vote = (v: VoteHeader) => [
    v.roll_call_id,
    id,
    v.body_id,
    v.date,
    v.desc,
    v.yea ?? 0,
    v.nay ?? 0,
    v.nv ?? 0,
    v.absent ?? 0,
    v.total ?? 0,
    v.passed,
    v.state_url,
  ];
  if (fresh) buf.add(FRESH_VOTES, rec.votes.map(vote));
  else {
    buf.add(VOTES_FULL, rec.votes.filter((v) => v.yea !== null).map(vote));
    buf.add(VOTES_HEAD, rec.votes.filter((v) => v.yea === null).map(vote));
  }
  buf.add(
    fresh ? FRESH_AMENDMENTS : AMENDMENTS,
    rec.amendments.map((a) => [
      a.amendment_id,
      id,
      a.adopted,
      a.body_id,
      a.date,
      a.title,
      a.desc,
      a.mime_id,
      a.size,
      a.hash,
      a.state_url,
    ]),
  );
  buf.add(
    fresh ? FRESH_SUPPLEMENTS : SUPPLEMENTS,
    rec.supplements.map((s) => [
      s.supplement_id,
      id,
      s.type_id,
      s.date,
      s.title,
      s.desc,
      s.state_url,
      s.mime_id,
      s.size,
      s.hash,
    ]),
  );
}
