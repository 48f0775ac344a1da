// Webhook subscription endpoints. One Outbound (guarded undici Agent) per app serves the
// synchronous test calls; background delivery runs in the worker role (worker.ts).
import type { FastifyInstance } from 'fastify';
import type { DeliveryContext } from './deliver.js';
import { deliveryRoutes } from './delivery-routes.js';
import { Outbound } from './outbound.js';
import { subscriptionRoutes } from './routes.js';

export async function webhooksPlugin(app: FastifyInstance) {
  let outbound: Outbound | undefined;
  const getOutbound = () => (outbound ??= new Outbound({ allowedHosts: app.config.webhookAllowedHosts, timeoutMs: app.config.webhookTimeoutMs }));
  const dctx = (): DeliveryContext => ({ db: app.db, config: app.config, outbound: getOutbound(), log: app.log as never });
  app.addHook('onClose', async () => {
    await outbound?.close();
  });
  await subscriptionRoutes(app);
  await deliveryRoutes(app, dctx);
}
