// GET /v1/bills: search with every filter of the spec, newest-updated first.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../http/errors.js';
import { clampLimit, checkOffset, LimitParam, OffsetParam, pagination, PaginationSchema } from '../../http/paging.js';
import { STATE_CODES } from '../../domain/states.js';
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  MAX_TEXT_FILTER_CHARS,
  parseSearchQuery,
  parseState,
  parseTextFilter,
  parseTimestamp,
  SLUG,
} from '../../http/params.js';
import { responses } from '../common/schemas.js';
import { text } from '../common/ids.js';
import { stateIdOf } from '../../domain/states.js';
import { BillWithParts, embedParts, IncludeParam, parseInclude } from './parts.js';
import { billNumberKey } from '../../domain/bill-number.js';
import { type BillFilters, searchBills, topicIdBySlug } from './repository.js';
import { budgetedRead } from '../../http/read-budget.js';

/** Offsets from which paging is counted as an expensive read (PostgreSQL reads and drops every skipped row). */
export const DEEP_OFFSET = 1000;

/** Text search and deep pages are what can hold a connection for seconds; the other filters ride indexes. */
function isExpensive(f: BillFilters): boolean {
  return (
    f.q !== undefined ||
    f.titleContains !== undefined ||
    f.subject !== undefined ||
    f.sponsorLastName !== undefined ||
    f.offset >= DEEP_OFFSET
  );
}

const Query = Type.Object({
  state: Type.Optional(
    Type.String({ description: `jurisdiction code: ${STATE_CODES.join(', ')} (case-insensitive); 400 otherwise` }),
  ),
  session_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'session id (int32)' })),
  bill_number: Type.Optional(
    Type.String({ description: 'compact (HB1) or zero-padded (HB0001); both find the same bill' }),
  ),
  q: Type.Optional(
    Type.String({
      description:
        'full-text search over title, description and subject names (web-search syntax: words, "phrases", -exclusions, or). Matches use English stemming (schools matches school); results keep the newest-updated order. ' +
        `At most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_TERMS} distinct terms (repeated words are dropped); 400 beyond.`,
    }),
  ),
  topic: Type.Optional(
    Type.String({ description: 'topic slug (see /v1/topics); a malformed or unknown slug is 400 bad_request' }),
  ),
  subject: Type.Optional(
    Type.String({
      description: `raw subject name, case-insensitive exact match; at most ${MAX_TEXT_FILTER_CHARS} characters`,
    }),
  ),
  sponsor_last_name: Type.Optional(
    Type.String({
      description: `last name of any sponsor (primary or co-sponsor), case-insensitive exact match; at most ${MAX_TEXT_FILTER_CHARS} characters`,
    }),
  ),
  status_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 8, description: 'status ladder id 1..8; 400 otherwise' }),
  ),
  title_contains: Type.Optional(
    Type.String({
      description: `case-insensitive substring of the title; at most ${MAX_TEXT_FILTER_CHARS} characters`,
    }),
  ),
  updated_since: Type.Optional(
    Type.String({ description: 'ISO 8601 date or timestamp; bills updated at or after it; 400 when malformed' }),
  ),
  limit: LimitParam(50, 500),
  offset: OffsetParam,
  include: IncludeParam,
});

export const billSearchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/bills',
    {
      schema: {
        operationId: 'searchBills',
        summary: 'Search bills',
        description:
          'Filters combine (AND). Newest-updated first (updated DESC, bill_id DESC), with q too, so pages are stable and fast on large corpora. ' +
          'With include (e.g. include=all) every bill of the page embeds the named parts as GET /v1/bills/{bill_id} does; ' +
          'the page costs one query per part, whatever its size.',
        tags: ['Bills'],
        querystring: Query,
        response: responses(Type.Object({ data: Type.Array(BillWithParts), pagination: PaginationSchema }), 400),
      },
    },
    async (req, reply) => {
      const qs = req.query;
      const limit = clampLimit(qs.limit, 50, 500);
      const offset = checkOffset(qs.offset);
      const state = parseState(qs.state);
      const updatedSince = parseTimestamp(qs.updated_since, 'updated_since');
      const include = parseInclude(qs.include);
      let topicId: number | undefined;
      const topic = text(qs.topic);
      if (topic !== undefined) {
        if (!SLUG.test(topic))
          throw badRequest(
            `Parameter 'topic' must be a topic slug (lowercase letters, digits and dashes); got '${topic}'.`,
            'topic',
          );
        topicId = await topicIdBySlug(app.dbRead, topic);
        if (topicId === undefined)
          throw badRequest(`Unknown topic '${topic}'; GET /v1/topics lists the slugs.`, 'topic');
      }
      const number = text(qs.bill_number);
      const filters: BillFilters = {
        stateId: state ? stateIdOf(state) : undefined,
        sessionId: qs.session_id,
        numberKey: number ? billNumberKey(number) : undefined,
        q: parseSearchQuery(qs.q),
        topicId,
        subject: parseTextFilter(qs.subject, 'subject'),
        sponsorLastName: parseTextFilter(qs.sponsor_last_name, 'sponsor_last_name'),
        statusId: qs.status_id,
        titleContains: parseTextFilter(qs.title_contains, 'title_contains'),
        updatedSince,
        limit,
        offset,
      };
      const data = await budgetedRead(app, req, reply, isExpensive(filters), async (db) => {
        const rows = await searchBills(db, filters);
        if (include) await embedParts(db, rows, include);
        return rows;
      });
      return { data, pagination: pagination(limit, offset, data.length) };
    },
  );
};
