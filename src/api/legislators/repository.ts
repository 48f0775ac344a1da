// SQL for legislators. people_id is bigint and always bound as text ($n::bigint) so ids above 2^53 stay exact.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { LegislatorSchema, LegislatorVoteRow, SponsorshipRow } from './schemas.js';
import { iso, likeContains, PARTY_NAME, Where } from '../common/sql.js';

const COLUMNS = `p.people_id, p.state_id, s.state_abbr::text AS state_abbr, p.role_id, p.chamber, p.party_id,
  ${PARTY_NAME} AS party_name, p.name, p.first_name, p.middle_name, p.last_name, p.suffix, p.nickname,
  p.district, p.ballotpedia, p.followthemoney_eid, p.votesmart_id, p.opensecrets_id, ${iso('p.updated')} AS updated`;
const FROM = `people p JOIN states s ON s.state_id = p.state_id LEFT JOIN parties pa ON pa.party_id = p.party_id`;

export interface RosterFilters {
  stateId?: number;
  q?: string;
  party?: string;
  chamber?: string;
  district?: string;
  limit: number;
  offset: number;
}

// A committee sponsor's people row (people.committee_id > 0) is a committee, never a legislator.
const LEGISLATOR = 'p.committee_id = 0';

export async function roster(db: Queryable, f: RosterFilters): Promise<Static<typeof LegislatorSchema>[]> {
  const w = new Where();
  w.add(LEGISLATOR);
  if (f.stateId !== undefined) w.add(`p.state_id = ${w.p(f.stateId)}`);
  if (f.q !== undefined)
    w.add(`lower(p.first_name || ' ' || p.last_name || ' ' || p.name) LIKE ${w.p(likeContains(f.q.toLowerCase()))}`);
  if (f.party !== undefined) {
    const v = w.p(f.party.toLowerCase());
    w.add(`(lower(${PARTY_NAME}) LIKE ${v} || '%' OR lower(pa.party_abbr) = ${v})`);
  }
  if (f.chamber !== undefined) w.add(`lower(p.chamber) = lower(${w.p(f.chamber)})`);
  if (f.district !== undefined) w.add(`p.district = ${w.p(f.district)}`);
  const sql = `SELECT ${COLUMNS} FROM ${FROM} ${w.sql()}
    ORDER BY s.state_abbr, p.last_name COLLATE name_sort, p.first_name COLLATE name_sort, p.last_name, p.first_name, p.people_id LIMIT ${w.p(f.limit)} OFFSET ${w.p(f.offset)}`;
  return (await db.query<Static<typeof LegislatorSchema>>(sql, w.params)).rows;
}

export async function getLegislator(
  db: Queryable,
  peopleId: string,
): Promise<Static<typeof LegislatorSchema> | undefined> {
  return (
    await db.query<Static<typeof LegislatorSchema>>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE p.people_id = $1::bigint AND ${LEGISLATOR}`,
      [peopleId],
    )
  ).rows[0];
}

export async function personExists(db: Queryable, peopleId: string): Promise<boolean> {
  return (
    (await db.query(`SELECT 1 FROM people p WHERE p.people_id = $1::bigint AND ${LEGISLATOR}`, [peopleId])).rowCount ===
    1
  );
}

export async function voteHistory(
  db: Queryable,
  peopleId: string,
  limit: number,
  offset: number,
): Promise<Static<typeof LegislatorVoteRow>[]> {
  return (
    await db.query<Static<typeof LegislatorVoteRow>>(
      `SELECT r.roll_call_id, v.vote_id, coalesce(vt.vote_name, '') AS vote_name, r.vote_date AS roll_call_date,
       r.roll_call_body_id AS body_id, r.description AS roll_call_desc, r.yea, r.nay, r.nv, r.absent, r.total, r.passed,
       b.bill_id, b.bill_number, b.title, s.state_abbr::text AS state_abbr
     FROM roll_call_votes v JOIN roll_calls r ON r.roll_call_id = v.roll_call_id
     JOIN bills b ON b.bill_id = r.bill_id JOIN states s ON s.state_id = b.state_id
     LEFT JOIN vote_types vt ON vt.vote_id = v.vote_id
     WHERE v.people_id = $1::bigint
     ORDER BY r.vote_date DESC NULLS LAST, r.roll_call_id DESC LIMIT $2 OFFSET $3`,
      [peopleId, limit, offset],
    )
  ).rows;
}

export async function sponsorships(
  db: Queryable,
  peopleId: string,
  limit: number,
  offset: number,
): Promise<Static<typeof SponsorshipRow>[]> {
  return (
    await db.query<Static<typeof SponsorshipRow>>(
      `SELECT sp.sponsor_type_id, sp.sponsor_order, b.bill_id, b.bill_number, b.title, b.description, b.status_id AS status,
       b.status_date, s.state_abbr::text AS state_abbr
     FROM bill_sponsors sp JOIN bills b ON b.bill_id = sp.bill_id JOIN states s ON s.state_id = b.state_id
     WHERE sp.people_id = $1::bigint
     ORDER BY b.status_date DESC NULLS LAST, b.bill_id DESC LIMIT $2 OFFSET $3`,
      [peopleId, limit, offset],
    )
  ).rows;
}
