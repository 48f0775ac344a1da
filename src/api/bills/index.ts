// Bills: search, one bill, sixteen sub-resources (including text changes and diffs).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { billSearchRoutes } from './search.js';
import { billDetailRoutes } from './detail.js';
import { textChangeRoutes } from './text-changes.js';

export const billRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(billSearchRoutes);
  await app.register(billDetailRoutes);
  await app.register(textChangeRoutes);
};
