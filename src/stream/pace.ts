// Pacing of replays, per key. Turns (turns.ts) bound how many of a key's streams replay at once, but
// a replay still goes as fast as its client reads: in bench/abuse two turns of one key sent 68,000
// events a second (375 MB in 20 s) and that writing took the event loop from every other tenant.
// So a key also gets a budget of replayed events per second in this process
// (STREAM_REPLAY_EVENTS_PER_SEC), shared by all its streams: a stream over budget waits, and its
// replay resumes where it stopped, so every event still arrives, in order. Live delivery is not
// paced (a stream that is live gets each event once, as it happens).
//
// The budget is a GCRA (gcra.ts), one unit an event. A stream takes small pieces of budget (PIECE_MS
// worth), so many streams of one key share it evenly, and returns what it did not use.

import { Gcra } from './gcra.js';

/** Budget one reservation takes at most, in milliseconds of the rate. */
const PIECE_MS = 50;

export class ReplayPace {
  private readonly budget: Gcra | undefined;
  /** events per reservation */
  readonly piece: number;

  /** perSecond: events per second per key; 0 = no pacing */
  constructor(perSecond: number, now: () => number = Date.now) {
    this.piece = perSecond > 0 ? Math.max(1, Math.floor((perSecond * PIECE_MS) / 1000)) : Infinity;
    this.budget = perSecond > 0 ? new Gcra(1000 / perSecond, this.piece, now) : undefined;
  }

  get enabled(): boolean {
    return this.budget !== undefined;
  }

  /**
   * Reserves a piece of the key's budget and waits until it may be sent; resolves to the number of
   * events granted (Infinity without pacing or without a key).
   */
  async take(key: string | undefined): Promise<number> {
    if (key === undefined || !this.budget) return Infinity;
    const wait = this.budget.reserve(key, this.piece);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return this.piece;
  }

  /** Gives back events granted but not sent (the replay ended first), for the key's next reservation. */
  give(key: string | undefined, events: number): void {
    if (key === undefined || !this.budget || !(events > 0)) return;
    this.budget.giveBack(key, events);
  }
}
