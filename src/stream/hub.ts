// The stream hub: one bus subscription per process fanned out to every SSE/WebSocket connection.
// It composes three parts:
// - sequence.ts (SequenceFiller): puts bus events in seq order, filling holes from the change log;
// - recent.ts (RecentEvents): the ring of recent events, loaded at start, for catch-up without queries;
// - fanout.ts (Fanout): the connections, their catch-up, heartbeats, rotations and live delivery.
// ChangeBus → SequenceFiller → Fanout.deliver (which keeps the event in the ring) → sinks, all synchronous.
import type { Pool } from '../db/pool.js';
import type { Unsubscribe } from '../bus/types.js';
import type { ChangeBus, EventFilter } from '../changes/events.js';
import type { RotateData } from './frames.js';
import { Fanout, type Conn, type Sink } from './fanout.js';
import { RecentEvents } from './recent.js';
import { SequenceFiller } from './sequence.js';

export { canonicalUtc, type Conn, type Sink } from './fanout.js';

export interface HubOptions {
  db: Pool;
  dbRead: Pool;
  bus: ChangeBus;
  log: { warn(obj: object, msg: string): void };
  heartbeatMs: number;
  rotateMs: number;
  rotateJitterPct: number;
  bufferBytes: number;
  replayMaxEvents: number;
  replaysPerKey: number;
  /** STREAM_REPLAY_EVENTS_PER_SEC (unset = no pacing) */
  replayEventsPerSec?: number;
}

export class Hub {
  private readonly recent = new RecentEvents();
  private readonly fanout: Fanout;
  private readonly sequence: SequenceFiller;
  private readonly unsubscribe: Unsubscribe;

  constructor(private readonly o: HubOptions) {
    this.fanout = new Fanout(o, this.recent, () => this.sequence.check());
    this.sequence = new SequenceFiller(o.db, o.log, this.fanout);
    this.unsubscribe = o.bus.subscribe((e) => this.sequence.push(e));
  }

  /** open connections (SSE and WebSocket), for the metrics gauge */
  get size(): number {
    return this.fanout.size;
  }

  /** streams of the key waiting for their turn to catch up (STREAM_REPLAYS_PER_KEY) */
  waitingTurns(key: string): number {
    return this.fanout.waitingTurns(key);
  }

  get count(): number {
    return this.fanout.count;
  }

  async init(): Promise<void> {
    let lastSeq: number | undefined;
    try {
      lastSeq = await this.recent.load(this.o.db);
    } catch (err) {
      // Without the snapshot every connection catches up from the change log.
      this.o.log.warn({ err }, 'stream hub could not load recent events');
    }
    this.recent.ready = true;
    this.sequence.start(lastSeq);
  }

  /** Registers a connection (buffering live events at once), then catches it up from the cursor. */
  attach(sink: Sink, filter: EventFilter, cursor: string, key?: string): Conn {
    return this.fanout.attach(sink, filter, cursor, key);
  }

  detach(c: Conn): void {
    this.fanout.detach(c);
  }

  /** Holds wall-clock rotations while the database is down (see Fanout.holdRotations). */
  holdRotations(): void {
    this.fanout.holdRotations();
  }

  /** Ends the hold, spreading the rotations that came due meanwhile over one connection life. */
  releaseRotations(): void {
    this.fanout.releaseRotations();
  }

  /** Sends a final rotate carrying the connection's cursor, so the client resumes without loss. */
  rotate(c: Conn, reason: RotateData['reason']): void {
    this.fanout.rotate(c, reason);
  }

  /** Ends every connection with a final rotate, waits up to graceMs for them to finish, cuts the rest. */
  async close(graceMs = 1000): Promise<void> {
    this.sequence.stop();
    this.unsubscribe();
    await this.fanout.close(graceMs);
  }
}
