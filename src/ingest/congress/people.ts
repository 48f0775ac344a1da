// Members of Congress as bills and votes mention them (sponsor records, vote member lists). A
// member not imported from congress-legislators becomes a placeholder built from every mention:
// the sponsor record's "Last, First" name, the vote file's party and first/last names, the state
// and House district. Later mentions fill what earlier ones left blank (people.ts merge), and a
// full congress-legislators record overrides them all.
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group } from '../write/batch.js';
import { DERIVED_LOW } from '../write/ids.js';
import { splitPublishedName } from '../../domain/names.js';
import {
  COLS,
  derivedId,
  mergedIfChanged,
  recordRow,
  upsertPerson,
  type PersonRecord,
  type Row,
} from '../write/people.js';
import { PARTY_NAMES, partyId } from '../write/reference.js';
import { congressDistrict } from '../../domain/congress-district.js';

export interface Mention {
  scheme: 'bioguide' | 'lis';
  id: string;
  name: string;
  first: string;
  last: string;
  party: string;
  state: string;
  /** House district as the source gives it (a number; 0 = at large), null for senators */
  district: unknown;
  /** the member's chamber when the mention says it (a sponsor record's title); else the id's: LIS ids are senators' */
  senate?: boolean;
}

interface Known {
  people_id: number;
  party: boolean;
  first: boolean;
  row?: Row;
  seen?: Set<string>;
}

/**
 * People by member id, with what was already written for them (to know when a mention adds
 * something); `row`: a placeholder's row as it stands (stored, or made in this run and queued),
 * to tell without a query whether a mention would change it.
 */
export class PeopleCache extends Map<string, Known> {
  /**
   * True once preloadPeople has loaded every member the database knows: a member missing from
   * the cache is then new, and its placeholder is made in memory and written with its batch.
   * Cleared with the cache (a batch rolled back): mentions then look members up one by one.
   */
  complete = false;
  /** people_ids of the derived range already in use (loaded on the first new member) */
  taken?: Set<number>;

  override clear(): void {
    super.clear();
    this.complete = false;
    this.taken = undefined;
  }
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
     ORDER BY key, people_id`,
  );
  for (const { key, ...row } of rows) {
    if (cache.has(key)) continue;
    const stub = row.import_hash === 'stub';
    cache.set(
      key,
      stub
        ? { people_id: Number(row.people_id), party: false, first: false, row }
        : { people_id: Number(row.people_id), party: true, first: true },
    );
  }
  cache.complete = true;
}

/**
 * Placeholders made or filled in memory during a batch, written when it commits: one statement
 * per batch instead of a look-up and a write per mention. The same upsert as upsertPerson's.
 */
class PlaceholderWrites implements Group {
  private readonly rows = new Map<number, Row>();

  add(row: Row): void {
    this.rows.set(Number(row.people_id), row);
  }

  clear(): void {
    this.rows.clear();
  }

  async flush(db: Queryable): Promise<void> {
    if (!this.rows.size) return;
    const rows = [...this.rows.values()];
    this.rows.clear();
    await db.query(
      `INSERT INTO people (people_id, ${COLS.join(', ')}, updated)
       SELECT people_id, ${COLS.join(', ')}, now() FROM json_populate_recordset(NULL::people, $1::json)
       ON CONFLICT (people_id) DO UPDATE SET ${COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated = now()`,
      [JSON.stringify(rows)],
    );
  }
}

/** A new member's people_id: derived from its id, moved past a collision as newPeopleId does. */
async function freshId(db: Queryable, cache: PeopleCache, rec: PersonRecord): Promise<number> {
  cache.taken ??= new Set(
    (
      await db.query<{ id: string }>(`SELECT people_id::text AS id FROM people WHERE people_id >= $1`, [DERIVED_LOW])
    ).rows.map((r) => Number(r.id)),
  );
  let id = derivedId(rec)!;
  while (cache.taken.has(id)) id += 1;
  cache.taken.add(id);
  return id;
}

/**
 * A sponsor record's "Last, First Middle": the part before the comma is the whole surname
 * ("Jackson Lee, Sheila"), which a split by words would cut to its last word.
 */
function commaName(name: string): ReturnType<typeof splitPublishedName> {
  const split = splitPublishedName(name);
  const head = /^([^,]+),\s*\S/.exec(name)?.[1]?.trim();
  if (!head || !split.first_name) return split;
  const surname = new Set(head.split(/\s+/));
  return {
    ...split,
    last_name: head,
    middle_name: split.middle_name
      .split(/\s+/)
      .filter((w) => w && !surname.has(w))
      .join(' '),
  };
}

/**
 * The people_id of the member a mention names, creating or filling its placeholder. With `w` and
 * a complete cache, placeholders are made and filled in memory and written with the batch.
 */
export async function congressPerson(db: Queryable, cache: PeopleCache, m: Mention, w?: BatchWriter): Promise<number> {
  const key = `${m.scheme}:${m.id}`;
  const known = cache.get(key);
  // A placeholder only has its blanks filled, so a mention it has already met (a member's every
  // vote in a Congress reads the same) cannot change it again: it is compared once.
  const sig = JSON.stringify([m.name, m.first, m.last, m.party, m.state, m.district, m.senate]);
  if (known?.row) {
    if (known.seen?.has(sig)) return known.people_id;
    (known.seen ??= new Set()).add(sig);
  }
  const pid = partyId(m.party);
  const split =
    m.first.trim() || m.last.trim()
      ? { first_name: m.first.trim(), last_name: m.last.trim(), middle_name: '', suffix: '', nickname: '' }
      : commaName(m.name);
  // A known member is written again only when this mention brings a party or first name it lacked.
  if (known && (known.party || !pid) && (known.first || !split.first_name)) return known.people_id;
  const senate = m.senate ?? m.scheme === 'lis';
  const rec: PersonRecord = {
    source: 'congress',
    ids: { [m.scheme]: m.id },
    state_id: 52,
    role_id: senate ? 2 : 1,
    chamber: senate ? 'Senate' : 'House',
    body_id: senate ? 115 : 114,
    party_id: pid,
    party_name: PARTY_NAMES[pid] ?? '',
    name: [split.first_name, split.middle_name, split.last_name, split.suffix].filter(Boolean).join(' ') || m.name,
    ...split,
    district: congressDistrict(senate, m.state, m.district),
    extra: m.state ? { state: m.state } : {},
    active: true,
    stub: true,
  };
  const flags = { party: (known?.party ?? false) || pid > 0, first: (known?.first ?? false) || !!split.first_name };
  if (known?.row) {
    const merged = mergedIfChanged(known.row, rec);
    // A placeholder this mention leaves as it is: nothing to write or ask.
    if (!merged) return known.people_id;
    if (w && cache.complete) {
      const row: Row = { ...merged, people_id: known.people_id };
      cache.set(key, { ...known, ...flags, row });
      w.group('congress-people', () => new PlaceholderWrites()).add(row);
      return known.people_id;
    }
  } else if (!known && w && cache.complete) {
    // Not in the database when the run began, nor met since: a new placeholder.
    const row: Row = { ...recordRow(rec), people_id: await freshId(db, cache, rec) };
    cache.set(key, { people_id: row.people_id, ...flags, row, seen: new Set([sig]) });
    w.group('congress-people', () => new PlaceholderWrites()).add(row);
    return row.people_id;
  }
  const { people_id } = await upsertPerson(db, rec);
  cache.set(key, { people_id, ...flags });
  return people_id;
}

/**
 * Placeholders whose member now has a full record (congress-legislators imported after the bills
 * and votes that mentioned them: the full record joins the bioguide placeholder, but the LIS one
 * of the same senator, made from Senate votes, stays apart): their votes, sponsorships and
 * memberships move to the full record and the placeholder goes. Joined on the same ids as any
 * import (bioguide or LIS, no contradicting strong id), never on names. Returns how many went.
 */
export async function foldPlaceholders(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ stub: string; keep: string }>(
    `SELECT DISTINCT ON (p.people_id) p.people_id::text AS stub, f.people_id::text AS keep
       FROM people p JOIN people f ON f.people_id <> p.people_id AND f.import_hash <> 'stub'
        AND (f.bioguide_id = p.bioguide_id OR f.lis_id = p.lis_id)
      WHERE p.import_hash = 'stub' AND p.source = 'congress'
        AND (p.bioguide_id IS NULL OR f.bioguide_id IS NULL OR p.bioguide_id = f.bioguide_id)
        AND (p.lis_id IS NULL OR f.lis_id IS NULL OR p.lis_id = f.lis_id)
        AND (p.openstates_id IS NULL OR f.openstates_id IS NULL OR p.openstates_id = f.openstates_id)
      ORDER BY p.people_id, f.people_id`,
  );
  if (!rows.length) return 0;
  const pairs = JSON.stringify(rows);
  // Where the full record is listed beside its placeholder (one bill, roll call or committee), the placeholder's row goes.
  for (const [table, key] of [
    ['bill_sponsors', 'bill_id'],
    ['roll_call_votes', 'roll_call_id'],
    ['committee_members', 'committee_id'],
  ]) {
    await db.query(
      `DELETE FROM ${table} t USING json_to_recordset($1::json) m(stub bigint, keep bigint)
        WHERE t.people_id = m.stub AND EXISTS (SELECT 1 FROM ${table} k WHERE k.${key} = t.${key} AND k.people_id = m.keep)`,
      [pairs],
    );
    await db.query(
      `UPDATE ${table} t SET people_id = m.keep FROM json_to_recordset($1::json) m(stub bigint, keep bigint) WHERE t.people_id = m.stub`,
      [pairs],
    );
  }
  await db.query(
    `UPDATE candidates c SET people_id = m.keep FROM json_to_recordset($1::json) m(stub bigint, keep bigint) WHERE c.people_id = m.stub`,
    [pairs],
  );
  await db.query(
    `DELETE FROM people p USING json_to_recordset($1::json) m(stub bigint, keep bigint) WHERE p.people_id = m.stub`,
    [pairs],
  );
  return rows.length;
}
