// Members of Congress as bills and votes mention them (sponsor records, vote member lists). A
// member not imported from congress-legislators becomes a placeholder built from every mention:
// the sponsor record's "Last, First" name, the vote file's party and first/last names, the state
// and House district. Later mentions fill what earlier ones left blank (people.ts merge), and a
// full congress-legislators record overrides them all.
import type { Queryable } from '../../db/pool.js';
import { splitPublishedName } from '../names.js';
import { mergedIfChanged, upsertPerson, type PersonRecord, type Row } from '../people.js';
import { PARTY_NAMES, partyId } from '../reference.js';

export interface Mention {
  scheme: 'bioguide' | 'lis'; id: string; name: string; first: string; last: string; party: string; state: string;
  /** House district as the source gives it (a number; 0 = at large), null for senators */
  district: unknown;
}

/**
 * People by member id, with what was already written for them (to know when a mention adds
 * something); `row`: a placeholder's stored row, as the run found it, to tell without a query
 * whether a mention would change it.
 */
export type PeopleCache = Map<string, { people_id: number; party: boolean; first: boolean; row?: Row; seen?: Set<string> }>;

/** "0" (at large) → "At-Large"; senators have no district. */
export function houseDistrict(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  return String(v) === '0' ? 'At-Large' : String(v);
}

/**
 * Fills the cache with the members already imported, one query for the run instead of one
 * look-up per member. A member with a full record (congress-legislators or an earlier import's
 * owner) is never written by a mention (upsertPerson keeps a full record over a placeholder), so
 * its people_id is all a bill or vote needs. A placeholder comes with its row: a mention may still
 * fill its blanks, and the row tells whether it does (a re-import: it does not, and nothing is
 * asked). Per id, the row a look-up would find (lowest people_id) decides.
 */
export async function preloadPeople(db: Queryable, cache: PeopleCache): Promise<void> {
  const { rows } = await db.query<Row & { key: string }>(
    `SELECT DISTINCT ON (key) * FROM (
       SELECT 'bioguide:' || bioguide_id AS key, * FROM people WHERE bioguide_id IS NOT NULL
       UNION ALL SELECT 'lis:' || lis_id, * FROM people WHERE lis_id IS NOT NULL) m
     ORDER BY key, people_id`);
  for (const { key, ...row } of rows) {
    if (cache.has(key)) continue;
    const stub = row.import_hash === 'stub';
    cache.set(key, stub ? { people_id: Number(row.people_id), party: false, first: false, row: row as Row } : { people_id: Number(row.people_id), party: true, first: true });
  }
}

export async function congressPerson(db: Queryable, cache: PeopleCache, m: Mention): Promise<number> {
  const key = `${m.scheme}:${m.id}`;
  const known = cache.get(key);
  // A placeholder only has its blanks filled, so a mention it has already met (a member's every
  // vote in a Congress reads the same) cannot change it again: it is compared once.
  if (known?.row) {
    const sig = JSON.stringify([m.name, m.first, m.last, m.party, m.state, m.district]);
    if (known.seen?.has(sig)) return known.people_id;
    (known.seen ??= new Set()).add(sig);
  }
  const pid = partyId(m.party);
  const split = m.first.trim() || m.last.trim()
    ? { first_name: m.first.trim(), last_name: m.last.trim(), middle_name: '', suffix: '', nickname: '' }
    : splitPublishedName(m.name);
  // A known member is written again only when this mention brings a party or first name it lacked.
  if (known && (known.party || !pid) && (known.first || !split.first_name)) return known.people_id;
  const senate = m.scheme === 'lis';
  const rec: PersonRecord = {
    source: 'congress', ids: { [m.scheme]: m.id }, state_id: 52, role_id: senate ? 2 : 1, chamber: senate ? 'Senate' : 'House',
    body_id: senate ? 115 : 114, party_id: pid, party_name: PARTY_NAMES[pid] ?? '',
    name: [split.first_name, split.middle_name, split.last_name, split.suffix].filter(Boolean).join(' ') || m.name, ...split,
    district: senate ? '' : houseDistrict(m.district), extra: m.state ? { state: m.state } : {}, active: true, stub: true,
  };
  // A placeholder found by the preload that this mention leaves as it is: nothing to write or ask.
  if (known?.row && !mergedIfChanged(known.row, rec)) return known.people_id;
  const { people_id } = await upsertPerson(db, rec);
  cache.set(key, { people_id, party: (known?.party ?? false) || pid > 0, first: (known?.first ?? false) || !!split.first_name });
  return people_id;
}
