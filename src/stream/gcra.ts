// The per-key budget both stream pacers use (pace.ts for replayed events, open-pace.ts for stream
// openings): a GCRA (the generic cell rate algorithm). A key's `tat` is the moment at which its
// budget would be spent if everything reserved so far went at exactly the rate; a reservation moves
// it on by n intervals and waits until it lies within the burst of now. Reservations are served in
// the order they were made; what a reservation did not use can be given back.
//
// The burst is what a key may do in one turn of the event loop, so it is sized in the event loop's
// time, not the rate's: a tenth of a second of the rate, and at least one reservation's worth (so a
// low rate never holds the first one). A burst of one second (1,000 replayed events, or 100
// openings, at the default rates) was the longest stretch the loop was held when a key's 500
// streams opened together (38 ms, profiled; every other tenant waited behind it). With a tenth, the
// longest stretches are the arriving requests themselves; in bench/abuse the quiet tenant's p99
// beside the noisy one was a median 5.4x its p99 alone over 10 runs, against 11.2x over 6 of the
// build before, the change winning 4 of 6 pairs taking turns (the spread between runs, 3.4-19x, is
// as large as the change). It costs a lone catch-up at most 0.9 s of a replay paced anyway.

/** Milliseconds of the rate a key may spend at once after being idle (one reservation at least). */
const BURST_MS = 100;
/** Idle keys are forgotten once this many are kept. */
const PRUNE_AT = 1000;

export class Gcra {
  private readonly tat = new Map<string, number>();
  private readonly burst: number;

  /** interval: milliseconds per unit; largest: the most units one reservation takes */
  constructor(
    private readonly interval: number,
    largest: number,
    private readonly now: () => number,
  ) {
    this.burst = Math.max(BURST_MS, largest * interval);
  }

  /** Reserves n units of the key's budget; the milliseconds to wait before using them (0: at once). */
  reserve(key: string, n: number): number {
    const now = this.now();
    const tat = Math.max(this.tat.get(key) ?? now, now) + n * this.interval;
    if (this.tat.size >= PRUNE_AT && !this.tat.has(key)) this.prune(now);
    this.tat.set(key, tat);
    return Math.max(0, Math.ceil(tat - now - this.burst));
  }

  /** Gives back n units reserved and not used. */
  giveBack(key: string, n: number): void {
    const tat = this.tat.get(key);
    if (tat !== undefined) this.tat.set(key, tat - n * this.interval);
  }

  private prune(now: number): void {
    for (const [k, t] of this.tat) if (t <= now) this.tat.delete(k);
  }
}
