// The column each pushed value lands in, in the schema LegiScan publishes for its API client
// (1.4.1, schema 9: legiscan_api in MySQL/MariaDB and in PostgreSQL), as the tighter of the two
// variants: a 16-bit id is smallint (≤ 32,767 in PostgreSQL), a tinyint unsigned MySQL column
// (body ids, codes, flags) ≤ 255, mediumint unsigned ≤ 16,777,215, varchar(n) n characters, TEXT
// 65,535 bytes in MySQL; the MySQL tables are CHARSET=utf8 (3-byte UTF-8), which cannot hold a
// character beyond the Basic Multilingual Plane.
//
// A value that does not fit is cut the way a column of that size holds it, never sent to be
// rejected: a string keeps its first n characters (TEXT: as many whole characters as fit in 65,535
// UTF-8 bytes), a character outside the BMP becomes U+FFFD, null becomes ''; a count or size above
// its column is its column's maximum; an external id or code that does not fit is 0 (LegiScan's
// "none"). Ids of records are not cut here: the id map (ids.ts) gives them wire ids that fit.
type Obj = Record<string, unknown>;

export type Limit = { chars: number } | { bytes: number } | { max: number; clamp?: true };

const S = (chars: number): Limit => ({ chars });
const TEXT: Limit = { bytes: 65_535 };
const TINY: Limit = { max: 255 };
const SMALL: Limit = { max: 32_767 };
const COUNT: Limit = { max: 32_767, clamp: true };
const SIZE: Limit = { max: 16_777_215, clamp: true };
const MEDIUM: Limit = { max: 16_777_215 };
const HASH = S(32);

type Fields = Record<string, Limit>;

/** ls_people: a sponsor in a bill push carries the same fields as a person push. */
export const PERSON_COLUMNS: Fields = {
  state_id: TINY,
  role_id: TINY,
  party_id: TINY,
  name: S(128),
  first_name: S(32),
  middle_name: S(32),
  last_name: S(32),
  suffix: S(32),
  nickname: S(32),
  district: S(9),
  ballotpedia: S(64),
  votesmart_id: MEDIUM,
  knowwho_pid: MEDIUM,
  opensecrets_id: S(9),
  person_hash: S(8),
};
/** ls_bill_vote, from a bill's votes[] and from a roll_call push. */
const VOTE: Fields = {
  desc: S(255),
  yea: COUNT,
  nay: COUNT,
  nv: COUNT,
  absent: COUNT,
  total: COUNT,
  passed: TINY,
  chamber_id: TINY,
  url: S(255),
  state_link: S(255),
};
const TEXT_ROW: Fields = {
  type_id: TINY,
  mime_id: TINY,
  text_size: SIZE,
  text_hash: HASH,
  url: S(255),
  state_link: S(255),
};
const AMENDMENT_ROW: Fields = {
  adopted: TINY,
  chamber_id: TINY,
  mime_id: TINY,
  title: S(255),
  description: TEXT,
  amendment_size: SIZE,
  amendment_hash: HASH,
  url: S(255),
  state_link: S(255),
};
const SUPPLEMENT_ROW: Fields = {
  type_id: TINY,
  mime_id: TINY,
  title: S(255),
  description: TEXT,
  supplement_size: SIZE,
  supplement_hash: HASH,
  url: S(255),
  state_link: S(255),
};

interface RootColumns {
  fields: Fields;
  nested?: Record<string, Fields>;
  lists?: Record<string, Fields>;
}

/** Per push root: its own fields, its nested objects and its lists. */
export const COLUMNS: Record<string, RootColumns> = {
  bill: {
    // ls_bill
    fields: {
      state_id: TINY,
      body_id: TINY,
      current_body_id: TINY,
      bill_type_id: TINY,
      bill_number: S(10),
      status: TINY,
      title: TEXT,
      description: TEXT,
      url: S(255),
      state_link: S(255),
      change_hash: HASH,
    },
    nested: {
      session: {
        state_id: TINY,
        year_start: SMALL,
        year_end: SMALL,
        prefile: TINY,
        sine_die: TINY,
        prior: TINY,
        special: TINY,
        session_name: S(64),
        session_title: S(64),
        session_tag: S(32),
      },
      committee: { chamber_id: TINY, name: S(128) },
    },
    lists: {
      progress: { event: TINY },
      history: { chamber_id: TINY, importance: TINY, action: TEXT },
      sponsors: { ...PERSON_COLUMNS, sponsor_type_id: TINY, sponsor_order: COUNT },
      subjects: { subject_name: S(128) },
      sasts: { type_id: TINY, sast_bill_number: S(10) },
      calendar: { type_id: TINY, event_hash: S(8), location: S(64), description: S(128) },
      referrals: { chamber_id: TINY, name: S(128) },
      texts: TEXT_ROW,
      votes: VOTE,
      amendments: AMENDMENT_ROW,
      supplements: SUPPLEMENT_ROW,
    },
  },
  roll_call: { fields: VOTE, lists: { votes: { vote_id: TINY } } },
  person: { fields: PERSON_COLUMNS },
  text: { fields: TEXT_ROW },
  amendment: { fields: AMENDMENT_ROW },
  supplement: { fields: SUPPLEMENT_ROW },
};

const NON_BMP = /[\u{10000}-\u{10FFFF}]/gu;

/** A string as a column of this limit holds it (see the top of this file). */
export function fitString(v: unknown, limit: { chars: number } | { bytes: number }): string {
  const s = (v === null || v === undefined ? '' : String(v)).replace(NON_BMP, '\uFFFD');
  if ('chars' in limit) return s.length <= limit.chars ? s : s.slice(0, limit.chars);
  if (Buffer.byteLength(s, 'utf8') <= limit.bytes) return s;
  // whole characters only: cut the bytes, then drop a partial last character
  return Buffer.from(s, 'utf8')
    .subarray(0, limit.bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function fitNumber(v: unknown, limit: { max: number; clamp?: true }): unknown {
  // string-typed ids (bill_type_id, party_id) stay strings on the wire
  const n = Number(v);
  const fitted = !Number.isFinite(n) || n < 0 ? 0 : n > limit.max ? (limit.clamp ? limit.max : 0) : n;
  return typeof v === 'string' ? String(fitted) : fitted;
}

/** Fits the listed fields of one object in place. */
export function fitFields(o: Obj, fields: Fields): Obj {
  for (const [f, limit] of Object.entries(fields)) {
    if (!(f in o)) continue;
    o[f] = 'max' in limit ? fitNumber(o[f], limit) : fitString(o[f], limit);
  }
  return o;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Fits every value of a push (one root's object) to the column it lands in, in place. */
export function fitPush(root: string, body: Obj): Obj {
  const cols = COLUMNS[root];
  if (!cols) return body;
  fitFields(body, cols.fields);
  for (const [k, fields] of Object.entries(cols.nested ?? {})) if (isObj(body[k])) fitFields(body[k], fields);
  for (const [k, fields] of Object.entries(cols.lists ?? {}))
    if (Array.isArray(body[k])) for (const item of body[k] as Obj[]) fitFields(item, fields);
  return body;
}
