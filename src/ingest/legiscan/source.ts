// The LegiScan records the importer reads, in both wire forms of a dataset: JSON (the API's, ids
// and counts as numbers or strings) and XML (the 2015-era datasets, every value text). Scalars are
// read through num/str/date (map.ts), which take whichever form comes; lists through list(), which
// unwraps the XML form. Every field is optional: `need` fails a record missing an id it needs, and
// the rest are read with a default.
//
// Object types rather than interfaces: a payload is also handled as a plain JSON object (a type
// with a string index signature), which an interface would not be assignable to.

/** A scalar: a JSON number or string (LegiScan sends ids and counts as either), or XML text. */
export type Scalar = string | number | null;

/**
 * A list: a JSON array; in XML, its wrapper element holding the repeated child
 * (<sponsors><sponsor>…</sponsor></sponsors>: the child's array, or the child alone where the
 * parser does not know it as a list), or "" when the element is empty.
 */
export type Listed<T> = T[] | { [child: string]: T | T[] } | '';

/** A people/ file; also what a sponsor or a member vote says of its person. */
export type LegiscanPerson = {
  people_id?: Scalar;
  state_id?: Scalar;
  /** 1 House/Assembly, 2 Senate, 3 Joint */
  role_id?: Scalar;
  party_id?: Scalar;
  /** "D", "R", "I", … */
  party?: Scalar;
  name?: Scalar;
  first_name?: Scalar;
  middle_name?: Scalar;
  last_name?: Scalar;
  suffix?: Scalar;
  nickname?: Scalar;
  district?: Scalar;
  person_hash?: Scalar;
  bioguide_id?: Scalar;
  votesmart_id?: Scalar;
  opensecrets_id?: Scalar;
  ftm_eid?: Scalar;
  ballotpedia?: Scalar;
  knowwho_pid?: Scalar;
  /** 1 when the "person" is a committee sponsoring a bill */
  committee_sponsor?: Scalar;
  committee_id?: Scalar;
};

/** A bill/ file. */
export type LegiscanBill = {
  bill_id?: Scalar;
  state_id?: Scalar;
  /** the state's abbreviation (older payloads carry it without state_id) */
  state?: Scalar;
  session_id?: Scalar;
  session?: LegiscanSession;
  bill_number?: Scalar;
  /** "B", "R", "JR", … */
  bill_type?: Scalar;
  bill_type_id?: Scalar;
  /** the originating chamber's letter ("H", "S") */
  body?: Scalar;
  body_id?: Scalar;
  current_body_id?: Scalar;
  status?: Scalar;
  status_date?: Scalar;
  title?: Scalar;
  description?: Scalar;
  summary?: Scalar;
  state_link?: Scalar;
  url?: Scalar;
  change_hash?: Scalar;
  completed?: Scalar;
  pending_committee_id?: Scalar;
  updated?: Scalar;
  created?: Scalar;
  last_action_date?: Scalar;
  /** the committee the bill is pending in: an object, or (none) `[]` in JSON and "" in XML */
  committee?: LegiscanCommittee | [] | '';
  history?: Listed<LegiscanStep>;
  progress?: Listed<LegiscanProgress>;
  sponsors?: Listed<LegiscanSponsor>;
  votes?: Listed<LegiscanBillVote>;
  texts?: Listed<LegiscanBillText>;
  amendments?: Listed<LegiscanAmendment>;
  supplements?: Listed<LegiscanSupplement>;
  sasts?: Listed<LegiscanSast>;
  subjects?: Listed<LegiscanSubject>;
  calendar?: Listed<LegiscanEvent>;
  referrals?: Listed<LegiscanReferral>;
};

/** A bill's session; older datasets give only session_id and session_name. */
export type LegiscanSession = {
  session_id?: Scalar;
  state_id?: Scalar;
  session_name?: Scalar;
  session_title?: Scalar;
  session_tag?: Scalar;
  year_start?: Scalar;
  year_end?: Scalar;
  special?: Scalar;
  sine_die?: Scalar;
  prior?: Scalar;
  source_url?: Scalar;
};

export type LegiscanCommittee = {
  committee_id?: Scalar;
  /** "H", "S" */
  chamber?: Scalar;
  chamber_id?: Scalar;
  name?: Scalar;
};

/** A history step; one without a chamber is a step outside the legislature (the governor's). */
export type LegiscanStep = {
  date?: Scalar;
  action?: Scalar;
  chamber?: Scalar;
  chamber_id?: Scalar;
  importance?: Scalar;
};

export type LegiscanProgress = {
  date?: Scalar;
  /** the progress event; XML lists it as an element of its own, so it comes as a one-item array */
  event?: Scalar | string[];
};

export type LegiscanSponsor = LegiscanPerson & {
  sponsor_order?: Scalar;
  /** 0 Sponsor, 1 Primary, 2 Cosponsor, 3 Joint Sponsor */
  sponsor_type_id?: Scalar;
};

/** A roll call as a bill lists it; the 2015-era XML leaves out chamber and counts. */
export type LegiscanBillVote = {
  roll_call_id?: Scalar;
  chamber_id?: Scalar;
  date?: Scalar;
  desc?: Scalar;
  yea?: Scalar;
  nay?: Scalar;
  nv?: Scalar;
  absent?: Scalar;
  total?: Scalar;
  passed?: Scalar;
  state_link?: Scalar;
};

/** A text as a bill lists it. */
export type LegiscanBillText = {
  doc_id?: Scalar;
  type_id?: Scalar;
  /** "Introduced", "Enrolled", … */
  type?: Scalar;
  date?: Scalar;
  mime?: Scalar;
  mime_id?: Scalar;
  text_size?: Scalar;
  text_hash?: Scalar;
  state_link?: Scalar;
};

/** An amendment as a bill lists it (and an amendment/ file, which is not imported). */
export type LegiscanAmendment = {
  amendment_id?: Scalar;
  adopted?: Scalar;
  chamber_id?: Scalar;
  date?: Scalar;
  title?: Scalar;
  description?: Scalar;
  mime?: Scalar;
  mime_id?: Scalar;
  amendment_size?: Scalar;
  amendment_hash?: Scalar;
  state_link?: Scalar;
};

/** A supplement as a bill lists it (and a supplement/ file, which is not imported). */
export type LegiscanSupplement = {
  supplement_id?: Scalar;
  type_id?: Scalar;
  date?: Scalar;
  title?: Scalar;
  description?: Scalar;
  mime?: Scalar;
  mime_id?: Scalar;
  supplement_size?: Scalar;
  supplement_hash?: Scalar;
  state_link?: Scalar;
};

/** A same-as or similar-to bill. */
export type LegiscanSast = {
  type_id?: Scalar;
  sast_bill_id?: Scalar;
  sast_bill_number?: Scalar;
};

export type LegiscanSubject = {
  subject_id?: Scalar;
  subject_name?: Scalar;
};

/** A calendar event (hearing, floor session); older payloads have no event_hash. */
export type LegiscanEvent = {
  type_id?: Scalar;
  type?: Scalar;
  date?: Scalar;
  time?: Scalar;
  location?: Scalar;
  description?: Scalar;
  event_hash?: Scalar;
};

/** A committee referral; some payloads name the committee `committee_name`. */
export type LegiscanReferral = {
  committee_id?: Scalar;
  name?: Scalar;
  committee_name?: Scalar;
  chamber_id?: Scalar;
  date?: Scalar;
};

/** A vote/ file: the roll call as its bill lists it, its bill and its members. */
export type LegiscanRollCall = LegiscanBillVote & {
  bill_id?: Scalar;
  votes?: Listed<LegiscanMemberVote>;
  /** the member list in compact form, in place of `votes`, when the parse worker made it (members.ts) */
  _members?: CompactMembers;
};

/** A member's vote: its person by id (a voter without a people/ file becomes a placeholder). */
export type LegiscanMemberVote = {
  people_id?: Scalar;
  vote_id?: Scalar;
  /** "Yea", "Nay", "NV", "Absent", … */
  vote_text?: Scalar;
};

/** A text/ file: the document itself, base64. */
export type LegiscanText = LegiscanBillText & {
  bill_id?: Scalar;
  doc?: Scalar;
};

/** The record at the root of a file of each dataset folder. */
export interface LegiscanRoots {
  people: LegiscanPerson;
  bill: LegiscanBill;
  vote: LegiscanRollCall;
  text: LegiscanText;
  amendment: LegiscanAmendment;
  supplement: LegiscanSupplement;
}

/** A roll call's member list as a parse worker sends it (members.ts): compact, parsed on demand. */
export interface CompactMembers {
  /** [person id, vote id] per member, in list order (0 where the id is not a usable integer) */
  pairs: Int32Array;
  /** the member list as JSON, parsed only when a member's full entry is needed */
  json: string;
}
