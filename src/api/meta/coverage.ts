// GET /v1/coverage: how complete the data is per state. One aggregate query per snapshot (per-bill
// counts of votes, texts and sponsors joined to bills and grouped by state), recomputed at most every
// five minutes; computed_at shows the snapshot's age. vs_reference is null: no reference database
// is configured.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { logFailure } from '../../db/health.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { Snapshot } from './snapshot.js';
import { coverageRows } from './repository.js';

const NumOrNull = Type.Union([Type.Number(), Type.Null()]);
const IntOrNull = Type.Union([Type.Integer(), Type.Null()]);
const VsReference = Type.Object(
  { bills: NumOrNull, votes: NumOrNull, texts: NumOrNull },
  { description: 'ratio to the legacy reference provider; null when no reference database is configured or reachable' },
);

export const CoverageSchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time' }),
    computed_at: Type.String({
      format: 'date-time',
      description: 'when the snapshot was computed (up to 5 minutes old)',
    }),
    states_total: Type.Integer(),
    states_in_session: Type.Integer(),
    totals: Type.Object({
      bills: Type.Integer(),
      votes: Type.Integer(),
      texts: Type.Integer(),
      sponsors: Type.Integer(),
      vs_reference: VsReference,
    }),
    per_state: Type.Array(
      Type.Object({
        state: Type.String(),
        bills: Type.Integer(),
        pct_with_votes: IntOrNull,
        pct_with_texts: IntOrNull,
        pct_with_sponsors: IntOrNull,
        votes_total: Type.Integer(),
        texts_total: Type.Integer(),
        sponsors_total: Type.Integer(),
        vs_reference: VsReference,
        has_live_session: Type.Boolean(),
      }),
    ),
  },
  {
    examples: [
      {
        generated_at: '2025-06-02T14:00:00.000Z',
        computed_at: '2025-06-02T13:57:12.000Z',
        states_total: 52,
        states_in_session: 1,
        totals: {
          bills: 1200,
          votes: 800,
          texts: 1500,
          sponsors: 3100,
          vs_reference: { bills: null, votes: null, texts: null },
        },
        per_state: [
          {
            state: 'CA',
            bills: 1200,
            pct_with_votes: 41,
            pct_with_texts: 98,
            pct_with_sponsors: 99,
            votes_total: 800,
            texts_total: 1500,
            sponsors_total: 3100,
            vs_reference: { bills: null, votes: null, texts: null },
            has_live_session: true,
          },
        ],
      },
    ],
  },
);

const pct = (part: number, whole: number) => (whole === 0 ? null : Math.round((100 * part) / whole));
const noReference = () => ({ bills: null, votes: null, texts: null });

export const coverageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const snap = new Snapshot(300_000, async () => {
    const rows = await coverageRows(app.dbRead);
    const per_state = rows.map((r) => ({
      state: r.state,
      bills: r.bills,
      pct_with_votes: pct(r.with_votes, r.bills),
      pct_with_texts: pct(r.with_texts, r.bills),
      pct_with_sponsors: pct(r.with_sponsors, r.bills),
      votes_total: Number(r.votes),
      texts_total: Number(r.texts),
      sponsors_total: Number(r.sponsors),
      vs_reference: noReference(),
      has_live_session: r.live,
    }));
    const sum = (f: (s: (typeof per_state)[number]) => number) => per_state.reduce((a, s) => a + f(s), 0);
    return {
      computed_at: app.clock().toISOString(),
      states_total: per_state.length,
      states_in_session: per_state.filter((s) => s.has_live_session).length,
      totals: {
        bills: sum((s) => s.bills),
        votes: sum((s) => s.votes_total),
        texts: sum((s) => s.texts_total),
        sponsors: sum((s) => s.sponsors_total),
        vs_reference: noReference(),
      },
      per_state,
    };
  });

  app.get(
    '/v1/coverage',
    {
      config: { public: true },
      schema: {
        operationId: 'getCoverage',
        summary: 'Data coverage per state',
        description:
          'Snapshot recomputed at most every 5 minutes (computed_at). 503 coverage_unavailable when it cannot be computed.',
        tags: ['Meta'],
        response: { 200: CoverageSchema, ...errorResponses(401, 429, 503) },
      },
    },
    async (req) => {
      try {
        const { data } = await snap.get();
        return { generated_at: app.clock().toISOString(), ...data };
      } catch (err) {
        logFailure(app.dbRead, req.log, 'error', err, 'coverage snapshot failed', { request_id: req.id });
        throw new ApiError('coverage_unavailable');
      }
    },
  );
};
