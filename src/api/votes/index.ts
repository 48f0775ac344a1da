// GET /v1/votes/{roll_call_id} and /details.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.js';
import { Int, One, responses, Str } from '../common/schemas.js';
import { intIdOr404, PathIntId } from '../common/ids.js';
import { RollCallRow } from '../bills/schemas.js';

const Params = Type.Object({ roll_call_id: PathIntId });

export const MemberVoteRow = Type.Object({
  people_id: Int(), name: Str(), party_name: Str(), district: Str(),
  vote: Type.String({ description: 'Yea, Nay, Not Voting or Absent' }),
});

const SUMMARY_SQL = `SELECT r.roll_call_id, r.bill_id, r.roll_call_body_id, coalesce(bo.body_name, '') AS body, r.vote_date, r.description,
    r.yea, r.nay, r.nv, r.absent, r.total, r.passed, r.state_url
  FROM roll_calls r LEFT JOIN bodies bo ON bo.body_id = r.roll_call_body_id WHERE r.roll_call_id = $1`;

const DETAILS_SQL = `SELECT v.people_id, p.name, coalesce(pa.party_name, p.party_name) AS party_name, p.district,
    coalesce(vt.vote_name, 'Not Voting') AS vote
  FROM roll_call_votes v JOIN people p ON p.people_id = v.people_id
  LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN vote_types vt ON vt.vote_id = v.vote_id
  WHERE v.roll_call_id = $1 ORDER BY p.last_name COLLATE name_sort, p.first_name COLLATE name_sort, p.last_name, p.first_name, p.people_id`;

export async function voteRoutes(app: FastifyInstance) {
  app.get('/v1/votes/:roll_call_id', {
    schema: {
      operationId: 'getRollCall',
      summary: 'One roll call: header tallies as recorded by the chamber',
      tags: ['Votes'],
      params: Params,
      response: responses(One(RollCallRow), 400, 404),
    },
  }, async (req) => {
    const { roll_call_id } = req.params as Type.Static<typeof Params>;
    const row = (await app.dbRead.query(SUMMARY_SQL, [intIdOr404(roll_call_id, 'roll call')])).rows[0];
    if (!row) throw notFound(`No roll call with id ${roll_call_id}.`);
    return { data: row };
  });

  app.get('/v1/votes/:roll_call_id/details', {
    schema: {
      operationId: 'listRollCallVotes',
      summary: 'How each member voted on a roll call',
      description: 'Ordered by surname (last_name, first_name). summary.total counts the rows returned; a chamber\'s member list may be incomplete, so it can differ from the header total.',
      tags: ['Votes'],
      params: Params,
      response: responses(Type.Object({
        data: Type.Array(MemberVoteRow),
        summary: Type.Object({ roll_call_id: Int(), total: Type.Integer({ description: 'number of member rows returned' }) }),
      }), 400, 404),
    },
  }, async (req) => {
    const { roll_call_id } = req.params as Type.Static<typeof Params>;
    const id = intIdOr404(roll_call_id, 'roll call');
    const { rows } = await app.dbRead.query(DETAILS_SQL, [id]);
    if (rows.length === 0 && (await app.dbRead.query('SELECT 1 FROM roll_calls WHERE roll_call_id = $1', [id])).rowCount === 0) {
      throw notFound(`No roll call with id ${roll_call_id}.`);
    }
    return { data: rows, summary: { roll_call_id: id, total: rows.length } };
  });
}
