// GET /v1/states and GET /v1/sessions: reference lists, cacheable for one hour.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { DateStr, Int, ListOf, Nullable, responses, Str } from '../common/schemas.js';
import { stateIdOf } from '../../domain/states.js';
import { listSessions, listStates } from './repository.js';

// private: keyed responses (rate-limit headers per key) that a shared cache must not serve without a key.
const CACHE_ONE_HOUR = 'private, max-age=3600';

export const StateSchema = Type.Object({ state_id: Int(), state_abbr: Str(), state_name: Str(), capitol: Str() });

export const SessionSchema = Type.Object({
  session_id: Int(), state_id: Int(), state_abbr: Str(), year_start: Int(), year_end: Int(),
  special: Type.Integer({ description: '1 marks a special session' }),
  session_tag: Str(), session_title: Str(), session_name: Str(),
  sine_die: Type.Integer({ description: '0 means the session is still sitting; any other value means adjourned' }),
  session_start_date: Nullable(DateStr()), actual_sine_die_date: Nullable(DateStr()), expected_sine_die_date: Nullable(DateStr(), 'YYYY-MM-DD. The spec types this as a date; it is null only where the source publishes no scheduled ' +
    'adjournment (a Congress or a prefile window without an announced end, a special session called open-ended): a made-up date would be worse than none. ' +
    'The demo corpus always carries one.'),
  prefile: Int(), prior: Int(), source_url: Str(),
});

const SessionsQuery = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code (two letters, DC or US); 400 otherwise' })),
  limit: LimitParam(100, 500),
});

export const referenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/states', {
    schema: {
      operationId: 'listStates',
      summary: 'The 52 jurisdictions (50 states, DC, US Congress)',
      description: 'Alphabetical by state_abbr. Cache-Control: private, max-age=3600; ETag with If-None-Match gives 304.',
      tags: ['Reference'],
      response: responses(ListOf(StateSchema)),
    },
  }, async (_req, reply) => {
    reply.header('Cache-Control', CACHE_ONE_HOUR);
    return { data: await listStates(app.dbRead) };
  });

  app.get('/v1/sessions', {
    schema: {
      operationId: 'listSessions',
      summary: 'Legislative sessions',
      description: 'Newest first (year_start DESC, session_id DESC). No offset. Cache-Control: private, max-age=3600; ETag with If-None-Match gives 304.',
      tags: ['Reference'],
      querystring: SessionsQuery,
      response: responses(ListOf(SessionSchema), 400),
    },
  }, async (req, reply) => {
    const qs = req.query;
    const state = parseState(qs.state);
    const data = await listSessions(app.dbRead, state ? stateIdOf(state) : undefined, clampLimit(qs.limit, 100, 500));
    reply.header('Cache-Control', CACHE_ONE_HOUR);
    return { data };
  });
};
