// Where text changes are computed. The compiled service runs them on a worker thread: a diff of two
// large unrelated versions takes seconds of CPU (minutes near the edit limit), which on the main
// thread blocked every request and made a shutdown wait for the batch in progress. close()
// terminates the thread, so a stopping worker leaves the pair in progress queued for the next start.
// Under the TypeScript sources (tests) there is no compiled thread file: pairs are computed in-thread,
// with the same results.
import { Worker } from 'node:worker_threads';
import { computeTextChange, type TextChangeStats } from './diff.js';

export interface DiffRequest {
  id: number;
  a: string;
  b: string;
  labels: { from: string; to: string };
}
export type DiffReply =
  { id: number; stats: TextChangeStats; error?: undefined } | { id: number; error: string; stats?: undefined };

export type ComputeChange = (a: string, b: string, labels: { from: string; to: string }) => Promise<TextChangeStats>;

/** The computation was cut by close(): not the pair's fault, so it is not counted as a failed attempt. */
export class DiffStopped extends Error {
  constructor() {
    super('diff computation stopped by shutdown');
  }
}

export const computeInThread: ComputeChange = async (a, b, labels) => computeTextChange(a, b, labels);

export interface DiffComputer {
  compute: ComputeChange;
  /** Ends the thread; a computation in progress rejects with DiffStopped. */
  close(): Promise<void>;
}

export function diffComputer(): DiffComputer {
  if (import.meta.url.endsWith('.ts')) return { compute: computeInThread, close: async () => undefined };
  return new ThreadComputer(new URL('./diff-thread.js', import.meta.url));
}

class ThreadComputer implements DiffComputer {
  private worker?: Worker;
  private pending = new Map<number, { resolve: (s: TextChangeStats) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private closed = false;

  constructor(private readonly url: URL) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.url);
    w.on('message', (r: DiffReply) => {
      const p = this.pending.get(r.id);
      this.pending.delete(r.id);
      if (this.pending.size === 0) w.unref();
      if (r.error !== undefined) p?.reject(new Error(r.error));
      else p?.resolve(r.stats);
    });
    // A thread that dies (out of memory on a huge pair, or terminated by close) fails what it held;
    // the next computation starts a new one.
    const fail = (err: Error) => {
      if (this.worker === w) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(this.closed ? new DiffStopped() : err);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`diff thread exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  compute: ComputeChange = (a, b, labels) => {
    if (this.closed) return Promise.reject(new DiffStopped());
    const w = this.thread();
    const id = this.seq++;
    return new Promise<TextChangeStats>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.ref(); // keeps the process alive while a computation is owed
      w.postMessage({ id, a, b, labels } satisfies DiffRequest);
    });
  };

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    if (w) await w.terminate();
  }
}
