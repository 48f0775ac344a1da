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

/**
 * For one roll call each member is read by primary key (a LATERAL subquery, which the planner
 * keeps as a nested loop): a few hundred lookups. Joined plainly, the planner hashes all of
 * people (~8,000 rows) for every roll call, which took twice as long at either corpus size; for a
 * batch of roll calls that hash is the cheaper plan, so the bulk files keep the join.
 */
const memberVotesSql = (order: string, one: boolean) =>
  `SELECT v.roll_call_id AS _rc, v.people_id, p.name, ${PARTY_NAME} AS party_name, p.district,
     coalesce(vt.vote_name, 'Not Voting') AS vote
   FROM roll_call_votes v ${
     one
       ? `CROSS JOIN LATERAL (SELECT p.people_id, p.name, p.party_id, p.party_name, p.district, p.last_name, p.first_name
         FROM people p WHERE p.people_id = v.people_id LIMIT 1) p`
       : 'JOIN people p ON p.people_id = v.people_id'
   }
   LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN vote_types vt ON vt.vote_id = v.vote_id
   WHERE v.roll_call_id = ANY($1::int[])
   ORDER BY ${order}`;

/**
 * Each member's vote, by surname, for roll calls ($1, int[]) ordered by roll call first: the
 * endpoint passes one id. Each row carries its roll call in `_rc` (the response row has none):
 * the endpoint's serializer drops it, the bulk writer groups by it.
 */
export async function memberVotes(db: Queryable, ids: number[]): Promise<MemberVoteOfRollCall[]> {
  return (
    await db.query<MemberVoteOfRollCall>(memberVotesSql(`v.roll_call_id, ${MEMBER_ORDER}`, ids.length === 1), [ids])
  ).rows;
}

/** Every person's position in a roll call's member order (for memberVotesRanked). */
export async function memberRanks(db: Queryable): Promise<Map<unknown, number>> {
  const { rows } = await db.query<{ people_id: unknown }>(`SELECT p.people_id FROM people p ORDER BY ${MEMBER_ORDER}`);
  return new Map(rows.map((r, i) => [r.people_id, i]));
}

/**
 * memberVotes for many roll calls at once (the bulk files' batches): the same rows in the same
 * order, with the collation's comparisons made once per person (`ranks`, from memberRanks in the
 * same snapshot) instead of once per pair of rows: on a batch of tens of thousands of member
 * votes the collation sort was half the query's time.
 */
export async function memberVotesRanked(
  db: Queryable,
  ids: number[],
  ranks: Map<unknown, number>,
): Promise<MemberVoteOfRollCall[]> {
  const rows = (await db.query<MemberVoteOfRollCall>(memberVotesSql('v.roll_call_id', false), [ids])).rows;
  const rank = (r: MemberVoteOfRollCall) => ranks.get(r.people_id) ?? Number.MAX_SAFE_INTEGER;
  for (let start = 0; start < rows.length;) {
    let end = start + 1;
    while (end < rows.length && rows[end]._rc === rows[start]._rc) end++;
    const group = rows.slice(start, end).sort((a, b) => rank(a) - rank(b));
    for (let i = 0; i < group.length; i++) rows[start + i] = group[i];
    start = end;
  }
  return rows;
}

export async function rollCallExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM roll_calls WHERE roll_call_id = $1', [id])).rowCount === 1;
}
