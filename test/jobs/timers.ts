// Timers a test drives by hand: nothing fires until advance() says the time has come, so the
// units' scheduling is checked exactly, on any machine, with no wait.
import type { Timers } from '../../src/jobs/backoff.js';

export class ManualTimers implements Timers {
  now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  setTimeout = (fn: () => void, ms: number): number => {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.due.delete(handle as number);
  };

  /** Delays of the timers now set, from now. */
  get pending(): number[] {
    return [...this.due.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }

  /** Moves the clock by ms, firing every timer due on the way, in time order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [id, t] = [...this.due].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || t!.at > end) break;
      this.due.delete(id);
      this.now = t!.at;
      t!.fn();
    }
    this.now = end;
  }
}
