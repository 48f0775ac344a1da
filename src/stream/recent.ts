// The recent-events ring of the stream hub. Recent events stay in memory (the last RING_MAX, loaded
// at start): a connection whose cursor falls inside the ring catches up from it without touching the
// database, so a crowd reconnecting after a rotate or a deploy costs no queries.
import type { Pool } from '../db/pool.js';
import type { ChangeEvent } from '../changes/events.js';
import { EVENT_COLUMNS, EVENT_FROM, isoUs } from '../changes/events.js';
import { Frames } from './frames.js';

/** events kept in memory for catch-up without a query */
const RING_MAX = 10_000;
/** how far back the ring is loaded at start */
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
  async load(db: Pool): Promise<number | undefined> {
    const { rows } = await db.query<ChangeEvent & { last_seq: number; window_start: string }>(
      `WITH rs AS (SELECT last_seq FROM relay_state WHERE id = 1),
       w AS (SELECT ${isoUs(`clock_timestamp() - interval '${RING_WINDOW}'`)} AS window_start),
       ev AS (SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}, rs
              WHERE c.seq <= rs.last_seq AND c.changed_at > clock_timestamp() - interval '${RING_WINDOW}'
              ORDER BY c.seq DESC LIMIT ${RING_MAX})
       SELECT rs.last_seq, w.window_start, ev.* FROM rs CROSS JOIN w LEFT JOIN ev ON true ORDER BY ev.seq NULLS FIRST`,
    );
    if (rows.length === 0) return undefined;
    const events = rows.filter((r) => r.seq !== null);
    this.ring = events.map((r) => {
      const { last_seq: _l, window_start: _w, ...e } = r;
      return new Frames(e);
    });
    this.ringStart = events.length >= RING_MAX ? events[0].changed_at : rows[0].window_start;
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
