// Every answer names its request (X-Request-Id, the id in the error envelope and the logs), and a
// request reaching a closing server (a keep-alive connection, a pipelined request) is sent
// elsewhere with a 503 in the envelope, as Fastify's return503OnClosing would without it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const requestIdPlugin = fp(
  async function requestId(app: FastifyInstance) {
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });

    // Callback style (not async): this runs on every request and an async hook costs a promise.
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('X-Request-Id', req.id);
      if (closing) {
        reply.header('Connection', 'close').header('Retry-After', 1);
        reply.sendError('service_unavailable', 'The server is shutting down; retry (another instance will answer).');
        return;
      }
      done();
    });
  },
  { name: 'lds-request-id', fastify: '5.x', dependencies: ['lds-envelope'] },
);
