// Identity: a person arriving from several sources is one legislator. Records join on the
// strongest shared external id (LegiScan people_id, then bioguide, lis, openstates, votesmart,
// opensecrets, followthemoney, ballotpedia); never on names. A candidate whose strong ids
// contradict the record (a different bioguide, lis, openstates or LegiScan id) is a different
// person, so identities the sources keep split stay split.
// The source that created a person owns its descriptive fields; other sources add ids and fill
// blanks, so alternating imports of different sources do not flap.
import type { Queryable } from '../../db/pool.js';
import { contentHash, derivedPeopleId } from './ids.js';
import type { Outcome } from './report.js';

export interface PersonIds {
  bioguide?: string;
  lis?: string;
  openstates?: string;
  votesmart?: string;
  opensecrets?: string;
  followthemoney?: string;
  ballotpedia?: string;
  fec?: string[];
}

export interface PersonRecord {
  source: string;
  legiscan_id?: number;
  ids: PersonIds;
  /** other identifiers kept in external_ids (govtrack, wikidata, knowwho, thomas, ...) */
  extra?: Record<string, string>;
  state_id: number;
  role_id: number;
  chamber: string;
  body_id: number | null;
  party_id: number;
  party_name: string;
  name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  suffix: string;
  nickname: string;
  district: string;
  person_hash?: string;
  active: boolean;
  /** a LegiScan committee sponsor: the committee this people row stands for (never a legislator) */
  committee_id?: number;
  /** a placeholder built from a reference (sponsor, vote member): any full record overrides it */
  stub?: boolean;
}

/** The people columns of the external ids a person is joined on. */
type IdColumn =
  'bioguide_id' | 'lis_id' | 'openstates_id' | 'votesmart_id' | 'opensecrets_id' | 'followthemoney_eid' | 'ballotpedia';

export const JOIN_ORDER: [Exclude<keyof PersonIds, 'fec'>, IdColumn][] = [
  ['bioguide', 'bioguide_id'],
  ['lis', 'lis_id'],
  ['openstates', 'openstates_id'],
  ['votesmart', 'votesmart_id'],
  ['opensecrets', 'opensecrets_id'],
  ['followthemoney', 'followthemoney_eid'],
  ['ballotpedia', 'ballotpedia'],
];
const STRONG = JOIN_ORDER.slice(0, 3);

/** The columns of a people row an import writes (COLS), as recordRow makes them and the table returns them. */
export interface PersonColumns extends Pick<
  PersonRecord,
  | 'state_id'
  | 'role_id'
  | 'chamber'
  | 'body_id'
  | 'party_id'
  | 'party_name'
  | 'name'
  | 'first_name'
  | 'middle_name'
  | 'last_name'
  | 'suffix'
  | 'nickname'
  | 'district'
  | 'active'
> {
  ballotpedia: string;
  followthemoney_eid: string;
  votesmart_id: string;
  opensecrets_id: string;
  bioguide_id: string | null;
  lis_id: string | null;
  fec_ids: string[];
  openstates_id: string | null;
  legiscan_id: number | null;
  person_hash: string;
  /** other identifiers by scheme (a jsonb object: importers write strings, other writers may not) */
  external_ids: Record<string, unknown>;
  source: string;
  /** 'stub' for a placeholder, '' for a full record */
  import_hash: string;
  committee_id: number;
}

/** A people row: stored (`SELECT *`, which also brings `updated`), or made in memory with its id. */
export interface Row extends PersonColumns {
  people_id: number;
}

export const COLS = [
  'state_id',
  'role_id',
  'chamber',
  'body_id',
  'party_id',
  'party_name',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'nickname',
  'district',
  'ballotpedia',
  'followthemoney_eid',
  'votesmart_id',
  'opensecrets_id',
  'bioguide_id',
  'lis_id',
  'fec_ids',
  'openstates_id',
  'legiscan_id',
  'person_hash',
  'external_ids',
  'active',
  'source',
  'import_hash',
  'committee_id',
] as const satisfies readonly (keyof PersonColumns)[];
const DESCRIPTIVE = [
  'state_id',
  'role_id',
  'chamber',
  'body_id',
  'party_id',
  'party_name',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'nickname',
  'district',
  'person_hash',
  'active',
  'committee_id',
] as const;

function compatible(row: Row, rec: PersonRecord): boolean {
  if (rec.legiscan_id && row.legiscan_id && Number(row.legiscan_id) !== rec.legiscan_id) return false;
  for (const [key, col] of STRONG) {
    const mine = rec.ids[key];
    const theirs = row[col];
    if (mine && theirs && mine !== theirs) return false;
  }
  return true;
}

/**
 * Every row that could match the record, in one query: by LegiScan id, by each join key, and the
 * row holding the id a new person would derive (to detect a hash collision without another trip).
 */
async function candidates(db: Queryable, rec: PersonRecord, derived: number | undefined): Promise<Row[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (rec.legiscan_id) where.push(`legiscan_id = $${params.push(rec.legiscan_id)}`);
  for (const [key, col] of JOIN_ORDER) {
    const v = rec.ids[key];
    if (v && !Array.isArray(v)) where.push(`${col} = $${params.push(v)}`);
  }
  if (derived !== undefined) where.push(`people_id = $${params.push(derived)}`);
  if (!where.length) return [];
  return (await db.query<Row>(`SELECT * FROM people WHERE ${where.join(' OR ')} ORDER BY people_id`, params)).rows;
}

/** The same precedence as one look-up per key: LegiScan id first, then each key in join order. */
export function findExisting(rows: Row[], rec: PersonRecord): Row | undefined {
  if (rec.legiscan_id) {
    const hit = rows.find((r) => r.legiscan_id !== null && Number(r.legiscan_id) === rec.legiscan_id);
    if (hit) return hit;
  }
  for (const [key, col] of JOIN_ORDER) {
    const v = rec.ids[key];
    if (!v || Array.isArray(v)) continue;
    const hit = rows
      .filter((r) => r[col] === v)
      .slice(0, 5)
      .find((r) => compatible(r, rec));
    if (hit) return hit;
  }
  return undefined;
}

export function derivedId(rec: PersonRecord): number | undefined {
  if (rec.legiscan_id) return undefined;
  // Derived from the strongest id the record has.
  for (const [k] of JOIN_ORDER) {
    const v = rec.ids[k];
    if (typeof v === 'string' && v) return derivedPeopleId(k, v);
  }
  return undefined;
}

export async function newPeopleId(db: Queryable, rec: PersonRecord, taken: boolean): Promise<number> {
  if (rec.legiscan_id) return rec.legiscan_id;
  let id = derivedId(rec);
  if (id === undefined) {
    const { rows } = await db.query<{ id: string }>(`SELECT nextval('import_ids')::text AS id`);
    return Number(rows[0]!.id);
  }
  if (!taken) return id;
  // A hash collision with a different person moves to the next free id, deterministically.
  for (;;) {
    id += 1;
    const { rowCount } = await db.query('SELECT 1 FROM people WHERE people_id = $1', [id]);
    if (!rowCount) return id;
  }
}

export function recordRow(rec: PersonRecord): PersonColumns {
  return {
    state_id: rec.state_id,
    role_id: rec.role_id,
    chamber: rec.chamber,
    body_id: rec.body_id,
    party_id: rec.party_id,
    party_name: rec.party_name,
    name: rec.name,
    first_name: rec.first_name,
    middle_name: rec.middle_name,
    last_name: rec.last_name,
    suffix: rec.suffix,
    nickname: rec.nickname,
    district: rec.district,
    ballotpedia: rec.ids.ballotpedia ?? '',
    followthemoney_eid: rec.ids.followthemoney ?? '',
    votesmart_id: rec.ids.votesmart ?? '',
    opensecrets_id: rec.ids.opensecrets ?? '',
    bioguide_id: rec.ids.bioguide ?? null,
    lis_id: rec.ids.lis ?? null,
    fec_ids: rec.ids.fec ?? [],
    openstates_id: rec.ids.openstates ?? null,
    legiscan_id: rec.legiscan_id ?? null,
    person_hash: rec.person_hash ?? '',
    external_ids: rec.extra ?? {},
    active: rec.active,
    source: rec.source,
    import_hash: rec.stub ? 'stub' : '',
    committee_id: rec.committee_id ?? 0,
  };
}

const blank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
// 0 is "unknown" for these (party 0 is published as no party, role 0 as no role).
const blankCol = (c: string, v: unknown) => blank(v) || ((c === 'party_id' || c === 'role_id') && Number(v) === 0);

/** A row's COLS alone, in COLS order (a stored row also has people_id and updated). */
function columns(r: PersonColumns): PersonColumns {
  return {
    state_id: r.state_id,
    role_id: r.role_id,
    chamber: r.chamber,
    body_id: r.body_id,
    party_id: r.party_id,
    party_name: r.party_name,
    name: r.name,
    first_name: r.first_name,
    middle_name: r.middle_name,
    last_name: r.last_name,
    suffix: r.suffix,
    nickname: r.nickname,
    district: r.district,
    ballotpedia: r.ballotpedia,
    followthemoney_eid: r.followthemoney_eid,
    votesmart_id: r.votesmart_id,
    opensecrets_id: r.opensecrets_id,
    bioguide_id: r.bioguide_id,
    lis_id: r.lis_id,
    fec_ids: r.fec_ids,
    openstates_id: r.openstates_id,
    legiscan_id: r.legiscan_id,
    person_hash: r.person_hash,
    external_ids: r.external_ids,
    active: r.active,
    source: r.source,
    import_hash: r.import_hash,
    committee_id: r.committee_id,
  };
}

/** Sets one column of `to` to its value in `from`. */
const take = <C extends keyof PersonColumns>(to: PersonColumns, from: PersonColumns, c: C) => {
  to[c] = from[c];
};

export function merge(existing: Row, rec: PersonRecord): PersonColumns {
  const incoming = recordRow(rec);
  // A placeholder over a placeholder only fills blanks (a sponsor record naming a voter seen first).
  const owns =
    !(rec.stub && existing.import_hash === 'stub') &&
    (existing.source === rec.source || (existing.import_hash === 'stub' && !rec.stub));
  const out = columns(existing);
  for (const c of COLS) {
    if (c === 'external_ids' || c === 'source' || c === 'import_hash') continue;
    const descriptive = (DESCRIPTIVE as readonly string[]).includes(c);
    // The owner rewrites descriptive fields; ids are only ever added, never blanked.
    if (owns && (descriptive || !blank(incoming[c]))) take(out, incoming, c);
    else if (blankCol(c, existing[c]) && !blankCol(c, incoming[c])) take(out, incoming, c);
  }
  if (existing.import_hash === 'stub' && !rec.stub) {
    out.source = rec.source;
    out.import_hash = '';
  }
  out.external_ids = { ...existing.external_ids, ...incoming.external_ids };
  return out;
}

export const comparable = (r: PersonColumns) =>
  COLS.map((c) =>
    c === 'body_id' || c === 'legiscan_id' || c === 'state_id' ? (r[c] === null ? null : Number(r[c])) : r[c],
  );

/**
 * The row to write when the record joins an existing person, or undefined when writing it would
 * change nothing (a placeholder never overwrites a full record; a merge equal to what is stored).
 */
export function mergedIfChanged(existing: Row, rec: PersonRecord): PersonColumns | undefined {
  if (rec.stub && existing.import_hash !== 'stub') return undefined;
  const row = merge(existing, rec);
  return contentHash(comparable(row)) === contentHash(comparable(existing)) ? undefined : row;
}

/** Inserts or joins the person; returns the people_id and what happened. */
export async function upsertPerson(db: Queryable, rec: PersonRecord): Promise<{ people_id: number; outcome: Outcome }> {
  const derived = derivedId(rec);
  const rows = await candidates(db, rec, derived);
  const existing = findExisting(rows, rec);
  let row = recordRow(rec);
  if (existing) {
    const merged = mergedIfChanged(existing, rec);
    if (!merged) return { people_id: existing.people_id, outcome: 'unchanged' };
    row = merged;
  }
  const id =
    existing?.people_id ??
    (await newPeopleId(db, rec, derived !== undefined && rows.some((r) => Number(r.people_id) === derived)));
  const values = COLS.map((c) => (c === 'external_ids' ? JSON.stringify(row[c]) : row[c]));
  await db.query(
    `INSERT INTO people (people_id, ${COLS.join(', ')}, updated) VALUES ($1, ${COLS.map((_, i) => `$${i + 2}`).join(', ')}, now())
     ON CONFLICT (people_id) DO UPDATE SET ${COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated = now()`,
    [id, ...values],
  );
  return { people_id: id, outcome: existing ? 'updated' : 'inserted' };
}
