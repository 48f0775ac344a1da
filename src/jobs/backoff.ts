// A retry timer with a growing pause: after a failure the next try waits min, then twice as long
// each time up to max; a success resets it. During an outage an immediate retry fails in a
// millisecond, so retrying at once turns into a loop of log lines; a pause that grows keeps the
// retries rare while the outage lasts and the recovery quick after it.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
/** The real timers; tests pass their own. */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export class Backoff {
  private delay = 0;
  private handle: unknown;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Runs `fn` after the next pause (min, doubling to max); a retry already scheduled is replaced. */
  retry(fn: () => void): number {
    this.cancel();
    this.delay = Math.min(Math.max(this.delay * 2, this.minMs), this.maxMs);
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      fn();
    }, this.delay);
    return this.delay;
  }

  /** A success: the next failure waits min again. */
  reset(): void {
    this.delay = 0;
  }

  /** Whether a retry is waiting. */
  get pending(): boolean {
    return this.handle !== undefined;
  }

  cancel(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }
}
