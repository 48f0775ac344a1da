// Identity: a person arriving from several sources is one legislator. Records join on the
// strongest shared external id (LegiScan people_id, then bioguide, lis, openstates, votesmart,
// opensecrets, followthemoney, ballotpedia); never on names. A candidate whose strong ids
// contradict the record (a different bioguide, lis, openstates or LegiScan id) is a different
// person, so identities the sources keep split stay split.
// The source that created a person owns its descriptive fields; other sources add ids and fill
// blanks, so alternating imports of different sources do not flap.
import type { Queryable } from '../db/pool.js';
import { contentHash, derivedPeopleId } from './ids.js';
import type { Outcome } from './report.js';

export interface PersonIds {
  bioguide?: string; lis?: string; openstates?: string; votesmart?: string; opensecrets?: string;
  followthemoney?: string; ballotpedia?: string; fec?: string[];
}

export interface PersonRecord {
  source: string;
  legiscan_id?: number;
  ids: PersonIds;
  /** other identifiers kept in external_ids (govtrack, wikidata, knowwho, thomas, ...) */
  extra?: Record<string, string>;
  state_id: number; role_id: number; chamber: string; body_id: number | null;
  party_id: number; party_name: string; name: string;
  first_name: string; middle_name: string; last_name: string; suffix: string; nickname: string;
  district: string; person_hash?: string; active: boolean;
  /** a placeholder built from a reference (sponsor, vote member): any full record overrides it */
  stub?: boolean;
}

const JOIN_ORDER: [keyof PersonIds, string][] = [
  ['bioguide', 'bioguide_id'], ['lis', 'lis_id'], ['openstates', 'openstates_id'], ['votesmart', 'votesmart_id'],
  ['opensecrets', 'opensecrets_id'], ['followthemoney', 'followthemoney_eid'], ['ballotpedia', 'ballotpedia'],
];
const STRONG: [keyof PersonIds, string][] = JOIN_ORDER.slice(0, 3);

type Row = Record<string, unknown> & { people_id: number; legiscan_id: number | null; source: string; import_hash: string };

const COLS = ['state_id', 'role_id', 'chamber', 'body_id', 'party_id', 'party_name', 'name', 'first_name', 'middle_name', 'last_name',
  'suffix', 'nickname', 'district', 'ballotpedia', 'followthemoney_eid', 'votesmart_id', 'opensecrets_id', 'bioguide_id', 'lis_id',
  'fec_ids', 'openstates_id', 'legiscan_id', 'person_hash', 'external_ids', 'active', 'source', 'import_hash'] as const;
const DESCRIPTIVE = ['state_id', 'role_id', 'chamber', 'body_id', 'party_id', 'party_name', 'name', 'first_name', 'middle_name', 'last_name', 'suffix', 'nickname', 'district', 'person_hash', 'active'] as const;

function compatible(row: Row, rec: PersonRecord): boolean {
  if (rec.legiscan_id && row.legiscan_id && Number(row.legiscan_id) !== rec.legiscan_id) return false;
  for (const [key, col] of STRONG) {
    const mine = rec.ids[key];
    const theirs = row[col] as string | null;
    if (mine && theirs && mine !== theirs) return false;
  }
  return true;
}

async function findExisting(db: Queryable, rec: PersonRecord): Promise<Row | undefined> {
  if (rec.legiscan_id) {
    const { rows } = await db.query<Row>('SELECT * FROM people WHERE legiscan_id = $1 ORDER BY people_id LIMIT 1', [rec.legiscan_id]);
    if (rows[0]) return rows[0];
  }
  for (const [key, col] of JOIN_ORDER) {
    const v = rec.ids[key];
    if (!v || Array.isArray(v)) continue;
    const { rows } = await db.query<Row>(`SELECT * FROM people WHERE ${col} = $1 ORDER BY people_id LIMIT 5`, [v]);
    const hit = rows.find((r) => compatible(r, rec));
    if (hit) return hit;
  }
  return undefined;
}

async function newPeopleId(db: Queryable, rec: PersonRecord): Promise<number> {
  if (rec.legiscan_id) return rec.legiscan_id;
  const strongest = JOIN_ORDER.find(([k]) => typeof rec.ids[k] === 'string' && rec.ids[k]);
  if (!strongest) {
    const { rows } = await db.query<{ id: string }>(`SELECT nextval('import_ids')::text AS id`);
    return Number(rows[0]!.id);
  }
  let id = derivedPeopleId(strongest[0], rec.ids[strongest[0]] as string);
  // A hash collision with a different person moves to the next free id, deterministically.
  for (;;) {
    const { rowCount } = await db.query('SELECT 1 FROM people WHERE people_id = $1', [id]);
    if (!rowCount) return id;
    id += 1;
  }
}

function recordRow(rec: PersonRecord): Record<string, unknown> {
  return {
    state_id: rec.state_id, role_id: rec.role_id, chamber: rec.chamber, body_id: rec.body_id, party_id: rec.party_id,
    party_name: rec.party_name, name: rec.name, first_name: rec.first_name, middle_name: rec.middle_name, last_name: rec.last_name,
    suffix: rec.suffix, nickname: rec.nickname, district: rec.district, ballotpedia: rec.ids.ballotpedia ?? '',
    followthemoney_eid: rec.ids.followthemoney ?? '', votesmart_id: rec.ids.votesmart ?? '', opensecrets_id: rec.ids.opensecrets ?? '',
    bioguide_id: rec.ids.bioguide ?? null, lis_id: rec.ids.lis ?? null, fec_ids: rec.ids.fec ?? [], openstates_id: rec.ids.openstates ?? null,
    legiscan_id: rec.legiscan_id ?? null, person_hash: rec.person_hash ?? '', external_ids: rec.extra ?? {}, active: rec.active,
    source: rec.source, import_hash: rec.stub ? 'stub' : '',
  };
}

const blank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function merge(existing: Row, rec: PersonRecord): Record<string, unknown> {
  const incoming = recordRow(rec);
  const out: Record<string, unknown> = {};
  const owns = existing.source === rec.source || (existing.import_hash === 'stub' && !rec.stub);
  for (const c of COLS) out[c] = existing[c];
  for (const c of COLS) {
    if (c === 'external_ids' || c === 'source' || c === 'import_hash') continue;
    const descriptive = (DESCRIPTIVE as readonly string[]).includes(c);
    // The owner rewrites descriptive fields; ids are only ever added, never blanked.
    if (owns && (descriptive || !blank(incoming[c]))) out[c] = incoming[c];
    else if (blank(existing[c]) && !blank(incoming[c])) out[c] = incoming[c];
  }
  if (existing.import_hash === 'stub' && !rec.stub) {
    out.source = rec.source;
    out.import_hash = '';
  }
  out.external_ids = { ...(existing.external_ids as object), ...(incoming.external_ids as object) };
  return out;
}

const comparable = (r: Record<string, unknown>) => COLS.map((c) => (c === 'body_id' || c === 'legiscan_id' || c === 'state_id' ? (r[c] === null ? null : Number(r[c])) : r[c]));

/** Inserts or joins the person; returns the people_id and what happened. */
export async function upsertPerson(db: Queryable, rec: PersonRecord): Promise<{ people_id: number; outcome: Outcome }> {
  const existing = await findExisting(db, rec);
  if (existing && rec.stub) return { people_id: existing.people_id, outcome: 'unchanged' };
  const row = existing ? merge(existing, rec) : recordRow(rec);
  if (existing && contentHash(comparable(row)) === contentHash(comparable(existing))) return { people_id: existing.people_id, outcome: 'unchanged' };
  const id = existing?.people_id ?? (await newPeopleId(db, rec));
  const values = COLS.map((c) => (c === 'external_ids' ? JSON.stringify(row[c]) : row[c]));
  await db.query(
    `INSERT INTO people (people_id, ${COLS.join(', ')}, updated) VALUES ($1, ${COLS.map((_, i) => `$${i + 2}`).join(', ')}, now())
     ON CONFLICT (people_id) DO UPDATE SET ${COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated = now()`,
    [id, ...values],
  );
  return { people_id: id, outcome: existing ? 'updated' : 'inserted' };
}
