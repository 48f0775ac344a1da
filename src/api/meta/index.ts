// Meta endpoints: /v1/status, /v1/coverage, /v1/_meta/usage (health lives in api/health.ts).
import type { FastifyInstance } from 'fastify';

export async function metaRoutes(_app: FastifyInstance) {}
