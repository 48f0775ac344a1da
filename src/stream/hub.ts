// The stream hub: one bus subscription per process fanned out to every SSE/WebSocket connection.
// Connections are indexed by state (plus one set for "all states"); each event is serialized once
// per format; one shared timer sends heartbeats. A connection first catches up from the change log
// (live events are buffered meanwhile), then switches to live delivery; changed_at is unique and
// strictly increasing, so "skip anything <= last sent" makes the switch gapless and duplicate-free.
// Live events carry the relay's seq: a hole in seq (the bus dropped something while this process
// was disconnected) is filled from the change log before the next event goes out.
// Recent events stay in memory (a ring of the last RING_MAX, loaded at start): a connection whose
// cursor falls inside the ring catches up from it without touching the database, so a crowd
// reconnecting after a rotate or a deploy costs no queries.
import type { Pool } from '../db/pool.js';
import type { Unsubscribe } from '../bus/types.js';
import type { ChangeBus, ChangeEvent } from '../changes/events.js';
import { canonicalCursor, EVENT_COLUMNS, EVENT_FROM, eventsAfter, eventsBySeq, isoUs, type EventFilter } from '../changes/events.js';
import { Frames, Ping, type ErrorData, type RotateData } from './frames.js';
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

export interface HubOptions {
  db: Pool;
  dbRead: Pool;
  bus: ChangeBus;
  log: { warn(obj: object, msg: string): void };
  heartbeatMs: number;
  rotateMs: number;
  rotateJitterPct: number;
  bufferBytes: number;
}

const PAGE = 500;
const PENDING_MAX = 5000;
const DB_RETRY_MS = 1000;
/** events kept in memory for catch-up without a query */
const RING_MAX = 10_000;
/** how far back the ring is loaded at start */
const RING_WINDOW = '5 minutes';

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

export class Hub {
  private readonly byState = new Map<string, Set<Conn>>();
  private readonly all = new Set<Conn>();
  private readonly conns = new Set<Conn>();
  private readonly unsubscribe: Unsubscribe;
  private readonly heartbeat: Heartbeat<Conn>;
  private readonly rotations: DeadlineWheel<Conn>;
  private lastSeq: number | undefined;
  private queue: ChangeEvent[] = [];
  private draining = false;
  private closing = false;
  private ready = false;
  /** delivered events, oldest first; holds every event with changed_at > ringStart */
  private ring: Frames[] = [];
  private ringHead = 0;
  private ringStart: string | undefined;
  count = 0;

  constructor(private readonly o: HubOptions) {
    this.unsubscribe = o.bus.subscribe((e) => this.onBus(e));
    this.heartbeat = new Heartbeat(o.heartbeatMs, (conns, first) => this.tick(conns, first));
    this.rotations = new DeadlineWheel(o.rotateMs, (c) => this.rotate(c, 'wall_clock'));
  }

  /** open connections (SSE and WebSocket), for the metrics gauge */
  get size(): number {
    return this.conns.size;
  }

  async init(): Promise<void> {
    // One snapshot: the relay's last seq and every event up to it within the window. Later events
    // arrive on the bus (or are filled by seq), so the ring stays complete from ringStart on.
    try {
      const { rows } = await this.o.db.query<ChangeEvent & { last_seq: number; window_start: string }>(
        `WITH rs AS (SELECT last_seq FROM relay_state WHERE id = 1),
         w AS (SELECT ${isoUs(`clock_timestamp() - interval '${RING_WINDOW}'`)} AS window_start),
         ev AS (SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}, rs
                WHERE c.seq <= rs.last_seq AND c.changed_at > clock_timestamp() - interval '${RING_WINDOW}'
                ORDER BY c.seq DESC LIMIT ${RING_MAX})
         SELECT rs.last_seq, w.window_start, ev.* FROM rs CROSS JOIN w LEFT JOIN ev ON true ORDER BY ev.seq NULLS FIRST`,
      );
      if (rows.length > 0) {
        this.lastSeq = rows[0].last_seq;
        const events = rows.filter((r) => r.seq !== null);
        this.ring = events.map((r) => {
          const { last_seq: _l, window_start: _w, ...e } = r;
          return new Frames(e);
        });
        this.ringStart = events.length >= RING_MAX ? events[0].changed_at : rows[0].window_start;
      }
    } catch (err) {
      // Without the snapshot every connection catches up from the change log.
      this.o.log.warn({ err }, 'stream hub could not load recent events');
    }
    this.ready = true;
    if (this.queue.length) void this.drain();
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
  async close(graceMs = 1000): Promise<void> {
    this.closing = true;
    this.unsubscribe();
    this.heartbeat.stop();
    this.rotations.stop();
    const sinks = [...this.conns].map((c) => c.sink);
    for (const c of [...this.conns]) this.rotate(c, 'server_shutdown');
    const end = Date.now() + graceMs;
    while (sinks.some((s) => !s.gone()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    for (const s of sinks) if (!s.gone()) s.kill();
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
    // strictly after ringStart: every event after the cursor is then in the ring
    if (!this.ready || canonical === undefined || this.ringStart === undefined || canonical <= this.ringStart) return false;
    c.lastSent = canonical;
    const ring = this.ring;
    // binary search for the first event after the cursor
    let lo = this.ringHead;
    let hi = ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ring[mid].event.changed_at <= canonical) lo = mid + 1;
      else hi = mid;
    }
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

  private onBus(e: ChangeEvent): void {
    if (this.closing) return;
    // The usual case, the next seq with nothing queued, is delivered at once: no queue, no promise.
    if (this.ready && !this.draining && this.queue.length === 0 && this.lastSeq !== undefined && e.seq === this.lastSeq + 1) {
      this.deliver(e);
      return;
    }
    this.queue.push(e);
    if (!this.draining && this.ready) void this.drain();
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
    this.remember(f);
    const set = this.byState.get(e.state);
    if (set) for (const c of set) this.offer(c, f);
    for (const c of this.all) this.offer(c, f);
  }

  private remember(f: Frames): void {
    if (this.ringStart === undefined) {
      // no snapshot at start: the ring covers what comes after the first event seen
      if (!this.ready) return;
      this.ringStart = f.event.changed_at;
      return;
    }
    this.ring.push(f);
    if (this.ring.length - this.ringHead > RING_MAX) {
      this.ringStart = this.ring[this.ringHead].event.changed_at;
      this.ringHead++;
      // compact now and then instead of shifting on every event
      if (this.ringHead >= RING_MAX) {
        this.ring = this.ring.slice(this.ringHead);
        this.ringHead = 0;
      }
    }
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
