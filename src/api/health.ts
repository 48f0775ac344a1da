// GET /v1/health: liveness only (no database call), public; a probe, so X-API-Key is not read.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const HealthSchema = Type.Object({
  ok: Type.Boolean(),
  service: Type.String(),
  version: Type.String(),
  ts: Type.String({ format: 'date-time' }),
});

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/health',
    {
      config: { public: true, probe: true },
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness of this process',
        description:
          'Public. The X-API-Key header is not read: a key sent here is neither checked nor counted, and never refused by its limits.',
        tags: ['Meta'],
        response: { 200: HealthSchema },
      },
    },
    async () => ({ ok: true, service: 'legislative-data-service', version: 'v1', ts: app.clock().toISOString() }),
  );
};
