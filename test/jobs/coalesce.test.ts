// Coalescing wake-ups: one pass at a time, one more for any number of wake-ups during a pass,
// failures reported and survived, nothing after stop.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/jobs/coalesce.js';

/** A pass that waits until the test lets it finish. */
function gatedPasses() {
  const gates: (() => void)[] = [];
  let passes = 0;
  const pass = () => {
    passes++;
    return new Promise<void>((r) => gates.push(r));
  };
  return { pass, passes: () => passes, release: () => gates.shift()?.() };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('Coalescer', () => {
  it('runs one pass per wake-up when they do not overlap', async () => {
    let n = 0;
    const c = new Coalescer(
      async () => {
        n++;
      },
      () => undefined,
    );
    await c.wake();
    await c.wake();
    expect(n).toBe(2);
  });

  it('folds any number of wake-ups during a pass into exactly one more pass', async () => {
    const g = gatedPasses();
    const c = new Coalescer(g.pass, () => undefined);
    const round = c.wake();
    for (let i = 0; i < 10; i++) void c.wake();
    expect(g.passes()).toBe(1);
    g.release();
    await turn();
    expect(g.passes()).toBe(2);
    g.release();
    await round;
    expect(g.passes()).toBe(2);
    expect(c.busy).toBe(false);
  });

  it('reports a failed pass and runs again on the next wake-up', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let n = 0;
    const c = new Coalescer(
      async () => {
        n++;
        if (fail) throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    await c.wake();
    expect(errors).toHaveLength(1);
    fail = false;
    await c.wake();
    expect([n, errors.length]).toEqual([2, 1]);
  });

  it('ends the round when more() says so, even if woken meanwhile', async () => {
    const g = gatedPasses();
    let more = true;
    const c = new Coalescer(
      g.pass,
      () => undefined,
      () => more,
    );
    const round = c.wake();
    void c.wake();
    more = false;
    g.release();
    await round;
    expect(g.passes()).toBe(1);
  });

  it('starts nothing after stop and waits for the running pass', async () => {
    const g = gatedPasses();
    const c = new Coalescer(g.pass, () => undefined);
    void c.wake();
    void c.wake();
    let stopped = false;
    const stopping = c.stop().then(() => {
      stopped = true;
    });
    await turn();
    expect(stopped).toBe(false);
    g.release();
    await stopping;
    expect(g.passes()).toBe(1);
    await c.wake();
    expect(g.passes()).toBe(1);
  });
});
