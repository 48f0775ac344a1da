// Webhook subscription endpoints.
import type { FastifyInstance } from 'fastify';

export async function webhooksPlugin(_app: FastifyInstance) {}
