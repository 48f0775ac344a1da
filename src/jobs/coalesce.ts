// Coalescing wake-ups: a job woken by many signals (NOTIFY, bus events, polls) runs one pass at a
// time, and a wake-up that arrives during a pass buys exactly one more pass after it (whatever it
// announced may postdate the running pass's snapshot). Any number of wake-ups during a pass cost
// one extra pass, never a queue of them.

export class Coalescer {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  /**
   * `pass` does the work; `onError` hears a pass that threw (the next wake-up runs again).
   * `more()` is asked after each pass: false ends the round even if woken meanwhile (a relay
   * that lost its lock).
   */
  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
    private readonly more: () => boolean = () => true,
  ) {}

  /** Asks for a pass now; resolves when the round that covers this wake-up has ended. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          try {
            await this.pass();
          } catch (err) {
            if (!this.stopped) this.onError(err);
          }
        } while (this.again && !this.stopped && this.more());
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Whether a pass is running now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** No pass starts after this; resolves when the running one has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
