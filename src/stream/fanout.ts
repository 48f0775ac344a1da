// The connection fan-out of the stream hub. Connections are indexed by state (plus one set for
// "all states"); each event is serialized once per format; one shared timer sends heartbeats. A
// connection first catches up (from the recent-events ring, else from the change log; live events
// are buffered meanwhile), then switches to live delivery; changed_at is unique and strictly
// increasing, so "skip anything <= last sent" makes the switch gapless and duplicate-free.
import type { Pool } from '../db/pool.js';
import type { ChangeEvent } from '../changes/events.js';
import { canonicalCursor, eventsAfter, isoUs, type EventFilter } from '../changes/events.js';
import { Frames, Ping, type ErrorData, type ResetData, type RevokedData, type RotateData } from './frames.js';
import type { RecentEvents } from './recent.js';
import { DeadlineWheel, Heartbeat } from './schedule.js';
import { ReplayPace } from './pace.js';
import { ReplayTurns } from './turns.js';

/** A transport (SSE or WebSocket) as the hub sees it. */
export interface Sink {
  event(f: Frames): void;
  ping(p: Ping): void;
  rotate(d: RotateData): void;
  error(d: ErrorData): void;
  /** the replay was cut short (replay_limit): a reset frame, then the stream goes on */
  reset(d: ResetData): void;
  /** a final error frame (the key was revoked), then the transport ends */
  end(d: RevokedData): void;
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
  /** most change-log events a catch-up replays; older ones are announced by a reset */
  replayMaxEvents: number;
  /** catch-ups one key runs at once in this process (0 = no limit); see turns.ts */
  replaysPerKey: number;
  /** events a second one key's catch-ups send together in this process (0 or unset = no limit); see pace.ts */
  replayEventsPerSec?: number;
}

const PAGE = 500;
const PENDING_MAX = 5000;
const DB_RETRY_MS = 1000;
/** A catching-up client that reads nothing for this long is rotated as slow_consumer. */
const STALL_MS = 10_000;
/** How often a paused catch-up looks at the client's buffer. */
const DRAIN_POLL_MS = 5;

/**
 * The changed_at of the (max+1)-th newest stamped change when it lies after the cursor (more than
 * max changes follow the cursor: the replay starts there), else undefined. Walks the unique index
 * on changed_at backwards over max entries.
 */
async function newestBut(db: Pool, cursor: string, max: number): Promise<string | undefined> {
  const { rows } = await db.query<{ t: string }>(
    `SELECT ${isoUs('changed_at')} AS t FROM changes WHERE changed_at > $1::timestamptz ORDER BY changed_at DESC OFFSET $2 LIMIT 1`,
    [cursor, max],
  );
  return rows[0]?.t;
}

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
  /** catch-up events the key's replay budget granted this connection and it has not sent yet */
  allowance = 0;
  constructor(
    readonly sink: Sink,
    readonly filter: EventFilter,
    /** the key (api_key_id) whose turns at catching up this connection takes */
    readonly key?: string,
  ) {}
}

export class Fanout {
  private readonly byState = new Map<string, Set<Conn>>();
  private readonly all = new Set<Conn>();
  private readonly conns = new Set<Conn>();
  private readonly heartbeat: Heartbeat<Conn>;
  private readonly rotations: DeadlineWheel<Conn>;
  /** connections whose life ended while rotations were held (a database outage) */
  private readonly deferred = new Set<Conn>();
  private holding = false;
  private readonly turns: ReplayTurns;
  private readonly pace: ReplayPace;
  /** canonical forms being read, by the cursor as the client gave it */
  private readonly canonicalizing = new Map<string, Promise<string>>();
  count = 0;

  /** sweep: called on the first heartbeat slice of each round while connections are open */
  constructor(
    private readonly o: FanoutOptions,
    private readonly recent: RecentEvents,
    private readonly sweep: () => void,
  ) {
    this.turns = new ReplayTurns(o.replaysPerKey);
    this.pace = new ReplayPace(o.replayEventsPerSec ?? 0);
    this.heartbeat = new Heartbeat(o.heartbeatMs, (conns, first) => this.tick(conns, first));
    this.rotations = new DeadlineWheel(o.rotateMs, (c) => {
      if (this.holding) this.deferred.add(c);
      else this.rotate(c, 'wall_clock');
    });
  }

  /**
   * Holds wall-clock rotations (the database is down): a rotated client would reconnect into a
   * key check and a catch-up that both need the database, while the open connection loses nothing.
   */
  holdRotations(): void {
    this.holding = true;
  }

  /**
   * Ends the hold: the connections whose life ended meanwhile get new deadlines spread evenly over
   * one life, so they do not all reconnect at once when the database returns.
   */
  releaseRotations(): void {
    if (!this.holding) return;
    this.holding = false;
    const now = Date.now();
    for (const c of this.deferred) if (!c.closed) this.rotations.add(c, now + Math.random() * this.o.rotateMs);
    this.deferred.clear();
  }

  /** streams of the key waiting for their turn to catch up */
  waitingTurns(key: string): number {
    return this.turns.waitingOf(key);
  }

  /** open connections */
  get size(): number {
    return this.conns.size;
  }

  /** Registers a connection (buffering live events at once), then catches it up from the cursor. */
  attach(sink: Sink, filter: EventFilter, cursor: string, key?: string): Conn {
    const c = new Conn(sink, filter, key);
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
    this.deferred.delete(c);
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

  /**
   * Catches a connection up from its cursor, then switches it to live delivery. The replay is
   * first bounded (see bound), then read from the ring while it covers the cursor, else from the
   * change log page by page, then from the live events buffered meanwhile. Frames go out in pieces:
   * when the client's buffer passes half of STREAM_BUFFER_BYTES the catch-up waits for it to read
   * (drain), so a fast reader far behind resumes in one connection, and only a client that stops
   * reading is rotated as slow_consumer. Every frame of a catch-up is also paid for from the key's
   * replay budget (pace.ts): over budget, the catch-up waits and resumes where it stopped.
   */
  private async catchUp(c: Conn, cursor: string): Promise<void> {
    let release: (() => void) | undefined;
    try {
      await this.catchUpInTurn(c, cursor, async () => {
        release ??= await this.turns.take(c.key);
      });
    } finally {
      this.giveBack(c);
      release?.();
    }
  }

  /** The catch-up itself; `turn` waits for the key's turn (once the cursor is known, so a rotation meanwhile carries it). */
  private async catchUpInTurn(c: Conn, cursor: string, turn: () => Promise<void>): Promise<void> {
    let failing = false;
    let bounded = false;
    while (!c.closed) {
      try {
        if (!c.lastSent) c.lastSent = canonicalUtc(cursor) ?? (await this.canonical(cursor));
        await turn();
        if (c.closed) return;
        if (!bounded) {
          await this.bound(c);
          bounded = true;
        }
        if (this.recent.firstAfter(c.lastSent) >= 0) {
          if (await this.fromRing(c)) return;
          continue; // the ring moved past the cursor while the client read: the change log has it
        }
        const rows = await eventsAfter(this.o.dbRead, c.lastSent, c.filter, PAGE);
        if (c.closed) return;
        for (const e of rows) if (!(await this.put(c, new Frames(e)))) return;
        if (rows.length === PAGE) continue;
        if (await this.fromPending(c)) return;
      } catch (err) {
        if (c.closed) return;
        if (!failing) this.o.log.warn({ err }, 'stream catch-up failed; retrying');
        failing = true;
        c.sink.error({ reason: 'database_unavailable', cursor: c.lastSent || cursor, retry_ms: DB_RETRY_MS });
        await new Promise((r) => setTimeout(r, DB_RETRY_MS));
      }
    }
  }

  /**
   * The canonical form of a cursor PostgreSQL has to read (a timestamp with a UTC offset): one query
   * for all the connections that ask for the same one meanwhile. A crowd opening with the same
   * `since` (one key's 500 streams at once) otherwise queued 500 identical queries on the replay pool.
   */
  private canonical(cursor: string): Promise<string> {
    let read = this.canonicalizing.get(cursor);
    if (!read) {
      read = canonicalCursor(this.o.dbRead, cursor).finally(() => this.canonicalizing.delete(cursor));
      this.canonicalizing.set(cursor, read);
    }
    return read;
  }

  /**
   * Bounds the replay to the newest replayMaxEvents changes of the change log (all states, so the
   * bound also caps what a filtered replay scans): when more follow the cursor, the client gets one
   * `reset` naming the skipped range and the replay starts after it.
   */
  private async bound(c: Conn): Promise<void> {
    const max = this.o.replayMaxEvents;
    let skipTo: string | undefined;
    const lo = this.recent.firstAfter(c.lastSent);
    if (lo >= 0) {
      const ring = this.recent.frames;
      if (ring.length - lo > max) skipTo = ring[ring.length - max - 1].event.changed_at;
    } else {
      skipTo = await newestBut(this.o.dbRead, c.lastSent, max);
    }
    if (skipTo === undefined || c.closed) return;
    c.sink.reset({ reason: 'replay_limit', since: c.lastSent, cursor: skipTo, max_events: max });
    c.lastSent = skipTo;
  }

  /** Replays from the ring; true when the connection went live (or ended), false when the ring no longer covers it. */
  private async fromRing(c: Conn): Promise<boolean> {
    for (;;) {
      // Looked up again after every wait: the ring grows and is compacted meanwhile.
      const lo = this.recent.firstAfter(c.lastSent);
      if (lo < 0) return false;
      const ring = this.recent.frames;
      let i = lo;
      for (; i < ring.length && !c.closed && !this.full(c); i++) {
        const f = ring[i];
        if (!this.matches(c, f.event)) continue;
        if (c.allowance <= 0) break;
        this.write(c, f);
        c.allowance--;
      }
      if (c.closed) return true;
      if (i >= ring.length) {
        // Synchronous since the last event: everything delivered so far is in the ring and was sent.
        this.goLive(c);
        return true;
      }
      if (c.allowance <= 0 ? !(await this.budget(c)) : !(await this.drain(c))) return true;
    }
  }

  /**
   * Sends the live events buffered during a catch-up from the change log, then goes live; true when
   * done, false when too many arrived meanwhile (they are in the change log: read them there).
   */
  private async fromPending(c: Conn): Promise<boolean> {
    while (!c.overflow) {
      const pending = c.pending;
      c.pending = [];
      // Same tick as the last read (or the last wait): nothing can slip between the flush and going live.
      if (pending.length === 0) {
        this.goLive(c);
        return true;
      }
      for (const f of pending) if (!(await this.put(c, f))) return true;
    }
    c.overflow = false;
    c.pending = [];
    return false;
  }

  private goLive(c: Conn): void {
    this.giveBack(c);
    c.pending = [];
    c.overflow = false;
    c.live = true;
  }

  /** A catch-up frame: written, then a wait when the client's buffer is full; false once the connection ended. */
  private async put(c: Conn, f: Frames): Promise<boolean> {
    if (c.closed) return false;
    if (f.event.changed_at <= c.lastSent) return true;
    if (c.allowance <= 0 && !(await this.budget(c))) return false;
    this.write(c, f);
    c.allowance--;
    return !this.full(c) || this.drain(c);
  }

  /** Waits for the next piece of the key's replay budget; false once the connection ended. */
  private async budget(c: Conn): Promise<boolean> {
    c.allowance = await this.pace.take(c.key);
    return !c.closed;
  }

  /** Returns the budget the connection was granted and did not use (its catch-up is over). */
  private giveBack(c: Conn): void {
    this.pace.give(c.key, c.allowance);
    c.allowance = 0;
  }

  private write(c: Conn, f: Frames): void {
    if (f.event.changed_at <= c.lastSent) return;
    c.sink.event(f);
    c.lastSent = f.event.changed_at;
  }

  private full(c: Conn): boolean {
    return c.sink.buffered() > this.o.bufferBytes / 2;
  }

  /**
   * Waits until the client has read its buffer down to a quarter of STREAM_BUFFER_BYTES; a client
   * that does not get there within STALL_MS is rotated as slow_consumer. False once the connection ended.
   */
  private async drain(c: Conn): Promise<boolean> {
    const until = Date.now() + STALL_MS;
    while (!c.closed && c.sink.buffered() > this.o.bufferBytes / 4) {
      if (Date.now() > until || c.sink.gone()) {
        this.rotate(c, 'slow_consumer');
        return false;
      }
      await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
    }
    return !c.closed;
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
