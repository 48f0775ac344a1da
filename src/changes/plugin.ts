// GET /v1/changes: the pull change feed.
//
// Rows and relay_state.high_water are read by ONE statement (one snapshot), and only stamped rows
// with since < changed_at <= high_water are returned. The relay stamps rows and moves high_water in
// the same transaction, always above the previous high_water, so a row can never appear later
// with a changed_at at or below a server_now already handed out. That is what makes the pattern
// "call again with since = previous summary.server_now" exactly-once.
import { Type } from 'typebox';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clampLimit, LimitParam } from '../http/paging.js';
import { parseState, parseStates, parseTimestamp } from '../http/params.js';
import { parseReason, REASON_PARAM_DOC } from './params.js';
import { errorResponses } from '../http/schemas.js';
import { changesPage } from './repository.js';

const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 1000;

export const ChangeRowSchema = Type.Object({
  bill_id: Type.Integer(),
  bill_number: Type.String(),
  state_abbr: Type.String(),
  title: Type.String(),
  reason_id: Type.Integer({ description: 'id of reason_name (see the reason parameter)' }),
  reason_name: Type.String(),
  changed_at: Type.String({
    description: 'ISO 8601 UTC timestamp with microseconds; unique and strictly increasing across all changes',
  }),
});

const ChangesResponse = Type.Object({
  data: Type.Array(ChangeRowSchema),
  summary: Type.Object({
    since: Type.String({ description: 'the effective lower bound (exclusive), ISO 8601 UTC with microseconds' }),
    server_now: Type.String({ description: 'the cursor to pass as `since` on the next call' }),
  }),
});

const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.String({ description: 'ISO 8601 date or timestamp (exclusive lower bound); default one hour ago' }),
  ),
  state: Type.Optional(Type.String({ description: 'two-letter state code, DC or US' })),
  states: Type.Optional(
    Type.String({
      description:
        'comma-separated state codes, as on /v1/stream (an extension of the spec; combined with state, a change matches either)',
    }),
  ),
  reason: Type.Optional(Type.String({ description: REASON_PARAM_DOC })),
  limit: LimitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

const changes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/changes',
    {
      schema: {
        operationId: 'listChanges',
        summary: 'Change feed: bills that changed since a cursor',
        description:
          'Changes with since < changed_at <= summary.server_now, newest first. changed_at values are unique and strictly ' +
          'increasing. Sync pattern: store summary.server_now and pass it as `since` on the next call; every change is then ' +
          'seen exactly once, even while several writers commit concurrently. When more changes match than `limit`, the ' +
          'OLDEST `limit` changes after `since` are returned (still newest first) and server_now is the newest changed_at ' +
          'returned, so the next call continues right after them with no gap and no duplicate; keep calling until fewer ' +
          'than `limit` rows come back to catch up. Without `since` the feed covers the last hour.',
        tags: ['Changes'],
        querystring: ChangesQuery,
        response: { 200: ChangesResponse, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => {
      const q = req.query;
      const since = parseTimestamp(q.since, 'since');
      // state (the spec's) and states (the stream's CSV) both filter; together they mean either.
      const one = parseState(q.state);
      const many = parseStates(q.states);
      const states = one || many ? [...new Set([...(one ? [one] : []), ...(many ?? [])])] : undefined;
      const reasonId = parseReason(q.reason);
      const limit = clampLimit(q.limit, DEFAULT_LIMIT, MAX_LIMIT);
      const {
        since: from,
        highWater,
        rows: found,
      } = await changesPage(app.dbRead, { since, states, reasonId, limit: limit + 1 });
      const page = found.slice(0, limit);
      // More rows than the limit: stop at the newest row returned so the next call resumes there.
      const serverNow = found.length > limit ? page[page.length - 1].changed_at : highWater;
      const data = page.reverse().map((r) => ({
        bill_id: r.bill_id,
        bill_number: r.bill_number,
        state_abbr: r.state_abbr,
        title: r.title,
        reason_id: r.reason_id,
        reason_name: r.reason_name,
        changed_at: r.changed_at,
      }));
      // A since later than high_water: echo server_now no earlier than since, so a client never moves backwards.
      const now = serverNow < from && found.length <= limit ? from : serverNow;
      return { data, summary: { since: from, server_now: now } };
    },
  );
};

/** GET /v1/changes. Encapsulated; errors in the envelope, authentication and limits from lds-http. */
export const realtimePlugin = fp(changes, {
  name: 'lds-changes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['lds-envelope', 'lds-http'],
  decorators: { fastify: ['dbRead'] },
});
