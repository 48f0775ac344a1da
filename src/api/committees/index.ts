// Committees: list, one committee, members, hearings.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../http/errors.js';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { ListOf, One, responses } from '../common/schemas.js';
import { intIdOr404, PathIntId, text } from '../common/ids.js';
import { stateIdOf } from '../../domain/states.js';
import { HearingSchema } from '../hearings/schemas.js';
import { committeeExists, committeeHearings, committeeMembers, getCommittee, listCommittees } from './repository.js';
import { CommitteeSchema, CommitteeMemberSchema } from './schemas.js';

const ListQuery = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  chamber: Type.Optional(
    Type.String({ description: 'chamber name, case-insensitive exact match (e.g. House, Senate, Joint)' }),
  ),
  q: Type.Optional(Type.String({ description: 'case-insensitive substring of the committee name' })),
  limit: LimitParam(100, 500),
});
const Params = Type.Object({ committee_id: PathIntId });

export const committeeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Committees and hearings'];
  app.get(
    '/v1/committees',
    {
      schema: {
        operationId: 'listCommittees',
        summary: 'Committees',
        tags,
        querystring: ListQuery,
        description:
          'Ordered by state (state_abbr), chamber, committee_name; names sort as people expect (case, accents, spaces and punctuation ignored: "Public and Community Health" before "Public Safety"), as the legislators do. No offset.',
        response: responses(ListOf(CommitteeSchema), 400),
      },
    },
    async (req) => {
      const qs = req.query;
      const state = parseState(qs.state);
      const data = await listCommittees(app.dbRead, {
        stateId: state ? stateIdOf(state) : undefined,
        chamber: text(qs.chamber),
        q: text(qs.q),
        limit: clampLimit(qs.limit, 100, 500),
      });
      return { data };
    },
  );

  app.get(
    '/v1/committees/:committee_id',
    {
      schema: {
        operationId: 'getCommittee',
        summary: 'One committee',
        tags,
        params: Params,
        response: responses(One(CommitteeSchema), 400, 404),
      },
    },
    async (req) => {
      const { committee_id } = req.params;
      const row = await getCommittee(app.dbRead, intIdOr404(committee_id, 'committee'));
      if (!row) throw notFound(`No committee with id ${committee_id}.`);
      return { data: row };
    },
  );

  app.get(
    '/v1/committees/:committee_id/members',
    {
      schema: {
        operationId: 'listCommitteeMembers',
        summary: 'Members of a committee',
        tags,
        params: Params,
        description:
          'Chair first, then vice chair, then members; by name within a role, sorted as people expect (case, accents, spaces and punctuation ignored).',
        response: responses(ListOf(CommitteeMemberSchema), 400, 404),
      },
    },
    async (req) => {
      const id = intIdOr404(req.params.committee_id, 'committee');
      const rows = await committeeMembers(app.dbRead, [id]);
      if (rows.length === 0 && !(await committeeExists(app.dbRead, id))) throw notFound(`No committee with id ${id}.`);
      return { data: rows };
    },
  );

  app.get(
    '/v1/committees/:committee_id/hearings',
    {
      schema: {
        operationId: 'listCommitteeHearings',
        summary: "A committee's hearings",
        tags,
        params: Params,
        description: 'Most recent first, at most 100 rows. Unknown committee: 404 not_found.',
        response: responses(ListOf(HearingSchema), 400, 404),
      },
    },
    async (req) => {
      const id = intIdOr404(req.params.committee_id, 'committee');
      const rows = await committeeHearings(app.dbRead, id);
      if (rows.length === 0 && !(await committeeExists(app.dbRead, id))) throw notFound(`No committee with id ${id}.`);
      return { data: rows };
    },
  );
};
