// GET /v1/subjects: raw subject labels by bill count.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { MAX_TEXT_FILTER_CHARS, parseState, parseTextFilter } from '../../http/params.js';
import { responses } from '../common/schemas.js';
import { stateIdOf } from '../../domain/states.js';
import { listSubjects } from './repository.js';
import { SubjectListRow } from './schemas.js';

const Query = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  q: Type.Optional(
    Type.String({
      description: `case-insensitive substring of the subject name; at most ${MAX_TEXT_FILTER_CHARS} characters`,
    }),
  ),
  limit: LimitParam(100, 1000),
});
export const subjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/subjects',
    {
      schema: {
        operationId: 'listSubjects',
        summary: 'Raw subject labels',
        tags: ['Topics and subjects'],
        description:
          'Ordered by bill_count descending (then subject_id). Interface labels that portals use as tags (bill-text, first-reading, ...) are excluded. count is the number of rows returned.',
        querystring: Query,
        response: responses(
          Type.Object({ data: Type.Array(SubjectListRow), count: Type.Integer({ description: 'rows returned' }) }),
          400,
        ),
      },
    },
    async (req) => {
      const qs = req.query;
      const state = parseState(qs.state);
      const rows = await listSubjects(app.dbRead, {
        stateId: state ? stateIdOf(state) : undefined,
        q: parseTextFilter(qs.q, 'q'),
        limit: clampLimit(qs.limit, 100, 1000),
      });
      return { data: rows, count: rows.length };
    },
  );
};
