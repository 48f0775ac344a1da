// The app's one Outbound (the guarded undici Agent, SSRF checks at connect time): the synchronous
// test calls of webhooks and push-mirrors send through it. Background delivery has its own, made by
// the worker from the same settings (a process may run the worker without the HTTP app).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Outbound } from './outbound.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** guarded outbound HTTP for test sends (webhooks/delivery/outbound-plugin.ts) */
    outbound: Outbound;
  }
}

export const outboundPlugin = fp(
  async function outbound(app: FastifyInstance) {
    const outbound = new Outbound({
      allowedHosts: app.config.webhookAllowedHosts,
      timeoutMs: app.config.webhookTimeoutMs,
    });
    app.decorate('outbound', outbound);
    app.addHook('onClose', async () => outbound.close());
  },
  { name: 'lds-outbound', fastify: '5.x', decorators: { fastify: ['config'] } },
);
