// Turns at catching up, per key. A replay is sent as fast as the client reads it, so a key opening
// 500 streams that each ask for the whole change log would have 500 replays running at once in
// one event loop (and their queries on the database): every other tenant's request waits behind
// them. Each key gets STREAM_REPLAYS_PER_KEY replays at a time in this process; its other streams
// are open (heartbeats flow, live events are kept for them) and wait for their turn, first come
// first served. Other keys never wait for this key's turns.

interface Queue {
  running: number;
  waiting: (() => void)[];
}

export class ReplayTurns {
  private readonly keys = new Map<string, Queue>();

  /** replays at once per key; 0 = no limit */
  constructor(private readonly perKey: number) {}

  /** Waits for a turn of the key (at once for a stream without a key); resolves to its release. */
  async take(key: string | undefined): Promise<() => void> {
    if (key === undefined || this.perKey <= 0) return () => undefined;
    let q = this.keys.get(key);
    if (!q) this.keys.set(key, (q = { running: 0, waiting: [] }));
    if (q.running >= this.perKey) await new Promise<void>((resolve) => q.waiting.push(resolve));
    else q.running++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = q.waiting.shift();
      // the turn passes straight to the next stream of the key (running stays the same)
      if (next) next();
      else if (--q.running === 0) this.keys.delete(key);
    };
  }

  /** streams of the key waiting for a turn (for tests and metrics) */
  waitingOf(key: string): number {
    return this.keys.get(key)?.waiting.length ?? 0;
  }
}
