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
// while it waits gives its moment back. The budget is a GCRA (gcra.ts, also why its burst is
// small), one unit an opening.

import { Gcra } from './gcra.js';

export class OpenPace {
  private readonly budget: Gcra | undefined;

  /** perSecond: stream openings a second per key; 0 = no pacing */
  constructor(perSecond: number, now: () => number = Date.now) {
    this.budget = perSecond > 0 ? new Gcra(1000 / perSecond, 1, now) : undefined;
  }

  /**
   * Reserves the key's next opening; resolves to the milliseconds it must wait (0: at once).
   * `release` gives the moment back (the client left before it came).
   */
  reserve(key: string): { wait: number; release: () => void } {
    const budget = this.budget;
    if (!budget) return { wait: 0, release: () => undefined };
    return { wait: budget.reserve(key, 1), release: () => budget.giveBack(key, 1) };
  }
}
