// Cross-cutting HTTP plumbing shared by every endpoint.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const httpPlugin = fp(async function http(_app: FastifyInstance) {});
