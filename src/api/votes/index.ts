// GET /v1/votes/{roll_call_id} and /details.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../http/errors.js';
import { Int, One, responses } from '../common/schemas.js';
import { intIdOr404, PathIntId } from '../common/ids.js';
import { RollCallRow } from '../bills/schemas.js';
import { getRollCall, memberVotes, rollCallExists } from './repository.js';
import { MemberVoteRow } from './schemas.js';

const Params = Type.Object({ roll_call_id: PathIntId });

export const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/votes/:roll_call_id',
    {
      schema: {
        operationId: 'getRollCall',
        summary: 'One roll call: header tallies as recorded by the chamber',
        tags: ['Votes'],
        params: Params,
        response: responses(One(RollCallRow), 400, 404),
      },
    },
    async (req) => {
      const { roll_call_id } = req.params;
      const row = await getRollCall(app.dbRead, intIdOr404(roll_call_id, 'roll call'));
      if (!row) throw notFound(`No roll call with id ${roll_call_id}.`);
      return { data: row };
    },
  );

  app.get(
    '/v1/votes/:roll_call_id/details',
    {
      schema: {
        operationId: 'listRollCallVotes',
        summary: 'How each member voted on a roll call',
        description:
          "Ordered by surname (last_name, first_name). summary.total counts the rows returned; a chamber's member list may be incomplete, so it can differ from the header total.",
        tags: ['Votes'],
        params: Params,
        response: responses(
          Type.Object({
            data: Type.Array(MemberVoteRow),
            summary: Type.Object({
              roll_call_id: Int(),
              total: Type.Integer({ description: 'number of member rows returned' }),
            }),
          }),
          400,
          404,
        ),
      },
    },
    async (req) => {
      const { roll_call_id } = req.params;
      const id = intIdOr404(roll_call_id, 'roll call');
      const rows = await memberVotes(app.dbRead, [id]);
      if (rows.length === 0 && !(await rollCallExists(app.dbRead, id)))
        throw notFound(`No roll call with id ${roll_call_id}.`);
      return { data: rows, summary: { roll_call_id: id, total: rows.length } };
    },
  );
};
