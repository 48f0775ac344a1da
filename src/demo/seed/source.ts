// Where the loader gets its batches from: a worker thread generating ahead of it (the compiled
// service), or the calling thread (when running from TypeScript sources, as the test runner does,
// where no compiled worker file exists). Both run the same generator, so rows are identical.
import { Worker } from 'node:worker_threads';
import type { ChangeInput } from '../../changes/record.js';
import type { SeedContext } from './context.js';
import { corpus, type CorpusStep } from './corpus.js';
import type { WorkerInput, WorkerMessage } from './worker.js';

export type CorpusSource = AsyncGenerator<CorpusStep, ChangeInput[]>;

export function corpusSource(ctx: SeedContext, total: number): CorpusSource {
  const workerUrl = new URL('./worker.js', import.meta.url);
  return import.meta.url.endsWith('.ts') ? inThread(ctx, total) : inWorker(workerUrl, ctx, total);
}

async function* inThread(ctx: SeedContext, total: number): CorpusSource {
  const it = corpus(ctx, total);
  for (;;) {
    // Let the previous batch's COPY stream move before generating the next one.
    await new Promise((r) => setImmediate(r));
    const r = it.next();
    if (r.done) return r.value;
    yield r.value;
  }
}

async function* inWorker(url: URL, ctx: SeedContext, total: number): CorpusSource {
  const consumed = new SharedArrayBuffer(4);
  const counter = new Int32Array(consumed);
  const worker = new Worker(url, { workerData: { ctx, total, consumed } satisfies WorkerInput });
  const queue: WorkerMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (m: WorkerMessage) => {
    queue.push(m);
    wake?.();
  });
  worker.on('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.on('exit', (code) => {
    if (code !== 0 && !failure) failure = new Error(`seed worker exited with code ${code}`);
    wake?.();
  });
  try {
    for (;;) {
      while (!queue.length && !failure) await new Promise<void>((r) => (wake = r));
      const m = queue.shift();
      if (!m) throw failure as Error;
      if (m.type === 'end') return m.changes as ChangeInput[];
      for (const b of m.batches)
        b.chunks = b.chunks.map((c) => (typeof c === 'string' ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
      yield { batches: m.batches, bills: m.bills };
      // The consumer asked for the next batch: the worker may generate one more.
      Atomics.add(counter, 0, 1);
      Atomics.notify(counter, 0);
    }
  } finally {
    await worker.terminate();
  }
}
