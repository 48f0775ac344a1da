// Source files (LegiScan JSON/XML, Open States YAML) read and parsed by worker threads, handed over in file order. Files go out in
// chunks (one message per CHUNK files, not per file) and at most AHEAD chunks per worker are in
// flight, so memory stays bounded whatever the dataset size. Under the TypeScript sources (tests)
// there is no compiled worker: chunks are parsed in-thread, with the same results.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { RecordError } from './report.js';
import { parseChunk, prepareFor, type ChunkRequest, type ChunkResult, type ParseKind } from './parse-chunk.js';

export interface Parsed { file: string; data: Record<string, unknown> | null; error?: unknown }

const CHUNK = 64;
const AHEAD = 3;

export class ParsePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: ChunkResult) => void; reject: (e: unknown) => void }>();
  private next = 0;
  private seq = 0;

  constructor(size = Math.min(2, os.availableParallelism())) {
    if (import.meta.url.endsWith('.ts')) return;
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('./parse-worker.js', import.meta.url));
      w.on('message', (r: ChunkResult) => {
        const p = this.waiting.get(r.id);
        this.waiting.delete(r.id);
        p?.resolve(r);
      });
      // A worker that dies fails every chunk still waiting (the import then stops with the error).
      w.on('error', (e) => {
        for (const p of this.waiting.values()) p.reject(e);
        this.waiting.clear();
      });
      w.unref();
      this.workers.push(w);
    }
  }

  private parse(req: ChunkRequest): Promise<ChunkResult> {
    if (!this.workers.length) return prepareFor(req).then(() => parseChunk(req));
    const w = this.workers[this.next++ % this.workers.length]!;
    return new Promise((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      w.postMessage(req);
    });
  }

  /** The files parsed, in the order given. */
  async *files(kind: ParseKind, files: string[]): AsyncGenerator<Parsed> {
    const pending: Promise<ChunkResult>[] = [];
    let at = 0;
    const fill = () => {
      while (at < files.length && pending.length < AHEAD * Math.max(1, this.workers.length)) {
        pending.push(this.parse({ ...kind, id: this.seq++, files: files.slice(at, at + CHUNK) }));
        at += CHUNK;
      }
    };
    fill();
    while (pending.length) {
      const r = await pending.shift()!;
      fill();
      for (const f of r.files) {
        yield { file: f.file, data: f.data, error: f.error ? new RecordError(f.error.message, f.error.field) : undefined };
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}
