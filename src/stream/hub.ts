// The stream hub: one bus subscription per process fanned out to every SSE/WebSocket connection.
// Connections are indexed by state (plus one set for "all states"); each event is serialized once
// per format; one shared timer sends heartbeats. A connection first catches up from the change log
// (live events are buffered meanwhile), then switches to live delivery; changed_at is unique and
// strictly increasing, so "skip anything <= last sent" makes the switch gapless and duplicate-free.
// Live events carry the relay's seq: a hole in seq (the bus dropped something while this process
// was disconnected) is filled from the change log before the next event goes out.
import type { Pool } from '../db/pool.js';
import type { Bus, ChangeEvent, Unsubscribe } from '../bus/types.js';
import { canonicalCursor, eventsAfter, eventsBySeq, type EventFilter } from '../changes/events.js';
import { Frames, type ErrorData, type RotateData } from './frames.js';

/** A transport (SSE or WebSocket) as the hub sees it. */
export interface Sink {
  event(f: Frames): void;
  ping(ts: string): void;
  rotate(d: RotateData): void;
  error(d: ErrorData): void;
  /** bytes accepted but not yet flushed to the socket */
  buffered(): number;
}

export interface HubOptions {
  db: Pool;
  dbRead: Pool;
  bus: Bus;
  log: { warn(obj: object, msg: string): void };
  heartbeatMs: number;
  rotateMs: number;
  rotateJitterPct: number;
  bufferBytes: number;
}

const PAGE = 500;
const PENDING_MAX = 5000;
const DB_RETRY_MS = 1000;

export class Conn {
  lastSent = '';
  live = false;
  closed = false;
  pending: ChangeEvent[] = [];
  overflow = false;
  rotateTimer?: NodeJS.Timeout;
  constructor(
    readonly sink: Sink,
    readonly filter: EventFilter,
  ) {}
}

export class Hub {
  private readonly byState = new Map<string, Set<Conn>>();
  private readonly all = new Set<Conn>();
  private readonly conns = new Set<Conn>();
  private readonly unsubscribe: Unsubscribe;
  private readonly heartbeat: NodeJS.Timeout;
  private lastSeq: number | undefined;
  private queue: ChangeEvent[] = [];
  private draining = false;
  private closing = false;
  count = 0;

  constructor(private readonly o: HubOptions) {
    this.unsubscribe = o.bus.subscribe((e) => this.onBus(e));
    this.heartbeat = setInterval(() => this.tick(), o.heartbeatMs);
    this.heartbeat.unref();
  }

  async init(): Promise<void> {
    // Everything stamped before now is in the change log, where new connections catch up from.
    const { rows } = await this.o.db.query<{ last_seq: number }>('SELECT last_seq FROM relay_state WHERE id = 1').catch(() => ({ rows: [] }));
    if (rows[0] && this.lastSeq === undefined) this.lastSeq = rows[0].last_seq;
  }

  /** Registers a connection (buffering live events at once), then catches it up from the cursor. */
  attach(sink: Sink, filter: EventFilter, cursor: string): Conn {
    const c = new Conn(sink, filter);
    this.index(c);
    const life = this.o.rotateMs * (1 + ((Math.random() * 2 - 1) * this.o.rotateJitterPct) / 100);
    c.rotateTimer = setTimeout(() => this.rotate(c, 'wall_clock'), life);
    c.rotateTimer.unref();
    void this.catchUp(c, cursor);
    return c;
  }

  detach(c: Conn): void {
    if (c.closed) return;
    c.closed = true;
    clearTimeout(c.rotateTimer);
    if (c.filter.states?.length) for (const s of c.filter.states) this.byState.get(s)?.delete(c);
    else this.all.delete(c);
    this.conns.delete(c);
    this.count--;
  }

  /** Sends a final rotate carrying the connection's cursor, so the client resumes without loss. */
  rotate(c: Conn, reason: RotateData['reason']): void {
    if (c.closed) return;
    const cursor = c.lastSent;
    this.detach(c);
    c.sink.rotate({ reason, cursor });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe();
    clearInterval(this.heartbeat);
    for (const c of [...this.conns]) this.rotate(c, 'server_shutdown');
  }

  private index(c: Conn) {
    this.count++;
    this.conns.add(c);
    if (!c.filter.states?.length) {
      this.all.add(c);
      return;
    }
    for (const s of c.filter.states) {
      let set = this.byState.get(s);
      if (!set) this.byState.set(s, (set = new Set()));
      set.add(c);
    }
  }

  private async catchUp(c: Conn, cursor: string): Promise<void> {
    let failing = false;
    while (!c.closed) {
      try {
        if (!c.lastSent) c.lastSent = await canonicalCursor(this.o.dbRead, cursor);
        for (;;) {
          const rows = await eventsAfter(this.o.dbRead, c.lastSent, c.filter, PAGE);
          if (c.closed) return;
          for (const e of rows) this.send(c, new Frames(e));
          if (rows.length < PAGE) break;
        }
        if (c.overflow) {
          // Too many live events arrived during catch-up: they are in the change log, read them there.
          c.overflow = false;
          c.pending = [];
          continue;
        }
        // Same tick as the last query's result: nothing can slip between the flush and going live.
        const pending = c.pending;
        c.pending = [];
        c.live = true;
        for (const e of pending) this.send(c, new Frames(e));
        return;
      } catch (err) {
        if (c.closed) return;
        if (!failing) this.o.log.warn({ err }, 'stream catch-up failed; retrying');
        failing = true;
        c.sink.error({ reason: 'database_unavailable', cursor: c.lastSent || cursor, retry_ms: DB_RETRY_MS });
        await new Promise((r) => setTimeout(r, DB_RETRY_MS));
      }
    }
  }

  private send(c: Conn, f: Frames): void {
    if (c.closed || f.event.changed_at <= c.lastSent) return;
    c.sink.event(f);
    c.lastSent = f.event.changed_at;
    if (c.sink.buffered() > this.o.bufferBytes) this.rotate(c, 'slow_consumer');
  }

  private onBus(e: ChangeEvent): void {
    if (this.closing) return;
    this.queue.push(e);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.closing) {
        const e = this.queue[0];
        if (this.lastSeq !== undefined && e.seq <= this.lastSeq) {
          this.queue.shift();
          continue;
        }
        if (this.lastSeq !== undefined && e.seq > this.lastSeq + 1) {
          await this.fill(e.seq - 1);
          continue;
        }
        this.queue.shift();
        this.deliver(e);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Reads the missing range (lastSeq, upto] from the change log, retrying while the database is away. */
  private async fill(upto: number): Promise<void> {
    while (!this.closing && this.lastSeq !== undefined && this.lastSeq < upto) {
      try {
        const rows = await eventsBySeq(this.o.db, this.lastSeq, PAGE, upto);
        if (rows.length === 0) return;
        for (const e of rows) this.deliver(e);
      } catch (err) {
        this.o.log.warn({ err }, 'stream gap fill failed; retrying');
        await new Promise((r) => setTimeout(r, DB_RETRY_MS));
      }
    }
  }

  private deliver(e: ChangeEvent): void {
    this.lastSeq = e.seq;
    const f = new Frames(e);
    const set = this.byState.get(e.state);
    if (set) for (const c of set) this.offer(c, f);
    for (const c of this.all) this.offer(c, f);
  }

  private offer(c: Conn, f: Frames): void {
    if (c.filter.reasonId !== undefined && c.filter.reasonId !== f.event.reason_id) return;
    if (c.live) return this.send(c, f);
    if (c.pending.length >= PENDING_MAX) c.overflow = true;
    else c.pending.push(f.event);
  }

  private tick(): void {
    const ts = new Date().toISOString();
    for (const c of this.conns) c.sink.ping(ts);
    // Safety net for a silent bus: pick up anything stamped that never arrived.
    if (this.lastSeq !== undefined && !this.draining && this.count > 0) {
      this.o.db.query<{ last_seq: number }>('SELECT last_seq FROM relay_state WHERE id = 1').then(({ rows }) => {
        if (rows[0].last_seq > (this.lastSeq ?? Infinity) && !this.draining) {
          this.draining = true;
          this.fill(rows[0].last_seq).finally(() => {
            this.draining = false;
            if (this.queue.length) void this.drain();
          });
        }
      }, () => undefined);
    }
  }
}
