// Bills: search, one bill, sixteen sub-resources (including text changes and diffs).
import type { FastifyInstance } from 'fastify';
import { billSearchRoutes } from './search.js';
import { billDetailRoutes } from './detail.js';
import { textChangeRoutes } from './text-changes.js';

export async function billRoutes(app: FastifyInstance) {
  await app.register(billSearchRoutes);
  await app.register(billDetailRoutes);
  await app.register(textChangeRoutes);
}
