// SQL for committees: list, one committee, members, hearings.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { HearingSchema } from '../hearings/schemas.js';
import type { CommitteeMemberSchema, CommitteeSchema } from './schemas.js';
import { likeContains, PARTY_NAME, Where } from '../common/sql.js';
import { HEARING_COLUMNS, HEARING_FROM, HEARING_ORDER } from '../hearings/schemas.js';

// Names sort as people expect (name_sort, migration 060: case, accents, spaces and punctuation
// ignored), the way the legislators do; bytes, then the id, break ties so the order is stable.
const MEMBER_NAME_ORDER = 'p.name COLLATE name_sort, p.name, p.people_id';
const COMMITTEE_ORDER = 's.state_abbr, c.chamber, c.committee_name COLLATE name_sort, c.committee_name, c.committee_id';

const COLUMNS = `c.committee_id, s.state_abbr::text AS state_abbr, c.chamber, c.committee_name, c.committee_type, c.description,
  coalesce((SELECT p.name FROM committee_members m JOIN people p ON p.people_id = m.people_id
            WHERE m.committee_id = c.committee_id AND m.member_role = 'chair' ORDER BY ${MEMBER_NAME_ORDER} LIMIT 1), '') AS chair_name,
  coalesce((SELECT p.name FROM committee_members m JOIN people p ON p.people_id = m.people_id
            WHERE m.committee_id = c.committee_id AND m.member_role = 'vice chair' ORDER BY ${MEMBER_NAME_ORDER} LIMIT 1), '') AS vice_chair_name,
  (SELECT count(*)::int FROM committee_members m WHERE m.committee_id = c.committee_id) AS members_count,
  c.website_url, c.meeting_schedule`;
const FROM = 'committees c JOIN states s ON s.state_id = c.state_id';

export interface CommitteeFilters {
  stateId?: number;
  chamber?: string;
  q?: string;
  limit: number;
}

export async function listCommittees(db: Queryable, f: CommitteeFilters): Promise<Static<typeof CommitteeSchema>[]> {
  const w = new Where();
  if (f.stateId !== undefined) w.add(`c.state_id = ${w.p(f.stateId)}`);
  if (f.chamber !== undefined) w.add(`lower(c.chamber) = lower(${w.p(f.chamber)})`);
  if (f.q !== undefined) w.add(`lower(c.committee_name) LIKE ${w.p(likeContains(f.q.toLowerCase()))}`);
  const sql = `SELECT ${COLUMNS} FROM ${FROM} ${w.sql()} ORDER BY ${COMMITTEE_ORDER}
    LIMIT ${w.p(f.limit)}`;
  return (await db.query<Static<typeof CommitteeSchema>>(sql, w.params)).rows;
}

export async function getCommittee(db: Queryable, id: number): Promise<Static<typeof CommitteeSchema> | undefined> {
  return (
    await db.query<Static<typeof CommitteeSchema>>(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.committee_id = $1`, [id])
  ).rows[0];
}

export async function committeeExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM committees WHERE committee_id = $1', [id])).rowCount === 1;
}

/**
 * Chair first, then vice chair, then members; by name within a role (the spec's "role then name").
 * Over a list of committees ($1, int[]) ordered by committee first: the endpoint passes one id, the
 * bulk files a whole jurisdiction's.
 */
export async function committeeMembers(db: Queryable, ids: number[]): Promise<Static<typeof CommitteeMemberSchema>[]> {
  return (
    await db.query<Static<typeof CommitteeMemberSchema>>(
      `SELECT m.committee_id, m.people_id, p.name, p.party_id, ${PARTY_NAME} AS party_name, m.member_role
     FROM committee_members m JOIN people p ON p.people_id = m.people_id LEFT JOIN parties pa ON pa.party_id = p.party_id
     WHERE m.committee_id = ANY($1::int[])
     ORDER BY m.committee_id, CASE m.member_role WHEN 'chair' THEN 0 WHEN 'vice chair' THEN 1 ELSE 2 END, ${MEMBER_NAME_ORDER}`,
      [ids],
    )
  ).rows;
}

/** Most recent first, at most 100. */
export async function committeeHearings(db: Queryable, id: number): Promise<Static<typeof HearingSchema>[]> {
  return (
    await db.query<Static<typeof HearingSchema>>(
      `SELECT ${HEARING_COLUMNS} FROM ${HEARING_FROM} WHERE h.committee_id = $1 ORDER BY ${HEARING_ORDER} LIMIT 100`,
      [id],
    )
  ).rows;
}
