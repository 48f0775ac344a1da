// GET /v1/hearings: hearings across committees, most recent first.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState, parseTimestamp } from '../../http/params.js';
import { ListOf, responses } from '../common/schemas.js';
import { stateIdOf } from '../../domain/states.js';
import { HearingSchema } from './schemas.js';
import { listHearings } from './repository.js';

const Query = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  since: Type.Optional(
    Type.String({
      description: 'ISO 8601 date or timestamp: hearings dated on or after its date (UTC); 400 when malformed',
    }),
  ),
  limit: LimitParam(100, 500),
});

export const hearingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/hearings',
    {
      schema: {
        operationId: 'listHearings',
        summary: 'Committee hearings',
        description: 'Most recent first (hearing_date, hearing_time, hearing_id). No offset.',
        tags: ['Committees and hearings'],
        querystring: Query,
        response: responses(ListOf(HearingSchema), 400),
      },
    },
    async (req) => {
      const qs = req.query;
      const state = parseState(qs.state);
      const since = parseTimestamp(qs.since, 'since');
      const data = await listHearings(app.dbRead, {
        stateId: state ? stateIdOf(state) : undefined,
        since,
        limit: clampLimit(qs.limit, 100, 500),
      });
      return { data };
    },
  );
};
