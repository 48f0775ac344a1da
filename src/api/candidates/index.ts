// GET /v1/candidates and /v1/candidates/{id}.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { checkOffset, clampLimit, LimitParam, OffsetParam, pagination, PaginationSchema } from '../../http/paging.js';
import { MAX_TEXT_FILTER_CHARS, parseState, parseTextFilter } from '../../http/params.js';
import { One, responses } from '../common/schemas.js';
import { int64IdOr404, PathInt64Id, text } from '../common/ids.js';
import { getCandidate, listCandidates } from './repository.js';
import { CandidateSchema, CandidateDetailSchema } from './schemas.js';

const Query = Type.Object({
  state: Type.Optional(
    Type.String({
      description: 'two-letter code (DC, US accepted); 400 otherwise. Matches only candidates with an FEC record.',
    }),
  ),
  office: Type.Optional(
    Type.String({
      description: `case-insensitive substring of the FEC office; at most ${MAX_TEXT_FILTER_CHARS} characters. Matches only candidates with an FEC record.`,
    }),
  ),
  cycle: Type.Optional(
    Type.String({
      description: 'four-digit election cycle year; 400 otherwise. Matches only candidates with an FEC record.',
    }),
  ),
  fec_id: Type.Optional(Type.String({ description: 'FEC candidate id, exact' })),
  bioguide: Type.Optional(Type.String({ description: 'Bioguide id, exact' })),
  limit: LimitParam(50, 500),
  offset: OffsetParam,
});
const Params = Type.Object({ id: PathInt64Id });

export const candidateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Candidates'];
  app.get(
    '/v1/candidates',
    {
      schema: {
        operationId: 'listCandidates',
        summary: 'Candidates',
        tags,
        querystring: Query,
        description:
          'Ordered by name as people expect: case-, accent- and punctuation-insensitive (ICU root collation; "de la Cruz" files under D), then id. Filters combine.',
        response: responses(Type.Object({ data: Type.Array(CandidateSchema), pagination: PaginationSchema }), 400),
      },
    },
    async (req) => {
      const qs = req.query;
      const limit = clampLimit(qs.limit, 50, 500);
      const offset = checkOffset(qs.offset);
      const state = parseState(qs.state);
      const cycle = text(qs.cycle);
      if (cycle !== undefined && !/^\d{4}$/.test(cycle))
        throw badRequest(`Parameter 'cycle' must be a four-digit year; got '${qs.cycle}'.`, 'cycle');
      const rows = await listCandidates(app.dbRead, {
        state,
        office: parseTextFilter(qs.office, 'office'),
        cycle: cycle === undefined ? undefined : Number(cycle),
        fecId: text(qs.fec_id),
        bioguide: text(qs.bioguide),
        limit,
        offset,
      });
      return { data: rows, pagination: pagination(limit, offset, rows.length) };
    },
  );

  app.get(
    '/v1/candidates/:id',
    {
      schema: {
        operationId: 'getCandidate',
        summary: 'One candidate with candidacies',
        tags,
        params: Params,
        description: 'id is a 64-bit integer; non-integer 400, unknown 404. candidacies are newest election first.',
        response: responses(One(CandidateDetailSchema), 400, 404),
      },
    },
    async (req) => {
      const raw = req.params.id;
      const row = await getCandidate(app.dbRead, int64IdOr404(raw, 'candidate'));
      if (!row) throw notFound(`No candidate with id ${raw}.`);
      return { data: row };
    },
  );
};
