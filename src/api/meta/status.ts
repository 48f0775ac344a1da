// GET /v1/status: per-state freshness, cached 60 seconds. One query: per state, index lookups for
// the newest bill update and change and a range count of the last 24 hours of changes, so it stays
// cheap on a million-bill corpus.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { logFailure } from '../../db/health.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { Snapshot } from './snapshot.js';
import { statusRows } from './repository.js';

const Ts = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const StatusSchema = Type.Object(
  {
    generated_at: Type.String({
      format: 'date-time',
      description: 'when this snapshot was computed (it is cached up to 60 s)',
    }),
    latest_change: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'newest change in the feed, any state',
    }),
    states: Type.Array(
      Type.Object({
        state: Type.String(),
        state_name: Type.String(),
        last_bill_update: Type.Union([Ts], { description: 'newest bills.updated for the state; null without bills' }),
        last_change: Type.Union([Ts], { description: 'newest change feed entry for the state' }),
        changes_24h: Type.Integer({ description: 'change feed entries in the 24 hours before generated_at' }),
        session_in_progress: Type.Boolean({ description: 'a session of the current year has not adjourned sine die' }),
      }),
    ),
  },
  {
    examples: [
      {
        generated_at: '2025-06-02T14:00:00.000Z',
        latest_change: '2025-06-02T13:59:41.120Z',
        states: [
          {
            state: 'CA',
            state_name: 'California',
            last_bill_update: '2025-06-02T13:59:41.000Z',
            last_change: '2025-06-02T13:59:41.120Z',
            changes_24h: 412,
            session_in_progress: true,
          },
        ],
      },
    ],
  },
);

export const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const snap = new Snapshot(60_000, async () => {
    const rows = await statusRows(app.dbRead);
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    const states = rows.map((r) => ({
      ...r,
      last_bill_update: iso(r.last_bill_update),
      last_change: iso(r.last_change),
    }));
    const latest =
      states
        .map((s) => s.last_change)
        .filter((x): x is string => x !== null)
        .sort()
        .at(-1) ?? null;
    return { generated_at: app.clock().toISOString(), latest_change: latest, states };
  });

  app.get(
    '/v1/status',
    {
      config: { public: true },
      schema: {
        operationId: 'getStatus',
        summary: 'Per-state data freshness',
        description:
          'Snapshot cached 60 seconds (Cache-Control: public, max-age=60). 503 status_unavailable when it cannot be computed.',
        tags: ['Meta'],
        response: { 200: StatusSchema, ...errorResponses(401, 429, 503) },
      },
    },
    async (req) => {
      try {
        return (await snap.get()).data;
      } catch (err) {
        logFailure(app.dbRead, req.log, 'error', err, 'status snapshot failed', { request_id: req.id });
        throw new ApiError('status_unavailable');
      }
    },
  );
};
