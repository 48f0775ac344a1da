// Waiting on a condition instead of sleeping, the one way every test does it: polls `fn` until it
// gives a truthy value (returned) or, past `timeoutMs`, fails naming `what`. The bound is generous:
// a slow machine only makes the test slower, never red.
export type Truthy<T> = Exclude<Awaited<T>, false | null | undefined | 0 | ''>;

export async function until<T>(fn: () => T | Promise<T>, timeoutMs = 20_000, what = 'condition'): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** until() for a yes/no condition, named first. */
export async function waitFor(what: string, fn: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await until(fn, timeoutMs, what);
}
