// Bounded read-ahead: up to `window` items load (read and parse) concurrently while the writer
// waits on the database, and are handed over strictly in input order. Memory stays bounded by
// the window, whatever the size of the input.
export async function* readAhead<I, O>(
  items: Iterable<I>,
  load: (item: I) => Promise<O>,
  window = 16,
): AsyncGenerator<O> {
  const pending: Promise<O>[] = [];
  const it = items[Symbol.iterator]();
  const fill = () => {
    while (pending.length < window) {
      const next = it.next();
      if (next.done) return;
      const p = load(next.value);
      p.catch(() => undefined); // surfaced when its turn comes; never an unhandled rejection meanwhile
      pending.push(p);
    }
  };
  fill();
  while (pending.length) {
    const head = pending.shift()!;
    fill();
    yield await head;
  }
}
