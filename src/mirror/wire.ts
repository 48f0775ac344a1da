// LegiScan Push wire format (reference/legiscan.md §1.2, §1.3, §1.5): what a receiver written for
// LegiScan Push accepts unchanged. LegiScan's conventions are kept on purpose: 0/1 integer flags,
// "0000-00-00" for unknown dates, string-typed bill_type_id and party_id, LegiScan's own status,
// progress, sponsor-type, text-type, vote, body and reason codes. People are identified by their
// LegiScan people_id when we have one (imported from LegiScan), by our people_id otherwise.
import type { Queryable } from '../db/pool.js';
import { legiscanFromLadder } from '../ingest/legiscan/status-map.js';

type Obj = Record<string, unknown>;

export const NO_DATE = '0000-00-00';
const d = (v: string | null | undefined) => v ?? NO_DATE;
const VOTE_TEXT: Record<number, string> = { 1: 'Yea', 2: 'Nay', 3: 'NV', 4: 'Absent' };
const MIME: Record<number, string> = { 1: 'text/html', 2: 'application/pdf', 3: 'application/wpd', 4: 'application/doc', 5: 'application/rtf', 6: 'application/docx', 7: 'application/xls', 8: 'application/xlsx', 9: 'text/csv', 10: 'application/json', 11: 'application/zip' };
export const REASON_NAMES: Record<number, string> = { 1: 'NewBill', 2: 'StatusChange', 20: 'Text', 21: 'Amendment', 23: 'Vote' };

/** LegiScan's people_id for one of our people. */
const LS_PID = 'coalesce(p.legiscan_id, p.people_id)';

const PERSON_COLS = `${LS_PID} AS people_id, p.person_hash, p.state_id, p.party_id::text AS party_id, coalesce(pa.party_abbr, '') AS party,
  p.role_id, coalesce(b.body_role_abbr, CASE p.role_id WHEN 1 THEN 'Rep' WHEN 2 THEN 'Sen' WHEN 3 THEN 'Jnt' ELSE '' END) AS role,
  p.name, p.first_name, p.middle_name, p.last_name, p.suffix, p.nickname, p.district,
  CASE WHEN p.followthemoney_eid ~ '^[0-9]+$' THEN p.followthemoney_eid::bigint ELSE 0 END AS ftm_eid,
  CASE WHEN p.votesmart_id ~ '^[0-9]+$' THEN p.votesmart_id::bigint ELSE 0 END AS votesmart_id,
  p.opensecrets_id, CASE WHEN (p.external_ids->>'knowwho') ~ '^[0-9]+$' THEN (p.external_ids->>'knowwho')::bigint ELSE 0 END AS knowwho_pid,
  p.ballotpedia, coalesce(p.bioguide_id, '') AS bioguide_id`;
const PERSON_FROM = `people p LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN bodies b ON b.body_id = p.body_id`;

/** getPerson shape. */
export async function renderPerson(db: Queryable, peopleId: number): Promise<Obj | undefined> {
  const { rows } = await db.query(
    `SELECT ${PERSON_COLS}, 0 AS committee_sponsor, 0 AS committee_id, CASE WHEN p.state_id = 52 THEN 1 ELSE 0 END AS state_federal
     FROM ${PERSON_FROM} WHERE p.legiscan_id = $1 OR p.people_id = $1 ORDER BY (p.legiscan_id = $1) DESC NULLS LAST LIMIT 1`,
    [peopleId],
  );
  return rows[0];
}

/** getRollCall shape, with member votes. */
export async function renderRollCall(db: Queryable, rollCallId: number): Promise<Obj | undefined> {
  const { rows } = await db.query(
    `SELECT r.roll_call_id, r.bill_id, r.vote_date::text AS date, r.description AS desc, r.yea, r.nay, r.nv, r.absent, r.total, r.passed,
            b.body_abbr AS chamber, r.roll_call_body_id AS chamber_id, r.state_url AS state_link
     FROM roll_calls r LEFT JOIN bodies b ON b.body_id = r.roll_call_body_id WHERE r.roll_call_id = $1`,
    [rollCallId],
  );
  if (!rows[0]) return undefined;
  const { rows: votes } = await db.query<{ people_id: number; vote_id: number }>(
    `SELECT ${LS_PID} AS people_id, v.vote_id FROM roll_call_votes v JOIN people p USING (people_id) WHERE v.roll_call_id = $1 ORDER BY p.last_name, p.first_name, p.people_id`,
    [rollCallId],
  );
  const r = rows[0];
  return { ...r, date: d(r.date), chamber: r.chamber ?? '', url: r.state_link || '', votes: votes.map((v) => ({ ...v, vote_text: VOTE_TEXT[v.vote_id] ?? '' })) };
}

/** getBill shape plus the push-only last_push and reasons. */
export async function renderBill(db: Queryable, billId: number, reasons: Record<string, string>, lastPush: string): Promise<Obj | undefined> {
  const { rows } = await db.query(
    `SELECT b.*, b.status_date::text AS status_date_s, s.state_abbr, bt.bill_type_abbr, bo.body_abbr, cb.body_abbr AS current_body_abbr, st.bucket,
            to_jsonb(se) AS session, c.committee_id AS c_id, c.committee_name AS c_name, c.body_id AS c_body, cbo.body_abbr AS c_chamber
     FROM bills b JOIN states s USING (state_id) JOIN sessions se USING (session_id) JOIN statuses st ON st.status_id = b.status_id
     LEFT JOIN bill_types bt ON bt.bill_type_id = b.bill_type_id LEFT JOIN bodies bo ON bo.body_id = b.body_id
     LEFT JOIN bodies cb ON cb.body_id = b.current_body_id LEFT JOIN committees c ON c.committee_id = b.pending_committee_id
     LEFT JOIN bodies cbo ON cbo.body_id = c.body_id
     WHERE b.bill_id = $1`,
    [billId],
  );
  const b = rows[0];
  if (!b) return undefined;
  const q = async (sql: string) => (await db.query(sql, [billId])).rows;
  const [history, sponsors, texts, votes, amendments, supplements, sasts, subjects, calendar, referrals] = await Promise.all([
    q(`SELECT h.history_date::text AS date, h.history_action AS action, coalesce(bo.body_abbr, '') AS chamber, h.history_body_id AS chamber_id, h.history_major AS importance
       FROM bill_history h LEFT JOIN bodies bo ON bo.body_id = h.history_body_id WHERE h.bill_id = $1 ORDER BY h.history_step`),
    q(`SELECT ${PERSON_COLS}, s.sponsor_type_id, s.sponsor_order, s.committee_sponsor, s.committee_id, CASE WHEN p.state_id = 52 THEN 1 ELSE 0 END AS state_federal
       FROM bill_sponsors s JOIN ${PERSON_FROM} ON p.people_id = s.people_id WHERE s.bill_id = $1 ORDER BY s.sponsor_order`),
    q(`SELECT t.text_id AS doc_id, t.text_date::text AS date, tt.text_type AS type, t.bill_text_type_id AS type_id, t.mime_id, t.state_url AS state_link,
              t.size_bytes AS text_size, t.text_hash FROM bill_texts t LEFT JOIN text_types tt ON tt.text_type_id = t.bill_text_type_id
       WHERE t.bill_id = $1 ORDER BY t.text_date NULLS FIRST, t.text_id`),
    q(`SELECT r.roll_call_id, r.vote_date::text AS date, r.description AS desc, r.yea, r.nay, r.nv, r.absent, r.total, r.passed,
              coalesce(bo.body_abbr, '') AS chamber, r.roll_call_body_id AS chamber_id, r.state_url AS state_link
       FROM roll_calls r LEFT JOIN bodies bo ON bo.body_id = r.roll_call_body_id WHERE r.bill_id = $1 ORDER BY r.vote_date NULLS FIRST, r.roll_call_id`),
    q(`SELECT a.amendment_id, a.adopted, coalesce(bo.body_abbr, '') AS chamber, a.amendment_body_id AS chamber_id, a.amendment_date::text AS date,
              a.amendment_title AS title, a.amendment_desc AS description, a.amendment_mime_id AS mime_id, a.state_url AS state_link,
              a.amendment_size, a.amendment_hash FROM amendments a LEFT JOIN bodies bo ON bo.body_id = a.amendment_body_id
       WHERE a.bill_id = $1 ORDER BY a.amendment_date NULLS FIRST, a.amendment_id`),
    q(`SELECT s.supplement_id, s.supplement_date::text AS date, coalesce(st.supplement_type, '') AS type, s.supplement_type_id AS type_id, s.title,
              s.description, s.supplement_mime_id AS mime_id, s.state_url AS state_link, s.supplement_size, s.supplement_hash
       FROM supplements s LEFT JOIN supplement_types st USING (supplement_type_id) WHERE s.bill_id = $1 ORDER BY s.supplement_date NULLS FIRST, s.supplement_id`),
    q(`SELECT x.sast_type_id AS type_id, coalesce(t.sast_type, '') AS type, x.sast_bill_number, x.sast_bill_id
       FROM bill_sasts x LEFT JOIN sast_types t USING (sast_type_id) WHERE x.bill_id = $1 ORDER BY x.sast_type_id, x.sast_bill_number`),
    q(`SELECT s.subject_id, s.subject_name FROM bill_subjects bs JOIN subjects s USING (subject_id) WHERE bs.bill_id = $1 ORDER BY s.subject_name`),
    q(`SELECT c.event_type_id AS type_id, c.event_hash, coalesce(e.event_type_name, '') AS type, c.event_date::text AS date, c.event_time AS time,
              c.event_location AS location, c.event_desc AS description FROM bill_calendar c LEFT JOIN event_types e USING (event_type_id)
       WHERE c.bill_id = $1 ORDER BY c.event_date NULLS FIRST, c.event_hash`),
    q(`SELECT r.referral_date::text AS date, r.committee_id, coalesce(bo.body_abbr, '') AS chamber, coalesce(c.body_id, 0) AS chamber_id,
              coalesce(nullif(r.committee_name, ''), c.committee_name, '') AS name
       FROM bill_referrals r LEFT JOIN committees c USING (committee_id) LEFT JOIN bodies bo ON bo.body_id = c.body_id WHERE r.bill_id = $1 ORDER BY r.referral_step`),
  ]);
  const mapped = legiscanFromLadder(b.status_id);
  const status = b.legiscan_status ?? mapped.status;
  const storedProgress = Array.isArray(b.external_ids?.progress) ? (b.external_ids.progress as number[]) : undefined;
  const first = history[0]?.date ?? b.status_date_s;
  const progress = storedProgress
    ? storedProgress.map((event, i) => ({ date: d(i === storedProgress.length - 1 ? b.status_date_s : first), event }))
    : [{ date: d(first), event: 1 }, ...(mapped.progress !== 1 ? [{ date: d(b.status_date_s), event: mapped.progress }] : [])];
  const se = b.session as Obj;
  const mime = (o: Obj) => ({ mime: MIME[o.mime_id as number] ?? 'text/html', mime_id: o.mime_id });
  return {
    bill_id: b.bill_id,
    change_hash: b.change_hash,
    session_id: b.session_id,
    session: {
      session_id: se.session_id, state_id: se.state_id, year_start: se.year_start, year_end: se.year_end, prefile: se.prefile, sine_die: se.sine_die,
      prior: se.prior, special: se.special, session_tag: se.session_tag, session_title: se.session_title, session_name: se.session_name,
    },
    url: b.url,
    state_link: b.state_url,
    completed: b.completed ?? (b.bucket === 'alive' ? 0 : 1),
    status,
    status_date: d(b.status_date_s),
    progress,
    state: b.state_abbr,
    state_id: b.state_id,
    bill_number: b.bill_number,
    bill_type: b.bill_type_abbr ?? 'B',
    bill_type_id: String(b.bill_type_id),
    body: b.body_abbr ?? '',
    body_id: b.body_id,
    current_body: b.current_body_abbr ?? '',
    current_body_id: b.current_body_id,
    title: b.title,
    description: b.description,
    pending_committee_id: b.pending_committee_id ?? 0,
    committee: b.c_id ? { committee_id: b.c_id, chamber: b.c_chamber ?? '', chamber_id: b.c_body ?? 0, name: b.c_name } : [],
    referrals: referrals.map((r) => ({ ...r, date: d(r.date) })),
    history: history.map((h) => ({ ...h, date: d(h.date) })),
    sponsors,
    sasts,
    subjects,
    texts: texts.map((t) => ({ ...t, date: d(t.date), ...mime(t), type: t.type ?? '', url: t.state_link, alt_bill_text: 0, alt_mime: '', alt_mime_id: 0, alt_state_link: '', alt_text_size: 0, alt_text_hash: '' })),
    votes: votes.map((v) => ({ ...v, date: d(v.date), url: v.state_link })),
    amendments: amendments.map((a) => ({ ...a, date: d(a.date), ...mime(a), url: a.state_link, alt_amendment: 0, alt_mime: '', alt_mime_id: 0, alt_state_link: '', alt_amendment_size: 0, alt_amendment_hash: '' })),
    supplements: supplements.map((s) => ({ ...s, date: d(s.date), ...mime(s), url: s.state_link, alt_supplement: 0, alt_mime: '', alt_mime_id: 0, alt_state_link: '', alt_supplement_size: 0, alt_supplement_hash: '' })),
    calendar: calendar.map((c) => ({ ...c, date: d(c.date) })),
    last_push: lastPush,
    reasons,
  };
}
