// LegiScan Push payloads other than bill: person, roll_call, and the document pushes text,
// amendment and supplement that answer a receiver's `missing` request. Ids are our own here; the
// handler turns them into wire ids (ids.ts) before sending.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.js';
import { fitFields, PERSON_COLUMNS } from './columns.js';
import { apiBillUrl, apiVoteUrl, d, legiscanUrl, lsDistrict, MIME } from './format.js';
import type { DocRow, MemberVoteRow, PersonPushRow, PersonRow, RollCallPushRow } from './rows.js';

type Obj = Record<string, unknown>;
const VOTE_TEXT: Record<number, string> = { 1: 'Yea', 2: 'Nay', 3: 'NV', 4: 'Absent' };

export const PERSON_COLS = `p.people_id, p.person_hash, p.state_id, p.party_id::text AS party_id, coalesce(pa.party_abbr, '') AS party,
  p.role_id, coalesce(b.body_role_abbr, CASE p.role_id WHEN 1 THEN 'Rep' WHEN 2 THEN 'Sen' WHEN 3 THEN 'Jnt' ELSE '' END) AS role,
  p.name, p.first_name, p.middle_name, p.last_name, p.suffix, p.nickname, p.district,
  CASE WHEN p.followthemoney_eid ~ '^[0-9]{1,9}$' THEN p.followthemoney_eid::int ELSE 0 END AS ftm_eid,
  CASE WHEN p.votesmart_id ~ '^[0-9]{1,9}$' THEN p.votesmart_id::int ELSE 0 END AS votesmart_id,
  p.opensecrets_id, CASE WHEN (p.external_ids->>'knowwho') ~ '^[0-9]{1,9}$' THEN (p.external_ids->>'knowwho')::int ELSE 0 END AS knowwho_pid,
  p.ballotpedia, coalesce(p.bioguide_id, '') AS bioguide_id`;
export const PERSON_FROM = `people p LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN bodies b ON b.body_id = p.body_id`;

/** The fields of a person a receiver stores (ls_people), in a fixed order: what person_hash covers. */
const PERSON_STORED = [
  'people_id',
  'state_id',
  'role_id',
  'party_id',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'nickname',
  'district',
  'committee_id',
  'ftm_eid',
  'votesmart_id',
  'knowwho_pid',
  'opensecrets_id',
  'ballotpedia',
  'bioguide_id',
];

/**
 * A person row as LegiScan sends it: people_id as a number, district in LegiScan's form, values
 * fitted to ls_people's columns, and an 8-character person_hash over every stored field as sent,
 * so a party, district or role change changes the hash (a stock receiver updates ls_people only
 * when the hash differs). A hash stored from LegiScan is not reused: it would not follow changes
 * other sources make to the person.
 */
export function personWire(p: PersonRow): Obj {
  const out = fitFields(
    { ...p, people_id: Number(p.people_id), district: lsDistrict(p.district, Number(p.role_id)) },
    PERSON_COLUMNS,
  );
  const stored = JSON.stringify(PERSON_STORED.map((f) => out[f] ?? null));
  out.person_hash = createHash('md5').update(stored).digest('hex').slice(0, 8);
  return out;
}

/** getPerson shape (our people_id). */
export async function renderPerson(db: Queryable, peopleId: number): Promise<Obj | undefined> {
  const { rows } = await db.query<PersonPushRow>(
    `SELECT ${PERSON_COLS}, 0 AS committee_sponsor, 0 AS committee_id, CASE WHEN p.state_id = 52 THEN 1 ELSE 0 END AS state_federal
     FROM ${PERSON_FROM} WHERE p.people_id = $1`,
    [peopleId],
  );
  return rows[0] ? personWire(rows[0]) : undefined;
}

/** getRollCall shape, with member votes. */
export async function renderRollCall(db: Queryable, rollCallId: number, base: string): Promise<Obj | undefined> {
  const { rows } = await db.query<RollCallPushRow>(
    `SELECT r.roll_call_id, r.bill_id, r.vote_date::text AS date, r.description AS desc, r.yea, r.nay, r.nv, r.absent, r.total, r.passed,
            coalesce(b.body_abbr, '') AS chamber, r.roll_call_body_id AS chamber_id, r.state_url AS state_link,
            bi.source, bi.bill_number, s.state_abbr
     FROM roll_calls r JOIN bills bi USING (bill_id) JOIN states s ON s.state_id = bi.state_id LEFT JOIN bodies b ON b.body_id = r.roll_call_body_id
     WHERE r.roll_call_id = $1`,
    [rollCallId],
  );
  const r = rows[0];
  if (!r) return undefined;
  const { rows: votes } = await db.query<MemberVoteRow>(
    `SELECT v.people_id::text, v.vote_id FROM roll_call_votes v JOIN people p USING (people_id) WHERE v.roll_call_id = $1 ORDER BY p.last_name, p.first_name, p.people_id`,
    [rollCallId],
  );
  const { source, bill_number, state_abbr, ...rc } = r;
  const url =
    source === 'legiscan' ? legiscanUrl(state_abbr, 'rollcall', bill_number, rollCallId) : apiVoteUrl(base, rollCallId);
  return {
    ...rc,
    yea: rc.yea ?? 0,
    nay: rc.nay ?? 0,
    nv: rc.nv ?? 0,
    absent: rc.absent ?? 0,
    total: rc.total ?? 0,
    date: d(rc.date),
    url,
    votes: votes.map((v) => ({
      people_id: Number(v.people_id),
      vote_id: v.vote_id,
      vote_text: VOTE_TEXT[v.vote_id] ?? '',
    })),
  };
}

export type DocRoot = 'text' | 'amendment' | 'supplement';

const DOC_SQL: Record<DocRoot, string> = {
  text: `SELECT t.text_id AS id, t.bill_id, t.text_date::text AS date, coalesce(tt.text_type, '') AS type, t.bill_text_type_id AS type_id,
           t.content, '' AS title, '' AS description, t.state_url, bi.source, bi.bill_number, s.state_abbr
         FROM bill_texts t JOIN bills bi USING (bill_id) JOIN states s ON s.state_id = bi.state_id
         LEFT JOIN text_types tt ON tt.text_type_id = t.bill_text_type_id WHERE t.text_id = $1`,
  amendment: `SELECT a.amendment_id AS id, a.bill_id, a.amendment_date::text AS date, coalesce(a.adopted, 0) AS adopted, coalesce(bo.body_abbr, '') AS chamber, a.amendment_body_id AS chamber_id,
           NULL AS content, a.amendment_title AS title, a.amendment_desc AS description, a.state_url, bi.source, bi.bill_number, s.state_abbr
         FROM amendments a JOIN bills bi USING (bill_id) JOIN states s ON s.state_id = bi.state_id
         LEFT JOIN bodies bo ON bo.body_id = a.amendment_body_id WHERE a.amendment_id = $1`,
  supplement: `SELECT x.supplement_id AS id, x.bill_id, x.supplement_date::text AS date, coalesce(st.supplement_type, '') AS type, x.supplement_type_id AS type_id,
           NULL AS content, x.title, x.description, x.state_url, bi.source, bi.bill_number, s.state_abbr
         FROM supplements x JOIN bills bi USING (bill_id) JOIN states s ON s.state_id = bi.state_id
         LEFT JOIN supplement_types st USING (supplement_type_id) WHERE x.supplement_id = $1`,
};

/** What a document's page is made of (any of them may be absent: a text has no title). */
type DocFields = Partial<Pick<DocRow, 'title' | 'type' | 'date' | 'description' | 'content' | 'state_url'>>;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The document we hold, as an HTML page (mime_id 1): this service stores decoded text, not the
 * original files, so a text push carries its type, date and stored text, and an amendment or
 * supplement push its title, description, date and the state's link. The bill push lists every
 * document with the size, md5 and mime of this same page (docFacts), so what a receiver stores
 * from the bill describes the document it stores from the document push, and the hash changes
 * when any of those fields does.
 */
function documentHtml(r: DocFields): Buffer {
  const parts = [
    r.title ? `<h1>${esc(String(r.title))}</h1>` : '',
    r.type ? `<p>${esc(String(r.type))}</p>` : '',
    r.date ? `<p>${esc(String(r.date))}</p>` : '',
    r.description ? `<p>${esc(String(r.description))}</p>` : '',
    r.content ? `<pre>${esc(String(r.content))}</pre>` : '',
    r.state_url ? `<p><a href="${esc(String(r.state_url))}">${esc(String(r.state_url))}</a></p>` : '',
  ];
  return Buffer.from(`<!DOCTYPE html><html><body>${parts.join('')}</body></html>`, 'utf8');
}

/** Size, md5 and mime of the document a document push sends (r: type, date, title, description, content, state_url as stored). */
export function docFacts(r: DocFields): { size: number; hash: string; mime: string; mime_id: number } {
  const doc = documentHtml(r);
  return { size: doc.length, hash: createHash('md5').update(doc).digest('hex'), mime: MIME[1]!, mime_id: 1 };
}

/** getBillText / getAmendment / getSupplement shape, with the document base64 in `doc`. */
export async function renderDoc(db: Queryable, root: DocRoot, id: number, base: string): Promise<Obj | undefined> {
  const { rows } = await db.query<DocRow>(DOC_SQL[root], [id]);
  const r = rows[0];
  if (!r) return undefined;
  const doc = documentHtml(r);
  const hash = createHash('md5').update(doc).digest('hex');
  const url =
    r.source === 'legiscan' ? legiscanUrl(r.state_abbr, root, r.bill_number, id) : apiBillUrl(base, r.bill_id);
  const common = { bill_id: r.bill_id, date: d(r.date), mime: MIME[1], mime_id: 1, url, state_link: r.state_url };
  if (root === 'text') {
    return {
      doc_id: id,
      ...common,
      type: r.type,
      type_id: r.type_id,
      text_size: doc.length,
      text_hash: hash,
      alt_bill_text: 0,
      alt_mime: '',
      alt_mime_id: 0,
      alt_state_link: '',
      alt_text_size: 0,
      alt_text_hash: '',
      doc: doc.toString('base64'),
    };
  }
  if (root === 'amendment') {
    return {
      amendment_id: id,
      ...common,
      adopted: r.adopted,
      chamber: r.chamber,
      chamber_id: r.chamber_id,
      title: r.title,
      description: r.description,
      amendment_size: doc.length,
      amendment_hash: hash,
      alt_amendment: 0,
      alt_mime: '',
      alt_mime_id: 0,
      alt_state_link: '',
      alt_amendment_size: 0,
      alt_amendment_hash: '',
      doc: doc.toString('base64'),
    };
  }
  return {
    supplement_id: id,
    ...common,
    type: r.type,
    type_id: r.type_id,
    title: r.title,
    description: r.description,
    supplement_size: doc.length,
    supplement_hash: hash,
    alt_supplement: 0,
    alt_mime: '',
    alt_mime_id: 0,
    alt_state_link: '',
    alt_supplement_size: 0,
    alt_supplement_hash: '',
    doc: doc.toString('base64'),
  };
}
