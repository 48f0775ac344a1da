// The sequence/gap filler of the stream hub. Live events carry the relay's seq: a hole in seq (the
// bus dropped something while this process was disconnected) is filled from the change log before
// the next event goes out, so events leave in seq order, each once.
import type { Pool } from '../db/pool.js';
import type { ChangeEvent } from '../changes/events.js';
import { eventsBySeq } from '../changes/events.js';

const PAGE = 500;
const DB_RETRY_MS = 1000;

/** Where events go once they are in order (the hub's fan-out). */
export interface OrderedTarget {
  deliver(e: ChangeEvent): void;
}

export class SequenceFiller {
  private lastSeq: number | undefined;
  private queue: ChangeEvent[] = [];
  private draining = false;
  private closing = false;
  private ready = false;

  constructor(
    private readonly db: Pool,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly out: OrderedTarget,
  ) {}

  /** Starts delivery from the relay's last seq at start (undefined: unknown, take the bus as it comes). */
  start(lastSeq: number | undefined): void {
    if (lastSeq !== undefined) this.lastSeq = lastSeq;
    this.ready = true;
    if (this.queue.length) void this.drain();
  }

  /** Stops delivery for good (the hub is closing). */
  stop(): void {
    this.closing = true;
  }

  /** An event from the bus. */
  push(e: ChangeEvent): void {
    if (this.closing) return;
    // The usual case, the next seq with nothing queued, is delivered at once: no queue, no promise.
    if (
      this.ready &&
      !this.draining &&
      this.queue.length === 0 &&
      this.lastSeq !== undefined &&
      e.seq === this.lastSeq + 1
    ) {
      this.deliver(e);
      return;
    }
    this.queue.push(e);
    if (!this.draining && this.ready) void this.drain();
  }

  /** Safety net for a silent bus: picks up anything stamped that never arrived. */
  check(): void {
    if (this.lastSeq !== undefined && !this.draining) {
      this.db.query<{ last_seq: number }>('SELECT last_seq FROM relay_state WHERE id = 1').then(
        ({ rows }) => {
          if (rows[0].last_seq > (this.lastSeq ?? Infinity) && !this.draining) {
            this.draining = true;
            this.fill(rows[0].last_seq).finally(() => {
              this.draining = false;
              if (this.queue.length) void this.drain();
            });
          }
        },
        () => undefined,
      );
    }
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
        const rows = await eventsBySeq(this.db, this.lastSeq, PAGE, upto);
        if (rows.length === 0) return;
        for (const e of rows) this.deliver(e);
      } catch (err) {
        this.log.warn({ err }, 'stream gap fill failed; retrying');
        await new Promise((r) => setTimeout(r, DB_RETRY_MS));
      }
    }
  }

  private deliver(e: ChangeEvent): void {
    this.lastSeq = e.seq;
    this.out.deliver(e);
  }
}
