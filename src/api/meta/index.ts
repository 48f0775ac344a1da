// Meta endpoints: /v1/status, /v1/coverage, /v1/_meta/usage (health lives in api/health.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { coverageRoutes } from './coverage.js';
import { statusRoutes } from './status.js';
import { usageRoutes } from './usage.js';

export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(statusRoutes);
  await app.register(coverageRoutes);
  await app.register(usageRoutes);
};
