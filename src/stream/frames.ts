// Wire formats of the stream. Each event is serialized at most once per format and the same string
// is written to every matching connection.
import type { ChangeEvent } from '../changes/events.js';

export const STREAM_VERSION = 'lds-stream v1';
export const RETRY_MS = 5000;

/** Opening of every SSE response: the reconnect delay, then a comment naming the stream version. */
export const SSE_OPENING = `retry: ${RETRY_MS}\n: ${STREAM_VERSION}\n\n`;

/** The public payload: the pull feed's row with state and reason in place of state_abbr and reason_name. */
export function payload(e: ChangeEvent) {
  return {
    bill_id: e.bill_id,
    bill_number: e.bill_number,
    state: e.state,
    title: e.title,
    reason: e.reason,
    reason_id: e.reason_id,
    changed_at: e.changed_at,
  };
}

/**
 * One SSE frame as bytes, inside an HTTP/1.1 chunk: `<size hex>\r\n<frame>\r\n`. A chunked response
 * can take it straight onto the socket, so the HTTP layer neither frames nor copies it per
 * connection; `frame` is the same bytes without the chunk framing (a view, no copy).
 */
export class SseBytes {
  readonly chunk: Buffer;
  readonly frame: Buffer;
  constructor(text: string) {
    const head = `${Buffer.byteLength(text).toString(16)}\r\n`;
    this.chunk = Buffer.from(`${head}${text}\r\n`);
    this.frame = this.chunk.subarray(head.length, this.chunk.length - 2);
  }
}

/** Lazily serialized forms of one event, shared by all connections. */
export class Frames {
  private sseBytes?: SseBytes;
  private wsText?: Buffer;
  constructor(readonly event: ChangeEvent) {}

  /** Encoded once into bytes, so writing it to thousands of sockets copies no string. */
  sse(): SseBytes {
    // JSON.stringify never emits a raw newline, so data stays on one line as SSE requires.
    return (this.sseBytes ??= new SseBytes(
      `event: bill_change\nid: ${this.event.changed_at}\ndata: ${JSON.stringify(payload(this.event))}\n\n`,
    ));
  }

  /** UTF-8 bytes of the JSON text message, encoded once instead of once per WebSocket */
  ws(): Buffer {
    return (this.wsText ??= Buffer.from(
      JSON.stringify({ type: 'bill_change', id: this.event.changed_at, data: payload(this.event) }),
    ));
  }
}

/** One heartbeat, serialized once per format for every connection pinged in the same tick. */
export class Ping {
  private sseBytes?: SseBytes;
  private wsText?: Buffer;
  constructor(readonly ts: string) {}
  sse(): SseBytes {
    return (this.sseBytes ??= new SseBytes(ssePing(this.ts)));
  }
  ws(): Buffer {
    return (this.wsText ??= Buffer.from(JSON.stringify({ type: 'ping', ts: this.ts })));
  }
}

export interface RotateData {
  /** wall_clock (connection life reached), slow_consumer (buffer full), server_shutdown */
  reason: 'wall_clock' | 'slow_consumer' | 'server_shutdown';
  cursor: string;
}

export interface ErrorData {
  reason: 'database_unavailable';
  cursor: string;
  retry_ms: number;
}

/**
 * The replay a client asked for was longer than STREAM_REPLAY_MAX_EVENTS: the changes after `since`
 * up to and including `cursor` are not sent (read them from /v1/changes?since=<since>); the stream
 * goes on with the changes after `cursor`. Mercure and Centrifugo tell a client the same way that
 * the history it asked for is not there.
 */
export interface ResetData {
  reason: 'replay_limit';
  since: string;
  cursor: string;
  max_events: number;
}

/** The last frame of a stream whose key was revoked while it was open. */
export interface RevokedData {
  reason: 'revoked_api_key';
}

export const sseRotate = (d: RotateData) => `event: rotate\nid: ${d.cursor}\ndata: ${JSON.stringify(d)}\n\n`;
export const sseReset = (d: ResetData) => `event: reset\nid: ${d.cursor}\ndata: ${JSON.stringify(d)}\n\n`;
export const sseError = (d: ErrorData | RevokedData) => `event: error\ndata: ${JSON.stringify(d)}\n\n`;
export const ssePing = (ts: string) => `: ping ${ts}\n\n`;
