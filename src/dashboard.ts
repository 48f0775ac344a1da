// The live dashboard served at /dashboard.
import type { FastifyInstance } from 'fastify';

export async function dashboardPlugin(_app: FastifyInstance) {}
