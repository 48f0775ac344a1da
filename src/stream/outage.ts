// Tells open streams (SSE and WebSocket) that the database went away, as the README promises:
// one `error` frame {reason: "database_unavailable", cursor, retry_ms} per connection and outage.
// The connection stays open: live events simply pause (nothing can be stamped while PostgreSQL is
// down) and resume from the relay's cursor when it returns, so the client need not do anything;
// the cursor is there for clients that prefer to reconnect. A connection opened during an outage
// (its key was cached or confirmed shortly before, KEY_OUTAGE_GRACE_MS) is told at once.
// Wall-clock rotations are held for the outage (a rotated client would reconnect into a database
// that is away) and spread over one connection life when it ends.
import type { Pool } from '../db/pool.js';
import type { DatabaseStatus } from '../db/health.js';
import type { Conn, Hub, Sink } from './hub.js';
import type { StreamParams } from './params.js';

/** What clients are told to wait before retrying; the status probes this often too. */
export const OUTAGE_RETRY_MS = 1000;

export class OutageNotices {
  private readonly open = new Map<Conn, { sink: Sink; cursor: string }>();
  private readonly statuses: DatabaseStatus[];
  private readonly onDown = () => {
    this.hub.holdRotations();
    this.notifyAll();
  };
  private readonly onUp = () => {
    if (!this.statuses.some((s) => s.down)) this.hub.releaseRotations();
  };

  constructor(
    pools: Pool[],
    private readonly hub: Hub,
  ) {
    this.statuses = [...new Set(pools)].map((p) => p.status);
    for (const s of this.statuses) {
      s.on('down', this.onDown);
      s.on('up', this.onUp);
    }
  }

  /** Attaches a transport to the hub and to these notices; returns what to call when it closes. */
  attach(hub: Hub, sink: Sink, p: StreamParams, key?: string): () => void {
    const conn = hub.attach(sink, p.filter, p.cursor, key);
    this.add(conn, sink, p.cursor);
    return () => {
      hub.detach(conn);
      this.remove(conn);
    };
  }

  add(conn: Conn, sink: Sink, cursor: string): void {
    this.open.set(conn, { sink, cursor });
    if (this.statuses.some((s) => s.down)) this.notify(conn, sink, cursor);
  }

  remove(conn: Conn): void {
    this.open.delete(conn);
  }

  close(): void {
    for (const s of this.statuses) {
      s.off('down', this.onDown);
      s.off('up', this.onUp);
    }
    this.open.clear();
  }

  private notifyAll(): void {
    for (const [conn, { sink, cursor }] of this.open) {
      if (conn.closed) this.open.delete(conn);
      else this.notify(conn, sink, cursor);
    }
  }

  private notify(conn: Conn, sink: Sink, cursor: string): void {
    sink.error({ reason: 'database_unavailable', cursor: conn.lastSent || cursor, retry_ms: OUTAGE_RETRY_MS });
  }
}
