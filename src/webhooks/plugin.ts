// Webhook subscription and delivery endpoints. The process's Outbound and delivery kinds (app
// decorators, made at the process root) serve the synchronous test calls; background delivery runs
// in the worker role (delivery/worker.ts).
// Encapsulated: its routes and hooks stay inside; it needs the envelope (errors) and the http
// plugin (authentication, limits) registered before it.
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryContext } from './delivery/attempt.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { subscriptionRoutes } from './routes/subscriptions.js';

const webhooks: FastifyPluginAsyncTypebox = async (app) => {
  const dctx = (): DeliveryContext => ({
    db: app.db,
    config: app.config,
    outbound: app.outbound,
    kinds: app.kinds,
    log: app.log,
  });
  await app.register(subscriptionRoutes);
  await app.register(deliveryRoutes, { dctx });
};

export const webhooksPlugin = fp(webhooks, {
  name: 'lds-webhooks',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['lds-envelope', 'lds-http'],
  decorators: { fastify: ['config', 'db', 'dbRead', 'outbound', 'kinds'] },
});
