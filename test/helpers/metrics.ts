// Reading one unlabelled gauge or counter of an app's /metrics (as a loopback scraper does).
import type { FastifyInstance } from 'fastify';

export async function metricValue(app: FastifyInstance, name: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  const m = new RegExp(`^${name} (\\d+(?:\\.\\d+)?)$`, 'm').exec(res.body);
  if (!m) throw new Error(`${name} missing from /metrics`);
  return Number(m[1]);
}
