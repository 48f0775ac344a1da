// Waiting on a condition instead of sleeping: polls `fn` until it holds, failing with `what` when
// it has not held within `timeoutMs` (a generous bound: a slow machine only makes the test slower).
export async function waitFor(what: string, fn: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
