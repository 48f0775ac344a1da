// Every registered route in one table: unknown paths answer 404 and known paths with another
// method 405 with Allow, both in the envelope, with no key and no limit (they touch no data).
// Every keyed route also documents its 503 (the key store lives in PostgreSQL).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { RouteTable } from './methods.js';
import { ErrorSchema } from './schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** every registered route (patterns and methods), for 405 answers and the OpenAPI check */
    routeTable: RouteTable;
  }
}

export const routeTablePlugin = fp(
  async function routeTable(app: FastifyInstance) {
    const routes = new RouteTable();
    app.decorate('routeTable', routes);
    app.addHook('onRoute', (route) => {
      routes.add(route);
      // Every keyed route reads the key store (and its data) in PostgreSQL, so each can answer 503
      // service_unavailable while the database is down or restarting: document it on all of them.
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      if (response && response[401] !== undefined && response[503] === undefined) response[503] = ErrorSchema;
    });

    app.setNotFoundHandler(async (req, reply) => {
      const path = req.url.split('?')[0];
      const allowed = routes.allowed(path);
      if (allowed && !allowed.includes(req.method)) {
        reply.header('Allow', allowed.join(', '));
        return reply.sendError(
          'method_not_allowed',
          `${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
        );
      }
      return reply.sendError('not_found', `No endpoint ${req.method} ${path}.`);
    });
  },
  { name: 'lds-route-table', fastify: '5.x', dependencies: ['lds-envelope'] },
);
