// GET /v1/stream (SSE) and its WebSocket twin, both fed by one hub per process.
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { wsErrorHandler } from '../http/client-errors.js';
import { MemoryBus } from '../bus/memory.js';
import { Hub } from './hub.js';
import { StreamGuard } from './guard.js';
import { OutageNotices } from './outage.js';
import { sseRoutes } from './sse.js';
import { wsRoutes } from './ws.js';
import type { ChangeEvent } from '../changes/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    streamHub?: Hub;
  }
}

/** How long clients get on shutdown to take the final rotate and close before they are cut. */
const SHUTDOWN_GRACE_MS = 1000;

export const streamPlugin: FastifyPluginAsyncTypebox = async (app) => {
  const c = app.config;
  const hub = new Hub({
    db: app.db,
    // catch-ups from the change log on their own pool (STREAM_REPLAY_POOL_SIZE): 500 streams
    // replaying at once queue there instead of in front of every read endpoint
    dbRead: app.dbStream,
    bus: app.bus ?? new MemoryBus<ChangeEvent>(),
    log: app.log,
    heartbeatMs: c.streamHeartbeatMs,
    rotateMs: c.streamRotateMs,
    rotateJitterPct: c.streamRotateJitter,
    bufferBytes: c.streamBufferBytes,
    replayMaxEvents: c.streamReplayMaxEvents,
    replaysPerKey: c.streamReplaysPerKey,
    replayEventsPerSec: c.streamReplayEventsPerSec,
  });
  await hub.init();
  app.decorate('streamHub', hub);

  // Sockets handed over by an HTTP upgrade leave the HTTP server's bookkeeping: neither
  // closeAllConnections() nor the idle sweep sees them, yet server.close() waits for them. A refused
  // upgrade (400, 401, 429, 503 while closing) leaves such a socket behind, half-open once the
  // client hangs up (the HTTP server allows half-open sockets), so it would hold the process open
  // forever. They are tracked here and cut when the client leaves, when the refusal has been sent,
  // and on shutdown.
  const upgrades = new Set<Duplex>();
  const established = new WeakSet<object>();
  const onUpgrade = (_req: IncomingMessage, socket: Duplex) => {
    upgrades.add(socket);
    socket.once('close', () => upgrades.delete(socket));
    socket.once('end', () => {
      if (!established.has(socket)) socket.destroy();
    });
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onResponse', async (req) => {
    // reached only by upgrade requests that were answered with an HTTP response (refused)
    if (req.raw.headers.upgrade !== undefined && !established.has(req.raw.socket)) req.raw.socket.destroy();
  });

  // preClose, not onClose: server.close() waits for open connections, so streams must end first.
  // Registered before @fastify/websocket's own preClose, which only asks clients to close.
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await hub.close(SHUTDOWN_GRACE_MS);
    guard.close(); // streams still waiting to open end too
    for (const s of upgrades) s.destroy();
  });
  await app.register(websocket, { options: { maxPayload: 4096 }, errorHandler: wsErrorHandler });
  // One set of outage notices for both transports: one listener per pool, every stream told once.
  const outage = new OutageNotices([app.db, app.dbRead, app.dbStream], hub);
  app.addHook('onClose', async () => outage.close());
  // Per-key cap and revocation, for both transports. Checked twice per KEY_CACHE_MS, so a revoked
  // key's streams close within it, as its requests start to be refused.
  const guard = new StreamGuard({
    db: app.db,
    redis: app.redis,
    limits: c.streamConnectionsPerKey,
    checkMs: Math.max(250, Math.floor(c.keyCacheMs / 2)),
    opensPerSec: c.streamOpensPerSec,
    forget: (id) => app.keyCache.forget(id),
    log: app.log,
  });
  app.addHook('onClose', async () => guard.close());
  // lds_stream_connections (the stream autoscaler's signal) and lds_stream_opens_waiting are read by
  // the ops plugin at the root.
  const counts = { connections: () => hub.size, waitingToOpen: () => guard.waitingToOpen() };
  app.streamSources.add(counts);
  app.addHook('onClose', async () => {
    app.streamSources.delete(counts);
  });
  const streams = { hub, outage, guard };
  sseRoutes(app, streams);
  wsRoutes(app, streams, established);
};
