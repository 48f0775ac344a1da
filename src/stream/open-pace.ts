// Pacing of new streams, per key. Opening a stream costs this process about half a millisecond of
// CPU (the response's headers and opening lines are a socket write each, which on loopback does
// the receiver's TCP work inside the call, plus the hooks, the lease and the catch-up's start). A
// key that opens its whole cap at once (500 streams for enterprise) made every other tenant's
// request wait behind that quarter of a second (bench/abuse: the quiet tenant's slowest read in
// that second 246 ms, against at most 25 ms in any later one). So a key's streams open at most
// STREAM_OPENS_PER_SEC a second in this process, after a burst of a tenth of a second's worth (10
// at the default 100; one stream at least): a stream beyond it is admitted (it holds its slot, so
// the cap still answers 429 at once) and its response waits for its moment, first come first
// served. The wait is bounded by cap / rate (5 s for 500 at the default 100); a client that leaves
// while it waits gives its moment back. The burst is work done in one turn of the event loop, so it
// is kept small: a second's worth (100 openings at once) held the loop from other tenants for
// tens of milliseconds (see pace.ts for what the two smaller bursts measured together).
//
// A GCRA, as pace.ts: `tat` is the moment at which the key's budget would be spent if every stream
// opened so far had opened at exactly the rate.

/** Milliseconds of the rate a key may open at once after being idle (one opening at least). */
const BURST_MS = 100;
/** Idle keys are forgotten once this many are kept. */
const PRUNE_AT = 1000;

export class OpenPace {
  private readonly tat = new Map<string, number>();
  private readonly interval: number;
  private readonly burst: number;

  /** perSecond: stream openings a second per key; 0 = no pacing */
  constructor(
    perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.interval = perSecond > 0 ? 1000 / perSecond : 0;
    this.burst = Math.max(BURST_MS, this.interval);
  }

  /**
   * Reserves the key's next opening; resolves to the milliseconds it must wait (0: at once).
   * `release` gives the moment back (the client left before it came).
   */
  reserve(key: string): { wait: number; release: () => void } {
    if (this.interval === 0) return { wait: 0, release: () => undefined };
    const now = this.now();
    const tat = Math.max(this.tat.get(key) ?? now, now) + this.interval;
    if (this.tat.size >= PRUNE_AT && !this.tat.has(key)) this.prune(now);
    this.tat.set(key, tat);
    const wait = Math.max(0, Math.ceil(tat - now - this.burst));
    return {
      wait,
      release: () => {
        const t = this.tat.get(key);
        if (t !== undefined) this.tat.set(key, t - this.interval);
      },
    };
  }

  private prune(now: number): void {
    for (const [k, t] of this.tat) if (t <= now) this.tat.delete(k);
  }
}
