// GET /v1/changes: the pull change feed.
import type { FastifyInstance } from 'fastify';

export async function realtimePlugin(_app: FastifyInstance) {}
