// The replay budget's burst (pace.ts, issue 25): what a key's replays may write at once after a
// pause is a tenth of a second of the rate, because it is written in one turn of the event loop (a
// second's worth, 1,000 events at the default rate, held the loop from every other tenant for
// 38 ms when a key's 500 streams opened together); at a low rate a piece still goes at once.
// Fake timers in a file of its own: a running hub's timers would share the fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReplayPace } from '../../src/stream/pace.js';

describe('ReplayPace', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  /** Whether `take` resolves within `ms` of (fake) time. */
  async function grantedWithin(pace: ReplayPace, ms: number): Promise<boolean> {
    let granted = false;
    const taking = pace.take('k').then(() => (granted = true));
    await vi.advanceTimersByTimeAsync(ms);
    const within = granted;
    await vi.runAllTimersAsync();
    await taking;
    return within;
  }

  it('grants a tenth of a second of the budget at once after a pause, then paces by piece', async () => {
    const pace = new ReplayPace(1000, () => Date.now());
    expect(pace.piece).toBe(50);
    // 100 events (two pieces) go at once: what one turn of the event loop writes, not a second's 1,000
    expect(await grantedWithin(pace, 0)).toBe(true);
    expect(await grantedWithin(pace, 0)).toBe(true);
    // the third piece waits for the rate (50 ms of it); the fourth waits as long again
    expect(await grantedWithin(pace, 49)).toBe(false);
    expect(await grantedWithin(pace, 49)).toBe(false);
    // after a pause the burst is back
    await vi.advanceTimersByTimeAsync(1000);
    expect(await grantedWithin(pace, 0)).toBe(true);
    expect(await grantedWithin(pace, 0)).toBe(true);
    expect(await grantedWithin(pace, 0)).toBe(false);
  });

  it('always grants one piece at once, however low the rate', async () => {
    const pace = new ReplayPace(5, () => Date.now());
    expect(pace.piece).toBe(1);
    expect(await grantedWithin(pace, 0)).toBe(true);
    expect(await grantedWithin(pace, 199)).toBe(false);
  });
});
