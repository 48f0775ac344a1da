// The connection fan-out of the stream hub. Connections are indexed by state (plus one set for
// "all states"); each event is serialized once per format; one shared timer sends heartbeats. A
// connection first catches up (from the recent-events ring, else from the change log; live events
// are buffered meanwhile), then switches to live delivery; changed_at is unique and strictly
// increasing, so "skip anything <= last sent" makes the switch gapless and duplicate-free.
import type { Pool } from '../db/pool.js';
import type { ChangeEvent } from '../changes/events.js';
import { canonicalCursor, eventsAfter, type EventFilter } from '../changes/events.js';
import { Frames, Ping, type ErrorData, type RotateData } from './frames.js';
import type { RecentEvents } from './recent.js';
import { DeadlineWheel, Heartbeat } from './schedule.js';

/** A transport (SSE or WebSocket) as the hub sees it. */
export interface Sink {
  event(f: Frames): void;
  ping(p: Ping): void;
  rotate(d: RotateData): void;
  error(d: ErrorData): void;
  /** bytes accepted but not yet flushed to the socket */
  buffered(): number;
  /** true once the transport has finished or been torn down */
  gone(): boolean;
  /** tears the transport down at once */
  kill(): void;
}

export interface FanoutOptions {
  dbRead: Pool;
  log: { warn(obj: object, msg: string): void };
  heartbeatMs: number;
  rotateMs: number;
  rotateJitterPct: number;
  bufferBytes: number;
}

const PAGE = 500;
const PENDING_MAX = 5000;
const DB_RETRY_MS = 1000;

/** A cursor already in the canonical public form (UTC, 6 fractional digits), else undefined. */
const UTC_TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;
export function canonicalUtc(cursor: string): string | undefined {
  const m = UTC_TS.exec(cursor);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(6, '0')}Z` : undefined;
}

export class Conn {
  lastSent = '';
  live = false;
  closed = false;
  pending: Frames[] = [];
  overflow = false;
  constructor(
    readonly sink: Sink,
    readonly filter: EventFilter,
  ) {}
}

export class Fanout {
  private readonly byState = new Map<string, Set<Conn>>();
  private readonly all = new Set<Conn>();
  private readonly conns = new Set<Conn>();
  private readonly heartbeat: Heartbeat<Conn>;
  private readonly rotations: DeadlineWheel<Conn>;
  count = 0;

  /** sweep: called on the first heartbeat slice of each round while connections are open */
  constructor(
    private readonly o: FanoutOptions,
    private readonly recent: RecentEvents,
    private readonly sweep: () => void,
  ) {
    this.heartbeat = new Heartbeat(o.heartbeatMs, (conns, first) => this.tick(conns, first));
    this.rotations = new DeadlineWheel(o.rotateMs, (c) => this.rotate(c, 'wall_clock'));
  }

  /** open connections */
  get size(): number {
    return this.conns.size;
  }

  /** Registers a connection (buffering live events at once), then catches it up from the cursor. */
  attach(sink: Sink, filter: EventFilter, cursor: string): Conn {
    const c = new Conn(sink, filter);
    this.index(c);
    this.heartbeat.add(c);
    const life = this.o.rotateMs * (1 + ((Math.random() * 2 - 1) * this.o.rotateJitterPct) / 100);
    this.rotations.add(c, Date.now() + life);
    void this.catchUp(c, cursor);
    return c;
  }

  detach(c: Conn): void {
    if (c.closed) return;
    c.closed = true;
    this.heartbeat.delete(c);
    this.rotations.delete(c);
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

  /** Ends every connection with a final rotate, waits up to graceMs for them to finish, cuts the rest. */
  async close(graceMs: number): Promise<void> {
    this.heartbeat.stop();
    this.rotations.stop();
    const sinks = [...this.conns].map((c) => c.sink);
    for (const c of [...this.conns]) this.rotate(c, 'server_shutdown');
    const end = Date.now() + graceMs;
    while (sinks.some((s) => !s.gone()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    for (const s of sinks) if (!s.gone()) s.kill();
  }

  /** An event in seq order: kept in the ring, then offered to every matching connection. */
  deliver(e: ChangeEvent): void {
    const f = new Frames(e);
    this.recent.remember(f);
    const set = this.byState.get(e.state);
    if (set) for (const c of set) this.offer(c, f);
    for (const c of this.all) this.offer(c, f);
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

  /** Catch-up from memory when the cursor lies inside the ring; true when done that way. */
  private catchUpFromRing(c: Conn, cursor: string): boolean {
    const canonical = canonicalUtc(cursor);
    if (canonical === undefined) return false;
    const lo = this.recent.firstAfter(canonical);
    if (lo < 0) return false;
    c.lastSent = canonical;
    const ring = this.recent.frames;
    for (let i = lo; i < ring.length && !c.closed; i++) {
      const f = ring[i];
      if (this.matches(c, f.event)) this.send(c, f);
    }
    // Synchronous since attach: no live event can have been delivered in between.
    const pending = c.pending;
    c.pending = [];
    c.live = true;
    for (const f of pending) this.send(c, f);
    return true;
  }

  private async catchUp(c: Conn, cursor: string): Promise<void> {
    if (this.catchUpFromRing(c, cursor)) return;
    let failing = false;
    while (!c.closed) {
      try {
        if (!c.lastSent) c.lastSent = canonicalUtc(cursor) ?? (await canonicalCursor(this.o.dbRead, cursor));
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
        for (const f of pending) this.send(c, f);
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

  private matches(c: Conn, e: ChangeEvent): boolean {
    if (c.filter.reasonId !== undefined && c.filter.reasonId !== e.reason_id) return false;
    return !c.filter.states?.length || c.filter.states.includes(e.state);
  }

  private offer(c: Conn, f: Frames): void {
    if (c.filter.reasonId !== undefined && c.filter.reasonId !== f.event.reason_id) return;
    if (c.live) return this.send(c, f);
    if (c.pending.length >= PENDING_MAX) c.overflow = true;
    else c.pending.push(f);
  }

  private tick(conns: Iterable<Conn>, first: boolean): void {
    const ping = new Ping(new Date().toISOString());
    for (const c of conns) c.sink.ping(ping);
    if (!first) return;
    if (this.count > 0) this.sweep();
  }
}
