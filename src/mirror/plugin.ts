// Push-mirror endpoints (LegiScan Push wire format).
import type { FastifyInstance } from 'fastify';

export async function mirrorPlugin(_app: FastifyInstance) {}
