// Legislators: roster, one member, voting history, sponsorships.
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Queryable } from '../../db/pool.js';
import { notFound } from '../../http/errors.js';
import { checkOffset, clampLimit, LimitParam, OffsetParam, pagination, PaginationSchema } from '../../http/paging.js';
import { MAX_TEXT_FILTER_CHARS, parseState, parseTextFilter } from '../../http/params.js';
import { One, responses } from '../common/schemas.js';
import { int64IdOr404, PathInt64Id, text } from '../common/ids.js';
import { stateIdOf } from '../../domain/states.js';
import { LegislatorSchema, LegislatorVoteRow, SponsorshipRow } from './schemas.js';
import { getLegislator, personExists, roster, sponsorships, voteHistory } from './repository.js';

const RosterQuery = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  q: Type.Optional(
    Type.String({
      description: `case-insensitive substring of first name, last name or full name ("jane doe" matches too); at most ${MAX_TEXT_FILTER_CHARS} characters`,
    }),
  ),
  party: Type.Optional(
    Type.String({
      description:
        'case-insensitive prefix of the party name ("dem" matches Democrat), or the exact party abbreviation (D, R, I, ...)',
    }),
  ),
  chamber: Type.Optional(
    Type.String({ description: 'chamber name, case-insensitive exact match (e.g. House, Senate)' }),
  ),
  district: Type.Optional(Type.String({ description: 'district, exact match' })),
  limit: LimitParam(100, 500),
  offset: OffsetParam,
});
const Params = Type.Object({ people_id: PathInt64Id });
const PageQuery = Type.Object({ limit: LimitParam(50, 500), offset: OffsetParam });
const Paged = <T extends Parameters<typeof Type.Array>[0]>(row: T) =>
  Type.Object({ data: Type.Array(row), pagination: PaginationSchema });

export const legislatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/legislators',
    {
      schema: {
        operationId: 'listLegislators',
        summary: 'Legislator roster',
        description: 'Ordered by state (state_abbr) then surname (last_name, first_name). Filters combine.',
        tags: ['Legislators'],
        querystring: RosterQuery,
        response: responses(Paged(LegislatorSchema), 400),
      },
    },
    async (req) => {
      const qs = req.query;
      const limit = clampLimit(qs.limit, 100, 500);
      const offset = checkOffset(qs.offset);
      const state = parseState(qs.state);
      const data = await roster(app.dbRead, {
        stateId: state ? stateIdOf(state) : undefined,
        q: parseTextFilter(qs.q, 'q'),
        party: text(qs.party),
        chamber: text(qs.chamber),
        district: text(qs.district),
        limit,
        offset,
      });
      return { data, pagination: pagination(limit, offset, data.length) };
    },
  );

  app.get(
    '/v1/legislators/:people_id',
    {
      schema: {
        operationId: 'getLegislator',
        summary: 'One legislator',
        description: 'people_id is a 64-bit integer; non-integer 400, unknown 404.',
        tags: ['Legislators'],
        params: Params,
        response: responses(One(LegislatorSchema), 400, 404),
      },
    },
    async (req) => {
      const { people_id } = req.params;
      const row = await getLegislator(app.dbRead, int64IdOr404(people_id, 'legislator'));
      if (!row) throw notFound(`No legislator with people_id ${people_id}.`);
      return { data: row };
    },
  );

  /** One page of a legislator's rows; 404 only when the page is empty because the person does not exist. */
  const personPage = async <Row>(
    fetch: (db: Queryable, id: string, limit: number, offset: number) => Promise<Row[]>,
    params: Static<typeof Params>,
    qs: Static<typeof PageQuery>,
  ) => {
    const id = int64IdOr404(params.people_id, 'legislator');
    const limit = clampLimit(qs.limit, 50, 500);
    const offset = checkOffset(qs.offset);
    const data = await fetch(app.dbRead, id, limit, offset);
    if (data.length === 0 && !(await personExists(app.dbRead, id)))
      throw notFound(`No legislator with people_id ${id}.`);
    return { data, pagination: pagination(limit, offset, data.length) };
  };

  app.get(
    '/v1/legislators/:people_id/votes',
    {
      schema: {
        operationId: 'listLegislatorVotes',
        summary: "A legislator's voting history",
        description:
          "Newest first (vote date, then roll_call_id). yea/nay/nv/absent/total are the whole roll call's tallies; vote_id and vote_name are this member's vote.",
        tags: ['Legislators'],
        params: Params,
        querystring: PageQuery,
        response: responses(Paged(LegislatorVoteRow), 400, 404),
      },
    },
    (req) => personPage(voteHistory, req.params, req.query),
  );

  app.get(
    '/v1/legislators/:people_id/bills',
    {
      schema: {
        operationId: 'listLegislatorBills',
        summary: "A legislator's sponsorships",
        description:
          'Most recent status first (status_date DESC, then bill_id DESC); primary and co-sponsorships alike.',
        tags: ['Legislators'],
        params: Params,
        querystring: PageQuery,
        response: responses(Paged(SponsorshipRow), 400, 404),
      },
    },
    (req) => personPage(sponsorships, req.params, req.query),
  );
};
