// SQL for roll calls: the header and each member's vote.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { RollCallRow } from '../bills/schemas.js';
import type { MemberVoteRow } from './schemas.js';

/** A member's vote with its roll call in `_rc` (see memberVotes). */
export type MemberVoteOfRollCall = Static<typeof MemberVoteRow> & { _rc: number };
import { PARTY_NAME } from '../common/sql.js';

export async function getRollCall(db: Queryable, id: number): Promise<Static<typeof RollCallRow> | undefined> {
  return (
    await db.query<Static<typeof RollCallRow>>(
      `SELECT r.roll_call_id, r.bill_id, r.roll_call_body_id, coalesce(bo.body_name, '') AS body, r.vote_date, r.description,
       r.yea, r.nay, r.nv, r.absent, r.total, r.passed, r.state_url
     FROM roll_calls r LEFT JOIN bodies bo ON bo.body_id = r.roll_call_body_id WHERE r.roll_call_id = $1`,
      [id],
    )
  ).rows[0];
}

/** A roll call's members by surname as people expect (name_sort), people_id last: a total order. */
const MEMBER_ORDER =
  'p.last_name COLLATE name_sort, p.first_name COLLATE name_sort, p.last_name, p.first_name, p.people_id';

/** A member vote's fields of its person (p, joined to parties pa): the endpoint's and the bulk files'. */
const MEMBER_FIELDS = `p.name, ${PARTY_NAME} AS party_name, p.district`;

/**
 * For one roll call each member is read by primary key (a LATERAL subquery, which the planner
 * keeps as a nested loop): a few hundred lookups. Joined plainly, the planner hashes all of
 * people (~8,000 rows) for every roll call, which took twice as long at either corpus size.
 */
const memberVotesSql = (order: string, one: boolean) =>
  `SELECT v.roll_call_id AS _rc, v.people_id, ${MEMBER_FIELDS},
     coalesce(vt.vote_name, '${NOT_VOTING}') AS vote
   FROM roll_call_votes v ${
     one
       ? `CROSS JOIN LATERAL (SELECT p.people_id, p.name, p.party_id, p.party_name, p.district, p.last_name, p.first_name
         FROM people p WHERE p.people_id = v.people_id LIMIT 1) p`
       : 'JOIN people p ON p.people_id = v.people_id'
   }
   LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN vote_types vt ON vt.vote_id = v.vote_id
   WHERE v.roll_call_id = ANY($1::int[])
   ORDER BY ${order}`;

/** The vote of a member whose vote id names no vote type. */
export const NOT_VOTING = 'Not Voting';

/**
 * Each member's vote, by surname, for roll calls ($1, int[]) ordered by roll call first: the
 * endpoint passes one id. Each row carries its roll call in `_rc` (the response row has none):
 * the endpoint's serializer drops it.
 */
export async function memberVotes(db: Queryable, ids: number[]): Promise<MemberVoteOfRollCall[]> {
  return (
    await db.query<MemberVoteOfRollCall>(memberVotesSql(`v.roll_call_id, ${MEMBER_ORDER}`, ids.length === 1), [ids])
  ).rows;
}

/** A person as a member vote shows them (every field but the vote). */
export type MemberOfRollCall = Omit<Static<typeof MemberVoteRow>, 'vote'>;

/**
 * The parts memberVotes is made of, for the bulk files, which assemble millions of member votes
 * from them instead of reading each with its person's fields: the people of a jurisdiction and
 * any others named, with those fields and their rank in a roll call's member order (memberVotes'
 * ORDER BY, over everyone; memberVotes keeps only votes whose person exists), the vote names by
 * vote id (a vote id naming none is NOT_VOTING), and each roll call's votes as `people_id:vote_id`
 * pairs, in no order.
 */
export async function memberDirectory(
  db: Queryable,
  of: { stateId?: number; ids?: number[] },
): Promise<Array<MemberOfRollCall & { rank: number }>> {
  // ranked over everyone, then filtered: the ranks of two calls compare as their people do
  return (
    await db.query<MemberOfRollCall & { rank: number }>(
      `SELECT people_id, name, party_name, district, rank FROM (
         SELECT p.people_id, p.state_id, ${MEMBER_FIELDS}, row_number() OVER (ORDER BY ${MEMBER_ORDER}) AS rank
         FROM people p LEFT JOIN parties pa ON pa.party_id = p.party_id) d
       WHERE state_id = $1 OR people_id = ANY($2::bigint[])`,
      [of.stateId ?? null, of.ids ?? []],
    )
  ).rows;
}

export async function voteNames(db: Queryable): Promise<Map<number, string>> {
  const { rows } = await db.query<{ vote_id: number; vote_name: string }>('SELECT vote_id, vote_name FROM vote_types');
  return new Map(rows.map((r) => [r.vote_id, r.vote_name]));
}

export async function memberVotePairs(
  db: Queryable,
  ids: number[],
): Promise<Array<{ roll_call_id: number; votes: string }>> {
  return (
    await db.query<{ roll_call_id: number; votes: string }>(
      `SELECT roll_call_id, string_agg(people_id || ':' || vote_id, ',') AS votes
       FROM roll_call_votes WHERE roll_call_id = ANY($1::int[]) GROUP BY roll_call_id`,
      [ids],
    )
  ).rows;
}

export async function rollCallExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM roll_calls WHERE roll_call_id = $1', [id])).rowCount === 1;
}
