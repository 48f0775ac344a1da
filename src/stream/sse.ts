// GET /v1/stream: server-sent events.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Type } from 'typebox';
import type { App } from '../http/app-type.js';
import { streamOpened } from '../http/access-log.js';
import { errorResponses } from '../http/schemas.js';
import { SSE_OPENING, SseBytes, sseError, sseReset, sseRotate, type Frames, type Ping } from './frames.js';
import type { Streams } from './guard.js';
import type { Sink } from './hub.js';
import { parseStreamParams, StreamQuery } from './params.js';

/** A client that stops reading after the final rotate is cut off after this long. */
const END_GRACE_MS = 10_000;

// Writes are batched per connection: everything queued for a socket while one batch of bus events
// (or one heartbeat slice) is handed out leaves in one write when that synchronous work is over
// (process.nextTick: no extra event-loop turn between the bus and the socket). One shared list and
// one scheduled flush for all connections; no closure or timer per connection.
const dirty: SseSink[] = [];
let scheduled = false;
function flushAll() {
  scheduled = false;
  for (let i = 0; i < dirty.length; i++) dirty[i].flush();
  dirty.length = 0;
}

/** the internals of ServerResponse read here (stable since Node 0.x, not in the typings) */
type Res = ServerResponse & { chunkedEncoding?: boolean };

class SseSink implements Sink {
  private q: Buffer[] = [];
  private bytes = 0;
  /**
   * With chunked transfer encoding (every HTTP/1.1 client) frames go straight to the socket in
   * their pre-built chunk form: the response's own write() would cork the socket, format a chunk
   * header and writev three buffers for every connection and event. The socket is the response's
   * own, so the order with the response's writes (headers, opening, final rotate) is kept.
   */
  private readonly sock: Socket | null;
  constructor(private readonly res: Res) {
    this.sock = res.chunkedEncoding === true ? res.socket : null;
  }
  private push(b: Buffer) {
    if (this.q.length === 0) {
      dirty.push(this);
      if (!scheduled) {
        scheduled = true;
        process.nextTick(flushAll);
      }
    }
    this.q.push(b);
    this.bytes += b.length;
  }
  private bytesOf(f: SseBytes) {
    return this.sock ? f.chunk : f.frame;
  }
  flush() {
    const q = this.q;
    if (q.length === 0) return;
    const data = q.length === 1 ? q[0] : Buffer.concat(q, this.bytes);
    q.length = 0;
    this.bytes = 0;
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.sock) {
      if (!this.sock.destroyed) this.sock.write(data);
    } else this.res.write(data);
  }
  event(f: Frames) {
    this.push(this.bytesOf(f.sse()));
  }
  ping(p: Ping) {
    this.push(this.bytesOf(p.sse()));
  }
  error(d: Parameters<Sink['error']>[0]) {
    this.push(this.bytesOf(new SseBytes(sseError(d))));
  }
  reset(d: Parameters<Sink['reset']>[0]) {
    this.push(this.bytesOf(new SseBytes(sseReset(d))));
  }
  rotate(d: Parameters<Sink['rotate']>[0]) {
    this.finish(sseRotate(d));
  }
  end(d: Parameters<Sink['end']>[0]) {
    this.finish(sseError(d));
  }
  private finish(last: string) {
    this.flush();
    this.res.end(last);
    setTimeout(() => this.res.destroy(), END_GRACE_MS).unref();
  }
  buffered() {
    return this.res.writableLength + this.bytes;
  }
  gone() {
    return this.res.writableFinished || this.res.destroyed;
  }
  kill() {
    this.res.destroy();
  }
}

export const STREAM_DESCRIPTION = [
  'Server-sent events (text/event-stream). The response opens with `retry: 5000` and the comment `: lds-stream v1`.',
  'Each change is `event: bill_change` with `id` = changed_at (ISO 8601 UTC with microseconds) and one line of JSON data',
  '{bill_id, bill_number, state, title, reason, reason_id, changed_at}. A `: ping <timestamp>` comment is sent every 15 s.',
  'After about 85 s (±10 %, so clients do not reconnect in lockstep) the server sends `event: rotate` with `id` and data',
  '{reason: "wall_clock", cursor} and ends the response; reconnect with Last-Event-ID = cursor (EventSource does this itself).',
  'The same event with reason "slow_consumer" ends a client that does not read fast enough (its buffer filled up), and',
  '"server_shutdown" ends streams when the server stops; in every case the cursor resumes without loss.',
  'If the database becomes unavailable (while the stream catches up or while it is live), `event: error` with data',
  '{reason: "database_unavailable", cursor, retry_ms} is sent and the connection stays open; delivery resumes without loss when',
  'the database returns (no action needed; reconnecting with Last-Event-ID = cursor is also safe). Wall-clock rotations are held',
  'while the database is down, and a stream that reconnects meanwhile with a key the database confirmed within',
  'KEY_OUTAGE_GRACE_MS still gets its 200 and this event. Browser EventSource dispatches this server',
  '`error` event to the same onerror handler as transport errors: tell them apart with `e instanceof MessageEvent`.',
  'Resume: Last-Event-ID (header) takes precedence over `since`; the stream first replays the missed matching changes from',
  'the change log, then continues live, with no gap and no duplicate. A replay is sent as fast as the client reads it (a',
  'client far behind is not cut off for being behind), within a budget per key of STREAM_REPLAY_EVENTS_PER_SEC (default 1000)',
  'events a second for all its streams together: over it a replay waits and goes on later, losing nothing. It covers at most the newest STREAM_REPLAY_MAX_EVENTS (default 5000)',
  'changes of the whole change log after the cursor: when more follow it, the stream opens with `event: reset`, `id` = cursor',
  'and data {reason: "replay_limit", since, cursor, max_events}: the changes after `since` up to and including `cursor` are not',
  'sent (read them from GET /v1/changes?since=<since>), and the stream goes on with the changes after `cursor`.',
  'The key is checked at connect; the connection counts as one request. One key holds at most STREAM_CONNECTIONS_PER_KEY',
  'streams at once, SSE and WebSocket together, across replicas (by tier: free 5, standard 25, pro 100, enterprise 500);',
  "one more answers 429 stream_limit with `limit` and Retry-After: 5. A key's streams open at most STREAM_OPENS_PER_SEC",
  "(default 100) a second in a server process after a burst of a tenth of a second's worth: beyond it an admitted stream's",
  'response waits for its turn (at most a few seconds; the 429 is never delayed). When the key is revoked, its open streams end within',
  'KEY_CACHE_MS with `event: error` and data {reason: "revoked_api_key"}; the reconnect then gets 401 revoked_api_key.',
].join(' ');

export function sseRoutes(app: App, { hub, outage, guard }: Streams) {
  app.get(
    '/v1/stream',
    {
      schema: {
        operationId: 'streamChanges',
        summary: 'Live change stream (server-sent events)',
        description: STREAM_DESCRIPTION,
        tags: ['Changes'],
        querystring: StreamQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({ description: 'the last id received; takes precedence over since' }),
          ),
        }),
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(400, 401, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const p = parseStreamParams(req.query, req.headers['last-event-id'], app.clock());
      const lease = req.apiKey ? await guard.admit(req.apiKey) : undefined;
      reply.hijack();
      // the client left while its stream waited to open (its slot is already free)
      if (lease && !(await guard.opening(lease, req.raw.socket))) return;
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string | number | string[]>),
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        // never compressed or buffered by a proxy: events must leave as soon as they are written
        'content-encoding': 'identity',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      req.raw.socket.setNoDelay(true);
      res.write(SSE_OPENING);
      streamOpened(req);
      const sink = new SseSink(res);
      const detach = outage.attach(hub, sink, p, req.apiKey?.api_key_id);
      res.on('close', () => {
        detach();
        if (lease) guard.release(lease);
      });
      if (lease) {
        lease.end = () => {
          detach();
          sink.end({ reason: 'revoked_api_key' });
        };
      }
    },
  );
}
