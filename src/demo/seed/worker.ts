// Worker thread that generates the corpus while the main thread streams it into COPY: on two
// cores, generation and PostgreSQL's COPY run side by side. Batches travel as UTF-8 bytes in
// transferred buffers (no copy), and the worker stays at most MAX_AHEAD batches ahead of the
// loader (a shared counter the main thread bumps), so memory stays bounded at any scale.
import { parentPort, workerData } from 'node:worker_threads';
import { corpus } from './corpus.js';
import type { SeedContext } from './context.js';
import type { CopyBatch } from './copy.js';

export const MAX_AHEAD = 2;

export interface WorkerInput {
  ctx: SeedContext;
  total: number;
  /** Int32Array over a SharedArrayBuffer: [batches consumed by the loader] */
  consumed: SharedArrayBuffer;
}

export type WorkerMessage = { type: 'step'; batches: CopyBatch[]; bills: number } | { type: 'end'; changes: unknown[] };

function run(port: NonNullable<typeof parentPort>, input: WorkerInput): void {
  const consumed = new Int32Array(input.consumed);
  const encoder = new TextEncoder();
  const it = corpus(input.ctx, input.total);
  let sent = 0;
  for (;;) {
    for (let seen = Atomics.load(consumed, 0); sent - seen >= MAX_AHEAD; seen = Atomics.load(consumed, 0))
      Atomics.wait(consumed, 0, seen, 1000);
    const r = it.next();
    if (r.done) {
      port.postMessage({ type: 'end', changes: r.value } satisfies WorkerMessage);
      return;
    }
    const transfer: ArrayBuffer[] = [];
    const batches = r.value.batches.map((b) => {
      const chunks = b.chunks.map((c) => {
        const bytes = typeof c === 'string' ? encoder.encode(c) : c;
        transfer.push(bytes.buffer as ArrayBuffer);
        return bytes;
      });
      return { ...b, chunks };
    });
    port.postMessage({ type: 'step', batches, bills: r.value.bills } satisfies WorkerMessage, transfer);
    sent++;
  }
}

if (parentPort) run(parentPort, workerData as WorkerInput);
