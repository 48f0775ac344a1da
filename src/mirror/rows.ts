// The rows the push renderers read (records.ts, wire.ts), one type per query, named after the
// SQL's own column aliases: a column renamed or dropped in a query fails tsc where a push uses it,
// instead of sending `undefined` to every receiver. Dates arrive as text (::text), bigint ids as
// numbers (db/pool.ts), smallint flags as numbers. Type aliases, not interfaces: pg's query<R>
// wants a row type with an index signature, which only an alias has implicitly.

/** PERSON_COLS (records.ts): a person as a push sends it, before personWire fits it. */
export type PersonRow = {
  people_id: number;
  person_hash: string;
  state_id: number;
  party_id: string;
  party: string;
  role_id: number;
  role: string;
  name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  suffix: string;
  nickname: string;
  district: string;
  ftm_eid: number;
  votesmart_id: number;
  opensecrets_id: string;
  knowwho_pid: number;
  ballotpedia: string;
  bioguide_id: string;
};

/** A person with what a getPerson answer or a bill's sponsor list adds to PERSON_COLS. */
export type PersonPushRow = PersonRow & {
  committee_sponsor: number;
  committee_id: number;
  state_federal: number;
};

/** A sponsor of a bill push. */
export type SponsorPushRow = PersonPushRow & {
  sponsor_type_id: number;
  sponsor_order: number;
};

/** Where a record's bill comes from: LegiScan's own links are kept for LegiScan's bills. */
export type BillSource = {
  source: string;
  bill_number: string;
  state_abbr: string;
};

/** A roll call as a push sends it (the bill's part of it: RollCallPushRow). */
export type RollCallRow = {
  roll_call_id: number;
  date: string | null;
  desc: string;
  yea: number | null;
  nay: number | null;
  nv: number | null;
  absent: number | null;
  total: number | null;
  passed: number;
  chamber: string;
  chamber_id: number;
  state_link: string;
};

/** A roll call push on its own: its bill and where the bill comes from. */
export type RollCallPushRow = RollCallRow &
  BillSource & {
    bill_id: number;
  };

/** A member vote of a roll call push. */
export type MemberVoteRow = {
  people_id: string;
  vote_id: number;
};

/** A document push (DOC_SQL): a text, an amendment or a supplement, with the fields each uses. */
export type DocRow = BillSource & {
  id: number;
  bill_id: number;
  date: string | null;
  type?: string;
  type_id?: number;
  adopted?: number;
  chamber?: string;
  chamber_id?: number;
  content: string | null;
  title: string;
  description: string;
  state_url: string;
};

/** The session embedded in a bill push (to_jsonb of the sessions row). */
export type SessionJson = {
  session_id: number;
  state_id: number;
  year_start: number;
  year_end: number;
  prefile: number;
  sine_die: number;
  prior: number;
  special: number;
  session_tag: string;
  session_title: string;
  session_name: string;
};

/** The bill row of a bill push, with its names and pending committee joined. */
export type BillPushRow = BillSource & {
  bill_id: number;
  session_id: number;
  session: SessionJson;
  state_id: number;
  bill_type_id: number;
  bill_type_abbr: string | null;
  body_id: number;
  body_abbr: string | null;
  current_body_id: number;
  current_body_abbr: string | null;
  status_id: number;
  status_date_s: string | null;
  legiscan_status: number | null;
  bucket: string;
  completed: number | null;
  external_ids: { progress?: unknown } | null;
  title: string;
  description: string;
  url: string;
  state_url: string;
  pending_committee_id: number | null;
  c_id: number | null;
  c_name: string | null;
  c_body: number | null;
  c_chamber: string | null;
};

/** The lists of a bill push, by the query that reads each (wire.ts). */
export type BillPushLists = {
  history: { date: string | null; action: string; chamber: string; chamber_id: number; importance: number };
  sponsors: SponsorPushRow;
  texts: {
    doc_id: number;
    date: string | null;
    type: string;
    type_id: number;
    state_link: string;
    content: string | null;
  };
  votes: RollCallRow;
  amendments: {
    amendment_id: number;
    adopted: number;
    chamber: string;
    chamber_id: number;
    date: string | null;
    title: string;
    description: string;
    state_link: string;
  };
  supplements: {
    supplement_id: number;
    date: string | null;
    type: string;
    type_id: number;
    title: string;
    description: string;
    state_link: string;
  };
  sasts: { type_id: number; type: string; sast_bill_number: string; sast_bill_id: number };
  subjects: { subject_id: number; subject_name: string };
  calendar: {
    type_id: number;
    event_hash: string;
    type: string;
    date: string | null;
    time: string;
    location: string;
    description: string;
  };
  referrals: { date: string | null; committee_id: number; chamber: string; chamber_id: number; name: string };
};
