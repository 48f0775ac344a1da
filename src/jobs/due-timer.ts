// One timer for many due times: a job that schedules work for later (a delivery's next retry)
// is woken when the earliest of them is due, then re-armed for the next. Timers may fire a
// millisecond early, so it fires a little after (slackMs). Beyond `max` pending times the rest are
// left to the job's own safety poll, so memory stays bounded whatever the backlog.
import { realTimers, type Timers } from './backoff.js';

export interface DueTimerOptions {
  max: number;
  slackMs: number;
  now?: () => number;
  timers?: Timers;
  /** the timer alone does not keep the process alive */
  unref?: boolean;
}

export class DueTimer {
  private readonly times: number[] = [];
  private handle: unknown;
  private armedFor = Infinity;
  private stopped = false;
  private readonly now: () => number;
  private readonly timers: Timers;

  constructor(
    private readonly onDue: () => void,
    private readonly opts: DueTimerOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? realTimers;
  }

  /** Wakes the job at `at` (ms since the epoch), unless `max` times are pending already. */
  add(at: number): void {
    if (this.stopped || this.times.length >= this.opts.max) return;
    this.times.push(at);
    this.arm();
  }

  /** Pending due times (for tests and metrics). */
  get pending(): number {
    return this.times.length;
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(): void {
    const now = this.now();
    for (let i = this.times.length - 1; i >= 0; i--) if (this.times[i]! <= now) this.times.splice(i, 1);
    const next = this.times.length > 0 ? Math.min(...this.times) : Infinity;
    if (next === this.armedFor || this.stopped) return;
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
    this.armedFor = next;
    if (next === Infinity) return;
    this.handle = this.timers.setTimeout(
      () => {
        this.handle = undefined;
        this.armedFor = Infinity;
        this.arm();
        this.onDue();
      },
      Math.max(0, next - now) + this.opts.slackMs,
    );
    const h = this.handle;
    if (this.opts.unref && typeof h === 'object' && h !== null && 'unref' in h) (h as NodeJS.Timeout).unref();
  }
}
