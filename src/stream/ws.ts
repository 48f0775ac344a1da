// GET /v1/stream/ws: the same events over WebSocket, for clients that prefer it. Messages are JSON:
// {type:"bill_change", id, data}, {type:"ping", ts}, {type:"rotate", reason, cursor} (then the server
// closes with code 1000), {type:"error", reason, cursor, retry_ms}, {type:"reset", ...} (replay cut short).
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.js';
import { streamOpened } from '../http/access-log.js';
import { errorResponses } from '../http/schemas.js';
import type { Frames, Ping } from './frames.js';
import type { Lease, Streams } from './guard.js';
import type { Sink } from './hub.js';
import { parseStreamParams, StreamQuery, type StreamParams } from './params.js';

/** The parts of a ws socket the sink uses. */
interface Socket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(data: string | Buffer, options?: { binary: boolean }): void;
  close(code: number, reason: string): void;
  terminate(): void;
}

const CLOSED = 3;

class WsSink implements Sink {
  constructor(private readonly ws: Socket) {}
  // Shared frames come as UTF-8 bytes (encoded once for all sockets); binary: false keeps them
  // text messages.
  private send(text: string | Buffer) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text, { binary: false });
  }
  event(f: Frames) {
    this.send(f.ws());
  }
  ping(p: Ping) {
    this.send(p.ws());
  }
  error(d: Parameters<Sink['error']>[0]) {
    this.send(JSON.stringify({ type: 'error', ...d }));
  }
  reset(d: Parameters<Sink['reset']>[0]) {
    this.send(JSON.stringify({ type: 'reset', ...d }));
  }
  rotate(d: Parameters<Sink['rotate']>[0]) {
    this.send(JSON.stringify({ type: 'rotate', ...d }));
    this.close(1000, 'rotate');
  }
  end(d: Parameters<Sink['end']>[0]) {
    this.send(JSON.stringify({ type: 'error', ...d }));
    // 1008: policy violation, the close code for "not allowed any more"
    this.close(1008, d.reason);
  }
  private close(code: number, reason: string) {
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), 10_000).unref();
  }
  buffered() {
    return this.ws.bufferedAmount;
  }
  gone() {
    return this.ws.readyState === CLOSED;
  }
  kill() {
    this.ws.terminate();
  }
}

const params = new WeakMap<FastifyRequest, { p: StreamParams; lease?: Lease }>();

/** established: the raw sockets that became WebSockets (the plugin cuts every other upgrade socket). */
export function wsRoutes(app: App, { hub, outage, guard }: Streams, established: WeakSet<object>) {
  app.get(
    '/v1/stream/ws',
    {
      websocket: true,
      schema: {
        operationId: 'streamChangesWebSocket',
        summary: 'Live change stream over WebSocket',
        description:
          'Same events, filters, resume and heartbeat as /v1/stream, as JSON text messages: {type:"bill_change", id, data}, ' +
          '{type:"ping", ts}, {type:"rotate", reason, cursor} (the server then closes with code 1000; reconnect with ' +
          'last_event_id = cursor), {type:"error", reason: "database_unavailable", cursor, retry_ms} when the database becomes ' +
          'unavailable (the connection stays open and resumes without loss), {type:"reset", reason: "replay_limit", since, cursor, ' +
          'max_events} first when the replay asked for is longer than STREAM_REPLAY_MAX_EVENTS (as on /v1/stream), ' +
          '{type:"error", reason: "revoked_api_key"} then close code 1008 when the key is revoked. The per-key cap counts ' +
          'these and /v1/stream together (429 stream_limit before the upgrade). Send the key in the X-API-Key header ' +
          '(non-browser clients can); resume with the Last-Event-ID header or the last_event_id query parameter.',
        tags: ['Changes'],
        querystring: StreamQuery,
        response: { 101: { description: 'Switching protocols' }, ...errorResponses(400, 401, 429, 500) },
      },
      // Parameters are checked before the upgrade so a bad request gets a plain 400 response.
      // The stream slot is taken there too, so a refusal is a plain 429; it is freed when the
      // connection closes, whether or not the upgrade completed.
      preHandler: async (req, reply) => {
        const p = parseStreamParams(req.query, req.headers['last-event-id'], app.clock());
        const lease = req.apiKey ? await guard.admit(req.apiKey) : undefined;
        if (lease) req.raw.socket.once('close', () => guard.release(lease));
        // the client left while its stream waited to open: nothing to answer
        if (lease && !(await guard.opening(lease, req.raw.socket))) return reply.hijack();
        params.set(req, { p, lease });
      },
    },
    (socket, req) => {
      established.add(req.raw.socket);
      streamOpened(req);
      const { p, lease } = params.get(req) as { p: StreamParams; lease?: Lease };
      const sink = new WsSink(socket);
      const detach = outage.attach(hub, sink, p, req.apiKey?.api_key_id);
      socket.on('close', detach);
      if (lease) {
        lease.end = () => {
          detach();
          sink.end({ reason: 'revoked_api_key' });
        };
      }
    },
  );
}
