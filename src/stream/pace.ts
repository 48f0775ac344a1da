// Pacing of replays, per key. Turns (turns.ts) bound how many of a key's streams replay at once, but
// a replay still goes as fast as its client reads: in bench/abuse two turns of one key sent 68,000
// events a second (375 MB in 20 s) and that writing took the event loop from every other tenant.
// So a key also gets a budget of replayed events per second in this process
// (STREAM_REPLAY_EVENTS_PER_SEC), shared by all its streams: a stream over budget waits, and its
// replay resumes where it stopped, so every event still arrives, in order. Live delivery is not
// paced (a stream that is live gets each event once, as it happens).
//
// The budget is a GCRA (the generic cell rate algorithm): the key's `tat` is the time at which its
// budget would be spent if every reservation so far were sent at exactly the rate; a reservation
// moves it on by n / rate and waits until it lies within the burst of now. Reservations are served
// in the order they were made, and a stream takes small pieces of budget (PIECE_MS worth), so many
// streams of one key share it evenly, and returns what it did not use.
//
// The burst is what a key may write in one turn of the event loop, so it is sized in the event
// loop's time, not the rate's: a burst of one second (1,000 events at the default rate) written at
// once was the longest stretch the loop was held when a key's 500 streams opened together (38 ms,
// profiled; every other tenant waited behind it). With a tenth of a second here and in
// open-pace.ts, the longest stretches are the arriving requests themselves; in bench/abuse the
// quiet tenant's p99 beside the noisy one was a median 5.4x its p99 alone over 10 runs, against
// 11.2x over 6 of the build before, the change winning 4 of 6 pairs taking turns (the spread
// between runs, 3.4-19x, is as large as the change). It costs a lone catch-up at most 0.9 s of a
// replay that is paced anyway.

/** Budget one reservation takes at most, in milliseconds of the rate. */
const PIECE_MS = 50;
/** Budget a key may spend at once after being idle, in milliseconds of the rate (one piece at least). */
const BURST_MS = 100;
/** Idle keys are forgotten once this many are kept. */
const PRUNE_AT = 1000;

export class ReplayPace {
  private readonly tat = new Map<string, number>();
  /** milliseconds per event */
  private readonly interval: number;
  /** events per reservation */
  readonly piece: number;
  /** milliseconds of the rate a key may spend at once */
  private readonly burst: number;

  /** perSecond: events per second per key; 0 = no pacing */
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.interval = perSecond > 0 ? 1000 / perSecond : 0;
    this.piece = perSecond > 0 ? Math.max(1, Math.floor((perSecond * PIECE_MS) / 1000)) : Infinity;
    this.burst = Math.max(BURST_MS, this.piece * this.interval);
  }

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  /**
   * Reserves a piece of the key's budget and waits until it may be sent; resolves to the number of
   * events granted (Infinity without pacing or without a key).
   */
  async take(key: string | undefined): Promise<number> {
    if (key === undefined || !this.enabled) return Infinity;
    const now = this.now();
    const tat = Math.max(this.tat.get(key) ?? now, now) + this.piece * this.interval;
    if (this.tat.size >= PRUNE_AT && !this.tat.has(key)) this.prune(now);
    this.tat.set(key, tat);
    const wait = tat - now - this.burst;
    if (wait > 0) await new Promise((r) => setTimeout(r, Math.ceil(wait)));
    return this.piece;
  }

  /** Gives back events granted but not sent (the replay ended first), for the key's next reservation. */
  give(key: string | undefined, events: number): void {
    if (key === undefined || !this.enabled || !(events > 0)) return;
    const tat = this.tat.get(key);
    if (tat !== undefined) this.tat.set(key, tat - events * this.interval);
  }

  /** The key's budget spent ahead of now, in events (for tests and metrics). */
  aheadOf(key: string): number {
    const tat = this.tat.get(key);
    return tat === undefined || !this.enabled ? 0 : Math.max(0, (tat - this.now()) / this.interval);
  }

  private prune(now: number): void {
    for (const [k, t] of this.tat) if (t <= now) this.tat.delete(k);
  }
}
