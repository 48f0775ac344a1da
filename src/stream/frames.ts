// Wire formats of the stream. Each event is serialized at most once per format and the same string
// is written to every matching connection.
import type { ChangeEvent } from '../bus/types.js';

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

/** Lazily serialized forms of one event, shared by all connections. */
export class Frames {
  private sseBytes?: Buffer;
  private wsText?: string;
  constructor(readonly event: ChangeEvent) {}

  /** Encoded once into bytes, so writing it to thousands of sockets copies no string. */
  sse(): Buffer {
    // JSON.stringify never emits a raw newline, so data stays on one line as SSE requires.
    return (this.sseBytes ??= Buffer.from(`event: bill_change\nid: ${this.event.changed_at}\ndata: ${JSON.stringify(payload(this.event))}\n\n`));
  }

  ws(): string {
    return (this.wsText ??= JSON.stringify({ type: 'bill_change', id: this.event.changed_at, data: payload(this.event) }));
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

export const sseRotate = (d: RotateData) => `event: rotate\nid: ${d.cursor}\ndata: ${JSON.stringify(d)}\n\n`;
export const sseError = (d: ErrorData) => `event: error\ndata: ${JSON.stringify(d)}\n\n`;
export const ssePing = (ts: string) => `: ping ${ts}\n\n`;
