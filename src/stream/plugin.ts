// GET /v1/stream (SSE) and its WebSocket twin, both fed by one hub per process.
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import { MemoryBus } from '../bus/memory.js';
import { Hub } from './hub.js';
import { sseRoutes } from './sse.js';
import { wsRoutes } from './ws.js';

declare module 'fastify' {
  interface FastifyInstance {
    streamHub?: Hub;
  }
}

export async function streamPlugin(app: FastifyInstance) {
  const c = app.config;
  const hub = new Hub({
    db: app.db,
    dbRead: app.dbRead,
    bus: app.deps.bus ?? new MemoryBus(),
    log: app.log,
    heartbeatMs: c.streamHeartbeatMs,
    rotateMs: c.streamRotateMs,
    rotateJitterPct: c.streamRotateJitter,
    bufferBytes: c.streamBufferBytes,
  });
  await hub.init();
  app.decorate('streamHub', hub);
  // preClose, not onClose: server.close() waits for open connections, so streams must end first.
  app.addHook('preClose', async () => hub.close());
  await app.register(websocket, { options: { maxPayload: 4096 } });
  sseRoutes(app, hub);
  wsRoutes(app, hub);
}
