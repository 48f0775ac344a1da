// Read endpoints, one module per resource group.
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health.js';
import { metaRoutes } from './meta/index.js';

export async function apiPlugin(app: FastifyInstance) {
  await app.register(healthRoutes);
  await app.register(metaRoutes);
}
