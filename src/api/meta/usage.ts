// GET /v1/_meta/usage: the calling key's plan and its use in the current UTC month. The call
// itself has already been counted when the handler runs, so it is included in monthly_requests_used.
// A single record, so `{ data: {...} }` like every other: the spec names the only objects served
// at the top level (topics/{slug}, health, coverage), and usage is not one of them.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../http/errors.js';
import { period } from '../../http/limits.js';
import { errorResponses } from '../../http/schemas.js';

export const UsageSchema = Type.Object(
  {
    api_key_id: Type.String(),
    org_name: Type.String(),
    tier: Type.String(),
    monthly_request_cap: Type.Integer(),
    monthly_requests_used: Type.Integer(),
    monthly_requests_remaining: Type.Integer(),
    period_start: Type.String({ format: 'date-time', description: 'first moment of the current UTC month' }),
    period_end: Type.String({ format: 'date-time', description: 'first moment of the next UTC month (exclusive)' }),
  },
  {
    examples: [
      {
        api_key_id: 'key_3f9a1c0b7d2e4a51',
        org_name: 'Example Newsroom',
        tier: 'standard',
        monthly_request_cap: 100000,
        monthly_requests_used: 1234,
        monthly_requests_remaining: 98766,
        period_start: '2025-06-01T00:00:00.000Z',
        period_end: '2025-07-01T00:00:00.000Z',
      },
    ],
  },
);

export const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/_meta/usage',
    {
      schema: {
        operationId: 'getUsage',
        summary: 'Usage of the calling key this month',
        description:
          'The usage record, in data. Counts every request of this key that passed authentication in the current UTC calendar month, this one included; 429 answers are not counted.',
        tags: ['Meta'],
        response: { 200: Type.Object({ data: UsageSchema }), ...errorResponses(401, 429) },
      },
    },
    async (req) => {
      const key = req.apiKey;
      if (!key) throw new ApiError('unauthorized');
      const now = app.clock();
      const { start, end } = period(now);
      const used = await app.limiter.used(key, now);
      const data = {
        api_key_id: key.api_key_id,
        org_name: key.org_name,
        tier: key.tier,
        monthly_request_cap: key.monthly_cap,
        monthly_requests_used: used,
        monthly_requests_remaining: Math.max(0, key.monthly_cap - used),
        period_start: start.toISOString(),
        period_end: end.toISOString(),
      };
      return { data };
    },
  );
};
