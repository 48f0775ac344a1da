// The growing retry pause and the earliest-due wake-up, on hand-driven timers.
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../src/jobs/backoff.js';
import { DueTimer } from '../../src/jobs/due-timer.js';
import { ManualTimers } from './timers.js';

describe('Backoff', () => {
  it('waits min, then twice as long each failure up to max, and min again after a success', () => {
    const t = new ManualTimers();
    const b = new Backoff(500, 10_000, t);
    const delays = Array.from({ length: 7 }, () => b.retry(() => undefined));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    b.reset();
    expect(b.retry(() => undefined)).toBe(500);
  });

  it('keeps one retry waiting: a new one replaces it, cancel drops it', () => {
    const t = new ManualTimers();
    const b = new Backoff(1000, 1000, t);
    let runs = 0;
    b.retry(() => runs++);
    b.retry(() => runs++);
    expect(t.pending).toEqual([1000]);
    t.advance(1000);
    expect([runs, b.pending]).toEqual([1, false]);
    b.retry(() => runs++);
    b.cancel();
    t.advance(5000);
    expect(runs).toBe(1);
  });
});

describe('DueTimer', () => {
  const make = (max = 100) => {
    const t = new ManualTimers();
    const woken: number[] = [];
    const d = new DueTimer(() => woken.push(t.now), { max, slackMs: 5, now: () => t.now, timers: t });
    return { t, d, woken };
  };

  it('wakes at the earliest due time (plus slack), then re-arms for the next', () => {
    const { t, d, woken } = make();
    d.add(3000);
    d.add(1000);
    d.add(2000);
    expect(t.pending).toEqual([1005]);
    t.advance(10_000);
    expect(woken).toEqual([1005, 2005, 3005]);
    expect(d.pending).toBe(0);
  });

  it('drops times beyond max (the safety poll takes them) and stops cleanly', () => {
    const { t, d, woken } = make(2);
    d.add(1000);
    d.add(2000);
    d.add(500);
    expect(d.pending).toBe(2);
    d.stop();
    t.advance(10_000);
    expect(woken).toEqual([]);
  });
});
