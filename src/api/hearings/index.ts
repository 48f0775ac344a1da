// GET /v1/hearings: hearings across committees, most recent first.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState, parseTimestamp } from '../../http/params.js';
import { ListOf, responses } from '../common/schemas.js';
import { Where } from '../common/sql.js';
import { stateIdOf } from '../reference/repository.js';
import { HEARING_COLUMNS, HEARING_FROM, HEARING_ORDER, HearingSchema } from './schemas.js';

const Query = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 date or timestamp: hearings dated on or after its date (UTC); 400 when malformed' })),
  limit: LimitParam(100, 500),
});

export async function hearingRoutes(app: FastifyInstance) {
  app.get('/v1/hearings', {
    schema: {
      operationId: 'listHearings',
      summary: 'Committee hearings',
      description: 'Most recent first (hearing_date, hearing_time, hearing_id). No offset.',
      tags: ['Committees and hearings'],
      querystring: Query,
      response: responses(ListOf(HearingSchema), 400),
    },
  }, async (req) => {
    const qs = req.query as Type.Static<typeof Query>;
    const state = parseState(qs.state);
    const since = parseTimestamp(qs.since, 'since');
    const w = new Where();
    if (state) w.add(`h.state_id = ${w.p(stateIdOf(state))}`);
    // hearing_date is a calendar date: a timestamp selects hearings on or after its UTC date.
    if (since) w.add(`h.hearing_date >= (${w.p(since)}::timestamptz AT TIME ZONE 'UTC')::date`);
    const sql = `SELECT ${HEARING_COLUMNS} FROM ${HEARING_FROM} ${w.sql()} ORDER BY ${HEARING_ORDER} LIMIT ${w.p(clampLimit(qs.limit, 100, 500))}`;
    return { data: (await app.dbRead.query(sql, w.params)).rows };
  });
}
