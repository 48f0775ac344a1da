// The app's type: a Fastify instance with the TypeBox type provider, so request parameters and
// replies are typed from each route's schema. Apart from app.ts so route modules can name it
// without importing the composition root (which imports them).
import type http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type App = FastifyInstance<
  RawServerDefault,
  http.IncomingMessage,
  http.ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
