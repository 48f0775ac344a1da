// Read endpoints, one module per resource group.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { healthRoutes } from './health.js';
import { metaRoutes } from './meta/index.js';
import { referenceRoutes } from './reference/index.js';
import { billRoutes } from './bills/index.js';
import { voteRoutes } from './votes/index.js';
import { legislatorRoutes } from './legislators/index.js';
import { committeeRoutes } from './committees/index.js';
import { hearingRoutes } from './hearings/index.js';
import { topicRoutes } from './topics/index.js';
import { subjectRoutes } from './subjects/index.js';
import { candidateRoutes } from './candidates/index.js';

export const apiPlugin: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(healthRoutes);
  await app.register(metaRoutes);
  await app.register(referenceRoutes);
  await app.register(billRoutes);
  await app.register(voteRoutes);
  await app.register(legislatorRoutes);
  await app.register(committeeRoutes);
  await app.register(hearingRoutes);
  await app.register(topicRoutes);
  await app.register(subjectRoutes);
  await app.register(candidateRoutes);
};
