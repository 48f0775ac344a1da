// LegiScan Push wire format (reference/legiscan.md §1.2, §1.3, §1.5): what a receiver written for
// LegiScan Push accepts unchanged. LegiScan's conventions are kept on purpose: 0/1 integer flags,
// "0000-00-00" for unknown dates, string-typed bill_type_id and party_id, LegiScan's own status,
// progress, sponsor-type, text-type, vote, body and reason codes. Ids are our own here; the handler
// turns them into wire ids that fit LegiScan's columns (ids.ts) before sending.
import type { Queryable } from '../db/pool.js';
import { legiscanFromLadder } from '../domain/legiscan-status.js';
import { fitPush } from './columns.js';
import { apiBillUrl, apiVoteUrl, billChangeHash, d, legiscanUrl, lsTime } from './format.js';
import { docFacts, personWire, PERSON_COLS, PERSON_FROM } from './records.js';
import type { BillPushLists as L, BillPushRow } from './rows.js';

type Obj = Record<string, unknown>;

export const REASON_NAMES: Record<number, string> = {
  1: 'NewBill',
  2: 'StatusChange',
  20: 'Text',
  21: 'Amendment',
  23: 'Vote',
};

/** getBill shape plus the push-only last_push and reasons. */
export async function renderBill(
  db: Queryable,
  billId: number,
  reasons: Record<string, string>,
  lastPush: string,
  base: string,
): Promise<Obj | undefined> {
  // the bill row and its ten child lists in one wave of round trips, not two (a push's latency is
  // its round trips: one lane of a mirror sends one push at a time)
  const main = db.query<BillPushRow>(
    `SELECT b.*, b.status_date::text AS status_date_s, s.state_abbr, bt.bill_type_abbr, bo.body_abbr, cb.body_abbr AS current_body_abbr, st.bucket,
            to_jsonb(se) AS session, c.committee_id AS c_id, c.committee_name AS c_name, c.body_id AS c_body, cbo.body_abbr AS c_chamber
     FROM bills b JOIN states s USING (state_id) JOIN sessions se USING (session_id) JOIN statuses st ON st.status_id = b.status_id
     LEFT JOIN bill_types bt ON bt.bill_type_id = b.bill_type_id LEFT JOIN bodies bo ON bo.body_id = b.body_id
     LEFT JOIN bodies cb ON cb.body_id = b.current_body_id LEFT JOIN committees c ON c.committee_id = b.pending_committee_id
     LEFT JOIN bodies cbo ON cbo.body_id = c.body_id
     WHERE b.bill_id = $1`,
    [billId],
  );
  // each list's rows typed by its name (rows.ts)
  const q = async <K extends keyof L>(_list: K, sql: string) => (await db.query<L[K]>(sql, [billId])).rows;
  const [
    {
      rows: [b],
    },
    history,
    sponsors,
    texts,
    votes,
    amendments,
    supplements,
    sasts,
    subjects,
    calendar,
    referrals,
  ] = await Promise.all([
    main,
    q(
      'history',
      `SELECT h.history_date::text AS date, h.history_action AS action, coalesce(bo.body_abbr, '') AS chamber, h.history_body_id AS chamber_id, h.history_major AS importance
       FROM bill_history h LEFT JOIN bodies bo ON bo.body_id = h.history_body_id WHERE h.bill_id = $1 ORDER BY h.history_step`,
    ),
    q(
      'sponsors',
      `SELECT ${PERSON_COLS}, s.sponsor_type_id, s.sponsor_order, s.committee_sponsor, s.committee_id, CASE WHEN p.state_id = 52 THEN 1 ELSE 0 END AS state_federal
       FROM bill_sponsors s JOIN ${PERSON_FROM} ON p.people_id = s.people_id WHERE s.bill_id = $1 ORDER BY s.sponsor_order, s.people_id`,
    ),
    q(
      'texts',
      `SELECT t.text_id AS doc_id, t.text_date::text AS date, coalesce(tt.text_type, '') AS type, t.bill_text_type_id AS type_id, t.state_url AS state_link,
              t.content FROM bill_texts t LEFT JOIN text_types tt ON tt.text_type_id = t.bill_text_type_id
       WHERE t.bill_id = $1 ORDER BY t.text_date NULLS FIRST, t.text_id`,
    ),
    q(
      'votes',
      `SELECT r.roll_call_id, r.vote_date::text AS date, r.description AS desc, r.yea, r.nay, r.nv, r.absent, r.total, r.passed,
              coalesce(bo.body_abbr, '') AS chamber, r.roll_call_body_id AS chamber_id, r.state_url AS state_link
       FROM roll_calls r LEFT JOIN bodies bo ON bo.body_id = r.roll_call_body_id WHERE r.bill_id = $1 ORDER BY r.vote_date NULLS FIRST, r.roll_call_id`,
    ),
    q(
      'amendments',
      `SELECT a.amendment_id, coalesce(a.adopted, 0) AS adopted, coalesce(bo.body_abbr, '') AS chamber, a.amendment_body_id AS chamber_id, a.amendment_date::text AS date,
              a.amendment_title AS title, a.amendment_desc AS description, a.state_url AS state_link
       FROM amendments a LEFT JOIN bodies bo ON bo.body_id = a.amendment_body_id
       WHERE a.bill_id = $1 ORDER BY a.amendment_date NULLS FIRST, a.amendment_id`,
    ),
    q(
      'supplements',
      `SELECT s.supplement_id, s.supplement_date::text AS date, coalesce(st.supplement_type, '') AS type, s.supplement_type_id AS type_id, s.title,
              s.description, s.state_url AS state_link
       FROM supplements s LEFT JOIN supplement_types st USING (supplement_type_id) WHERE s.bill_id = $1 ORDER BY s.supplement_date NULLS FIRST, s.supplement_id`,
    ),
    q(
      'sasts',
      `SELECT x.sast_type_id AS type_id, coalesce(t.sast_type, '') AS type, x.sast_bill_number, x.sast_bill_id
       FROM bill_sasts x LEFT JOIN sast_types t USING (sast_type_id) WHERE x.bill_id = $1 ORDER BY x.sast_type_id, x.sast_bill_number`,
    ),
    q(
      'subjects',
      `SELECT s.subject_id, s.subject_name FROM bill_subjects bs JOIN subjects s USING (subject_id) WHERE bs.bill_id = $1 ORDER BY s.subject_name, s.subject_id`,
    ),
    q(
      'calendar',
      `SELECT c.event_type_id AS type_id, c.event_hash, coalesce(e.event_type_name, '') AS type, c.event_date::text AS date, c.event_time AS time,
              c.event_location AS location, c.event_desc AS description FROM bill_calendar c LEFT JOIN event_types e USING (event_type_id)
       WHERE c.bill_id = $1 ORDER BY c.event_date NULLS FIRST, c.event_time, c.event_hash`,
    ),
    q(
      'referrals',
      `SELECT r.referral_date::text AS date, r.committee_id, coalesce(bo.body_abbr, '') AS chamber, coalesce(c.body_id, 0) AS chamber_id,
              coalesce(nullif(r.committee_name, ''), c.committee_name, '') AS name
       FROM bill_referrals r LEFT JOIN committees c USING (committee_id) LEFT JOIN bodies bo ON bo.body_id = c.body_id WHERE r.bill_id = $1 ORDER BY r.referral_step`,
    ),
  ]);
  if (!b) return undefined;
  const mapped = legiscanFromLadder(b.status_id);
  const status = b.legiscan_status ?? mapped.status;
  const stored = b.external_ids?.progress;
  const storedProgress = Array.isArray(stored) ? (stored as number[]) : undefined;
  const first = history[0]?.date ?? b.status_date_s;
  const progress = storedProgress
    ? storedProgress.map((event, i) => ({ date: d(i === storedProgress.length - 1 ? b.status_date_s : first), event }))
    : [{ date: d(first), event: 1 }, ...mapped.events.map((event) => ({ date: d(b.status_date_s), event }))];
  const se = b.session;
  const fromLegiscan = b.source === 'legiscan';
  const docUrl = (what: 'text' | 'amendment' | 'supplement' | 'rollcall', id: number) =>
    fromLegiscan
      ? legiscanUrl(b.state_abbr, what, b.bill_number, id)
      : what === 'rollcall'
        ? apiVoteUrl(base, id)
        : apiBillUrl(base, billId);
  // The pending committee as LegiScan sends it: the committee row, else what the referral to it
  // says; a committee we cannot name is not pending on the wire (0 and []), never a bare id.
  const pendingId = Number(b.pending_committee_id ?? 0);
  const referral = pendingId ? referrals.findLast((r) => Number(r.committee_id) === pendingId && r.name) : undefined;
  const committee = b.c_id
    ? {
        committee_id: b.c_id,
        chamber: b.c_chamber ?? b.current_body_abbr ?? '',
        chamber_id: b.c_body ?? b.current_body_id,
        name: b.c_name,
      }
    : referral
      ? {
          committee_id: pendingId,
          chamber: referral.chamber || (b.current_body_abbr ?? ''),
          chamber_id: referral.chamber_id || b.current_body_id,
          name: referral.name,
        }
      : undefined;
  const bill: Obj = {
    bill_id: b.bill_id,
    change_hash: '',
    session_id: b.session_id,
    session: {
      session_id: se.session_id,
      state_id: se.state_id,
      year_start: se.year_start,
      year_end: se.year_end,
      prefile: se.prefile,
      sine_die: se.sine_die,
      prior: se.prior,
      special: se.special,
      session_tag: se.session_tag,
      session_title: se.session_title,
      session_name: se.session_name,
    },
    // LegiScan's own page when the bill has one; otherwise (demo .example links, imports without
    // one) this service's API link, which always resolves
    url: /^https?:\/\/legiscan\.com\//.test(b.url) ? b.url : apiBillUrl(base, billId),
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
    pending_committee_id: committee ? pendingId : 0,
    committee: committee ?? [],
    referrals: referrals.map((r) => ({
      ...r,
      chamber: r.chamber || (b.current_body_abbr ?? ''),
      chamber_id: r.chamber_id || b.current_body_id,
      date: d(r.date),
    })),
    history: history.map((h) => ({ ...h, date: d(h.date) })),
    sponsors: sponsors.map(personWire),
    sasts,
    subjects,
    // documents as the document pushes send them (records.ts docFacts): one size, hash and mime per document
    texts: texts.map(({ content, ...t }) => {
      const f = docFacts({ type: t.type, date: t.date, content, state_url: t.state_link });
      return {
        ...t,
        date: d(t.date),
        mime: f.mime,
        mime_id: f.mime_id,
        url: docUrl('text', t.doc_id),
        text_size: f.size,
        text_hash: f.hash,
        alt_bill_text: 0,
        alt_mime: '',
        alt_mime_id: 0,
        alt_state_link: '',
        alt_text_size: 0,
        alt_text_hash: '',
      };
    }),
    votes: votes.map((v) => ({
      ...v,
      yea: v.yea ?? 0,
      nay: v.nay ?? 0,
      nv: v.nv ?? 0,
      absent: v.absent ?? 0,
      total: v.total ?? 0,
      date: d(v.date),
      url: docUrl('rollcall', v.roll_call_id),
    })),
    amendments: amendments.map((a) => {
      const f = docFacts({ title: a.title, date: a.date, description: a.description, state_url: a.state_link });
      return {
        ...a,
        date: d(a.date),
        mime: f.mime,
        mime_id: f.mime_id,
        url: docUrl('amendment', a.amendment_id),
        amendment_size: f.size,
        amendment_hash: f.hash,
        alt_amendment: 0,
        alt_mime: '',
        alt_mime_id: 0,
        alt_state_link: '',
        alt_amendment_size: 0,
        alt_amendment_hash: '',
      };
    }),
    supplements: supplements.map((x) => {
      const f = docFacts({
        type: x.type,
        title: x.title,
        date: x.date,
        description: x.description,
        state_url: x.state_link,
      });
      return {
        ...x,
        date: d(x.date),
        mime: f.mime,
        mime_id: f.mime_id,
        url: docUrl('supplement', x.supplement_id),
        supplement_size: f.size,
        supplement_hash: f.hash,
        alt_supplement: 0,
        alt_mime: '',
        alt_mime_id: 0,
        alt_state_link: '',
        alt_supplement_size: 0,
        alt_supplement_hash: '',
      };
    }),
    calendar: calendar.map((c) => ({ ...c, date: d(c.date), time: lsTime(c.time) })),
    last_push: lastPush,
    reasons,
  };
  // values as the receiver's columns hold them (columns.ts), then the hash of what is sent
  fitPush('bill', bill);
  bill.change_hash = billChangeHash(bill);
  return bill;
}
