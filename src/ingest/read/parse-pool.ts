// Source files (LegiScan JSON/XML, YAML documents) read and parsed by worker threads, handed over in file order. Files go out in
// chunks (one message per CHUNK files, not per file) and at most AHEAD chunks per worker are in
// flight, so memory stays bounded whatever the dataset size. Under the TypeScript sources (tests)
// there is no compiled worker: chunks are parsed in-thread, with the same results.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { RecordError } from './record-error.js';
import { parseChunk, type Blob, type ChunkRequest, type ChunkResult, type FileParser } from './parse-chunk.js';

export interface Parsed<T = unknown> {
  file: string;
  data: T | null;
  error?: unknown;
}

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

  private parse<O, T>(
    parser: FileParser<O, T>,
    req: ChunkRequest<O>,
    transfer: ArrayBuffer[] = [],
  ): Promise<ChunkResult<T>> {
    if (!this.workers.length) return Promise.resolve().then(() => parseChunk(req, parser.parse));
    const w = this.workers[this.next++ % this.workers.length]!;
    return new Promise((resolve, reject) => {
      // The reply crosses from the worker untyped; it holds what this parser's `parse` returned there.
      this.waiting.set(req.id, { resolve: (r) => resolve(r as ChunkResult<T>), reject });
      w.postMessage(req, transfer);
    });
  }

  /** The files parsed, in the order given. */
  async *files<O, T>(parser: FileParser<O, T>, files: string[]): AsyncGenerator<Parsed<T>> {
    const pending: Promise<ChunkResult<T>>[] = [];
    let at = 0;
    const fill = () => {
      while (at < files.length && pending.length < AHEAD * Math.max(1, this.workers.length)) {
        pending.push(
          this.parse(parser, {
            id: this.seq++,
            module: parser.module,
            options: parser.options,
            files: files.slice(at, at + CHUNK),
          }),
        );
        at += CHUNK;
      }
    };
    fill();
    while (pending.length) {
      const r = await pending.shift()!;
      fill();
      for (const f of r.files) {
        yield {
          file: f.file,
          data: f.data,
          error: f.error ? new RecordError(f.error.message, f.error.field) : undefined,
        };
      }
    }
  }

  /**
   * Contents that are not files on disk (zip entries, inflated by the workers), parsed in the
   * order given. The source is read a few chunks ahead, so reading it overlaps the parsing and
   * whatever the caller does with the results.
   */
  async *blobs<O, T>(
    parser: FileParser<O, T>,
    source: AsyncIterable<{ file: string; blob: Blob }>,
  ): AsyncGenerator<Parsed<T>> {
    const it = source[Symbol.asyncIterator]();
    const pending: Promise<ChunkResult<T>>[] = [];
    let ended = false;
    // One fill at a time (chained), so chunks are cut from the source in order.
    const fill = async () => {
      while (!ended && pending.length < AHEAD * Math.max(1, this.workers.length)) {
        const files: string[] = [];
        const blobs: Blob[] = [];
        while (files.length < CHUNK) {
          const r = await it.next();
          if (r.done) {
            ended = true;
            break;
          }
          files.push(r.value.file);
          blobs.push(r.value.blob);
        }
        if (!files.length) continue;
        // The chunk's bytes packed into one buffer of its own, handed to the worker without a copy
        // (the blobs may be views into something much larger, such as the whole zip).
        const packed = new Uint8Array(blobs.reduce((n, b) => n + b.bytes.byteLength, 0));
        let at = 0;
        const views = blobs.map((b) => {
          packed.set(b.bytes, at);
          at += b.bytes.byteLength;
          return { ...b, bytes: packed.subarray(at - b.bytes.byteLength, at) };
        });
        pending.push(
          this.parse(parser, { id: this.seq++, module: parser.module, options: parser.options, files, blobs: views }, [
            packed.buffer,
          ]),
        );
      }
    };
    let filling = fill();
    filling.catch(() => undefined); // surfaced below, when the results run out
    for (;;) {
      if (!pending.length) {
        await filling;
        if (!pending.length) return;
      }
      const r = await pending.shift()!;
      filling = filling.then(fill);
      filling.catch(() => undefined);
      for (const f of r.files) {
        yield {
          file: f.file,
          data: f.data,
          error: f.error ? new RecordError(f.error.message, f.error.field) : undefined,
        };
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}
