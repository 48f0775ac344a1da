// Committees with members, shared by the Open States and congress-legislators importers.
// Matched on the source's own id kept in external_ids (unique index), so re-imports update in place.
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group } from './batch.js';
import type { TableSpec } from './buffer.js';
import { contentHash, nextIds } from './ids.js';
import type { Reference } from './reference.js';
import type { Outcome } from './report.js';

export interface CommitteeRecord {
  key: [string, string];
  state_id: number;
  body_id: number | null;
  chamber: string;
  committee_name: string;
  committee_type: string;
  website_url: string;
  description: string;
  parent_key?: [string, string];
  source: string;
  external_ids: Record<string, unknown>;
  members: { people_id: number; role: 'chair' | 'vice chair' | 'member' }[];
}

/** Source role titles → the three member roles the API exposes. */
export function memberRole(raw: string | undefined): 'chair' | 'vice chair' | 'member' {
  const r = (raw ?? '').toLowerCase();
  if (/vice|first vice|second vice|vicepresident/.test(r)) return 'vice chair';
  if (/^(co-?)?chair|chairman|chairwoman|^presidente?$|^(republican|democratic) chair$/.test(r)) return 'chair';
  return 'member';
}

const MEMBERS: TableSpec = {
  types: ['int', 'bigint', 'text'],
  sql: 'INSERT INTO committee_members (committee_id, people_id, member_role) SELECT * FROM $COLS',
};

const COMMITTEE_COLS = [
  'committee_id',
  'state_id',
  'body_id',
  'chamber',
  'committee_name',
  'committee_type',
  'description',
  'website_url',
  'parent_id',
  'external_ids',
  'source',
  'import_hash',
] as const;
const UPSERT = `ON CONFLICT (committee_id) DO UPDATE SET state_id = EXCLUDED.state_id, body_id = EXCLUDED.body_id, chamber = EXCLUDED.chamber,
       committee_name = EXCLUDED.committee_name, committee_type = EXCLUDED.committee_type, description = EXCLUDED.description,
       website_url = EXCLUDED.website_url, parent_id = EXCLUDED.parent_id, external_ids = committees.external_ids || EXCLUDED.external_ids,
       import_hash = EXCLUDED.import_hash, updated = now()`;

/**
 * Committees of one source scheme (`openstates`) by their source id, for a run: ids and import
 * hashes loaded in one query, kept as the run queues writes, new ids drawn in blocks. With it a
 * committee costs no round trip of its own: unchanged ones nothing at all, changed ones a row in
 * the batch's one upsert (CommitteeWrites). Forgotten when a batch rolls back (reset): the
 * committees then take the look-up path again.
 */
export class CommitteeIndex {
  private readonly byKey = new Map<string, { committee_id: number; import_hash: string }>();
  private complete = false;
  private spare: number[] = [];

  constructor(readonly scheme: string) {}

  async load(db: Queryable): Promise<void> {
    const { rows } = await db.query<{ key: string; committee_id: number; import_hash: string | null }>(
      `SELECT external_ids->>'${this.scheme}' AS key, committee_id, import_hash FROM committees WHERE external_ids ? '${this.scheme}'`,
    );
    for (const r of rows) this.byKey.set(r.key, { committee_id: r.committee_id, import_hash: r.import_hash ?? '' });
    this.complete = true;
  }

  /** Whether the index answers for this key's scheme (loaded and not reset). */
  covers(key: [string, string]): boolean {
    return this.complete && key[0] === this.scheme;
  }

  get(key: string): { committee_id: number; import_hash: string } | undefined {
    return this.byKey.get(key);
  }

  set(key: string, v: { committee_id: number; import_hash: string }): void {
    this.byKey.set(key, v);
  }

  // An id drawn for a committee whose batch then rolls back is never reused by anyone else.
  async newId(db: Queryable): Promise<number> {
    if (!this.spare.length) this.spare = await nextIds(db, 100);
    return this.spare.shift()!;
  }

  reset(): void {
    this.byKey.clear();
    this.complete = false;
  }
}

/** The batch's changed committees: one upsert, with the delete of their old members, when it commits. */
class CommitteeWrites implements Group {
  private rows: Record<string, unknown>[] = [];

  add(row: Record<string, unknown>): void {
    this.rows.push(row);
  }

  clear(): void {
    this.rows = [];
  }

  async flush(db: Queryable): Promise<void> {
    if (!this.rows.length) return;
    const rows = this.rows;
    this.rows = [];
    // Members are queued in the batch's buffer, written after the groups: the deletes come first.
    await db.query(
      `WITH input AS (SELECT * FROM json_populate_recordset(NULL::committees, $1::json)),
         up AS (INSERT INTO committees (${COMMITTEE_COLS.join(', ')}, updated) SELECT ${COMMITTEE_COLS.join(', ')}, now() FROM input ${UPSERT}),
         gone AS (DELETE FROM committee_members WHERE committee_id IN (SELECT committee_id FROM input))
       SELECT 1`,
      [JSON.stringify(rows)],
    );
  }
}

/**
 * Two round trips per committee (look-up, upsert with the delete of old members), or none when
 * an index covers its scheme (then it is written with the batch); members go with the batch.
 */
export async function upsertCommittee(
  db: Queryable,
  c: CommitteeRecord,
  w: BatchWriter,
  index?: CommitteeIndex,
): Promise<{ committee_id: number; outcome: Outcome }> {
  const key = `committee:${c.key.join(':')}`;
  if (w.buffer.has(key)) await w.flush(db);
  w.buffer.claim(key);
  const seen = new Set<number>();
  // A person listed twice keeps the highest role (chair over vice chair over member).
  const rank = { chair: 0, 'vice chair': 1, member: 2 } as const;
  const members = [...c.members]
    .sort((a, b) => rank[a.role] - rank[b.role])
    .filter((m) => !seen.has(m.people_id) && seen.add(m.people_id));
  const external_ids = { ...c.external_ids, [c.key[0]]: c.key[1] };
  if (index?.covers(c.key) && (!c.parent_key || index.covers(c.parent_key))) {
    const existing = index.get(c.key[1]);
    const parent = c.parent_key ? (index.get(c.parent_key[1])?.committee_id ?? null) : null;
    const hash = contentHash({ ...c, members, parent });
    if (existing?.import_hash === hash) return { committee_id: existing.committee_id, outcome: 'unchanged' };
    const id = existing?.committee_id ?? (await index.newId(db));
    w.group(`committees:${index.scheme}`, () => new CommitteeWrites()).add({
      committee_id: id,
      state_id: c.state_id,
      body_id: c.body_id,
      chamber: c.chamber,
      committee_name: c.committee_name,
      committee_type: c.committee_type,
      description: c.description,
      website_url: c.website_url,
      parent_id: parent,
      external_ids,
      source: c.source,
      import_hash: hash,
    });
    index.set(c.key[1], { committee_id: id, import_hash: hash });
    w.buffer.add(
      MEMBERS,
      members.map((m) => [id, m.people_id, m.role]),
    );
    return { committee_id: id, outcome: existing ? 'updated' : 'inserted' };
  }
  // The committee and its parent in one look-up (keys are schemes we name, never source text).
  const lookup = (
    await db.query<{ committee_id: number | null; import_hash: string | null; parent: number | null }>(
      `SELECT (SELECT committee_id FROM committees WHERE external_ids ? '${c.key[0]}' AND external_ids->>'${c.key[0]}' = $1) AS committee_id,
            (SELECT import_hash FROM committees WHERE external_ids ? '${c.key[0]}' AND external_ids->>'${c.key[0]}' = $1) AS import_hash,
            ${c.parent_key ? `(SELECT committee_id FROM committees WHERE external_ids ? '${c.parent_key[0]}' AND external_ids->>'${c.parent_key[0]}' = $2)` : 'NULL::int'} AS parent`,
      c.parent_key ? [c.key[1], c.parent_key[1]] : [c.key[1]],
    )
  ).rows[0]!;
  const existing =
    lookup.committee_id === null
      ? undefined
      : { committee_id: lookup.committee_id, import_hash: lookup.import_hash ?? '' };
  const parent = lookup.parent;
  const hash = contentHash({ ...c, members, parent });
  if (existing?.import_hash === hash) return { committee_id: existing.committee_id, outcome: 'unchanged' };
  const { rows } = await db.query<{ committee_id: number }>(
    `WITH up AS (INSERT INTO committees (${COMMITTEE_COLS.join(', ')}, updated)
     VALUES (coalesce($1::int, nextval('import_ids')::int), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
     ${UPSERT} RETURNING committee_id),
     gone AS (DELETE FROM committee_members WHERE committee_id = $1)
     SELECT committee_id FROM up`,
    [
      existing?.committee_id ?? null,
      c.state_id,
      c.body_id,
      c.chamber,
      c.committee_name,
      c.committee_type,
      c.description,
      c.website_url,
      parent,
      JSON.stringify(external_ids),
      c.source,
      hash,
    ],
  );
  const id = rows[0]!.committee_id;
  w.buffer.add(
    MEMBERS,
    members.map((m) => [id, m.people_id, m.role]),
  );
  return { committee_id: id, outcome: existing ? 'updated' : 'inserted' };
}

// LegiScan committees arrive inside bills (the one a bill is pending in, its referrals) with
// LegiScan's own committee_id, which is what pending_committee_id and referrals point at: they are
// created (or renamed) with the batch, so no bill points at a missing committee. A committee row of
// another source that happens to hold the same id is left alone.
const LEGISCAN_COMMITTEES: TableSpec = {
  types: ['int', 'smallint', 'int', 'text', 'text'],
  dedupe: 0,
  sql: `INSERT INTO committees (committee_id, state_id, body_id, chamber, committee_name, committee_type, external_ids, source, updated)
        SELECT c.id, c.st, c.body, c.chamber, c.name, 'standing', jsonb_build_object('legiscan_committee_id', c.id), 'legiscan', now()
          FROM $COLS AS c(id, st, body, chamber, name)
        ON CONFLICT (committee_id) DO UPDATE SET body_id = EXCLUDED.body_id, chamber = EXCLUDED.chamber, committee_name = EXCLUDED.committee_name, updated = now()
        WHERE committees.source = 'legiscan'
          AND (committees.body_id, committees.chamber, committees.committee_name) IS DISTINCT FROM (EXCLUDED.body_id, EXCLUDED.chamber, EXCLUDED.committee_name)`,
};

export function queueLegiscanCommittees(
  w: BatchWriter,
  committees: { committee_id: number; state_id: number; body_id: number; name: string }[],
  ref: Reference,
): void {
  w.buffer.add(
    LEGISCAN_COMMITTEES,
    committees.map((c) => [
      c.committee_id,
      c.state_id,
      c.body_id || null,
      ref.bodyById.get(c.body_id)?.body_short ?? '',
      c.name,
    ]),
  );
}
