// GET /v1/states and GET /v1/sessions: reference lists, cacheable for one hour.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { ListOf, responses } from '../common/schemas.js';
import { stateIdOf } from '../../domain/states.js';
import { listSessions, listStates } from './repository.js';
import { StateSchema, SessionSchema } from './schemas.js';

// private: keyed responses (rate-limit headers per key) that a shared cache must not serve without a key.
const CACHE_ONE_HOUR = 'private, max-age=3600';

const SessionsQuery = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code (two letters, DC or US); 400 otherwise' })),
  limit: LimitParam(100, 500),
});

export const referenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/states',
    {
      schema: {
        operationId: 'listStates',
        summary: 'The 52 jurisdictions (50 states, DC, US Congress)',
        description:
          'Alphabetical by state_abbr. Cache-Control: private, max-age=3600; ETag with If-None-Match gives 304.',
        tags: ['Reference'],
        response: responses(ListOf(StateSchema)),
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', CACHE_ONE_HOUR);
      return { data: await listStates(app.dbRead) };
    },
  );

  app.get(
    '/v1/sessions',
    {
      schema: {
        operationId: 'listSessions',
        summary: 'Legislative sessions',
        description:
          'Newest first (year_start DESC, session_id DESC). No offset. Cache-Control: private, max-age=3600; ETag with If-None-Match gives 304.',
        tags: ['Reference'],
        querystring: SessionsQuery,
        response: responses(ListOf(SessionSchema), 400),
      },
    },
    async (req, reply) => {
      const qs = req.query;
      const state = parseState(qs.state);
      const data = await listSessions(app.dbRead, state ? stateIdOf(state) : undefined, clampLimit(qs.limit, 100, 500));
      reply.header('Cache-Control', CACHE_ONE_HOUR);
      return { data };
    },
  );
};
