// The recent-events ring of the stream hub. Recent events stay in memory (the last RING_MAX, loaded
// at start): a connection whose cursor falls inside the ring catches up from it without touching the
// database, so a crowd reconnecting after a rotate or a deploy costs no queries.
import type { Pool } from '../db/pool.js';
import type { ChangeEvent } from '../changes/events.js';
import { EVENT_COLUMNS, EVENT_FROM, isoUs } from '../changes/events.js';
import { Frames } from './frames.js';

/** events kept in memory for catch-up without a query */
const RING_MAX = 10_000;
/** how far back the ring is loaded at start (and at least the newest STREAM_REPLAY_MAX_EVENTS + 1) */
const RING_WINDOW = '5 minutes';

export class RecentEvents {
  /** set once the start snapshot has been tried (loaded or not) */
  ready = false;
  /** delivered events, oldest first; holds every event with changed_at > ringStart */
  private ring: Frames[] = [];
  private ringHead = 0;
  private ringStart: string | undefined;

  /** events held now */
  get size(): number {
    return this.ring.length - this.ringHead;
  }

  /** The held events, oldest first, from index start() on. */
  get frames(): readonly Frames[] {
    return this.ring;
  }

  /**
   * Loads one snapshot: the relay's last seq and every event up to it within the window, and
   * returns that seq. Later events arrive on the bus (or are filled by seq), so the ring stays
   * complete from ringStart on. Throws when the database cannot be read.
   */
  async load(db: Pool, newest = 0): Promise<number | undefined> {
    // The window's events, and at least the `newest` ones whatever their age: a stream asking for
    // more than STREAM_REPLAY_MAX_EVENTS is replayed the newest of them (after a reset), and with
    // them in the ring those replays cost no query and no serialization per stream: 500 streams
    // replaying the same 5,000 changes share their frames.
    // one more than asked: the oldest held marks where the ring starts (after it, all are held)
    const keep = Math.min(RING_MAX, newest + 1);
    const { rows } = await db.query<ChangeEvent & { last_seq: number; window_start: string }>(
      `WITH rs AS (SELECT last_seq FROM relay_state WHERE id = 1),
       w AS (SELECT ${isoUs(`clock_timestamp() - interval '${RING_WINDOW}'`)} AS window_start),
       ev AS (SELECT * FROM (SELECT ${EVENT_COLUMNS}, row_number() OVER (ORDER BY c.seq DESC) AS nth,
                c.changed_at > clock_timestamp() - interval '${RING_WINDOW}' AS recent
              FROM ${EVENT_FROM}, rs WHERE c.seq <= rs.last_seq ORDER BY c.seq DESC LIMIT ${RING_MAX}) n
              WHERE n.nth <= ${keep} OR n.recent)
       SELECT rs.last_seq, w.window_start, ev.* FROM rs CROSS JOIN w LEFT JOIN ev ON true ORDER BY ev.seq NULLS FIRST`,
    );
    if (rows.length === 0) return undefined;
    const events = rows.filter((r) => r.seq !== null);
    this.ring = events.map((r) => {
      const { last_seq: _l, window_start: _w, nth: _n, recent: _r, ...e } = r as typeof r & { nth: number; recent: boolean };
      return new Frames(e);
    });
    // Every event after ringStart is in the ring: the oldest one held when the ring is full, else
    // the start of the window, or the oldest held when that is older (the `newest` kept).
    const oldest = events[0]?.changed_at;
    const windowStart = rows[0].window_start;
    this.ringStart = events.length >= RING_MAX ? oldest : oldest !== undefined && oldest < windowStart ? oldest : windowStart;
    return rows[0].last_seq;
  }

  /**
   * Index in frames of the first event after the (canonical) cursor, or -1 when the ring does not
   * cover it: strictly after ringStart, every event after the cursor is then in the ring.
   */
  firstAfter(canonical: string): number {
    if (!this.ready || this.ringStart === undefined || canonical <= this.ringStart) return -1;
    const ring = this.ring;
    // binary search for the first event after the cursor
    let lo = this.ringHead;
    let hi = ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ring[mid].event.changed_at <= canonical) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when every held event lies after the (canonical) cursor: it is at or before ringStart. */
  allAfter(canonical: string): boolean {
    return this.ready && this.ringStart !== undefined && canonical <= this.ringStart;
  }

  /** Keeps a delivered event, dropping the oldest beyond RING_MAX. */
  remember(f: Frames): void {
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
}
