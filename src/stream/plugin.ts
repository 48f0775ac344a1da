// GET /v1/stream (SSE) and its WebSocket twin.
import type { FastifyInstance } from 'fastify';

export async function streamPlugin(_app: FastifyInstance) {}
