// GET /v1/health: liveness only (no database call), public.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const HealthSchema = Type.Object({
  ok: Type.Boolean(),
  service: Type.String(),
  version: Type.String(),
  ts: Type.String({ format: 'date-time' }),
});

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/health', {
    config: { public: true },
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness of this process',
      tags: ['Meta'],
      response: { 200: HealthSchema },
    },
  }, async () => ({ ok: true, service: 'legislative-data-service', version: 'v1', ts: app.clock().toISOString() }));
};
