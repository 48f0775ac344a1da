// Bulk loading through COPY FROM STDIN (text format). Rows are encoded into one string per table
// batch; memory stays bounded by the batch size, not the corpus size.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from '../../db/pool.js';

export type Cell = string | number | boolean | null | undefined | PgArray | object;

/** A value for a text[] column; any other array or object is written as JSON (jsonb columns). */
export class PgArray {
  constructor(readonly items: string[]) {}
}

function escapeText(s: string): string {
  // Only these four characters are special in COPY text format.
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : s;
}

function arrayLiteral(items: string[]): string {
  return '{' + items.map((i) => '"' + i.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"').join(',') + '}';
}

export function encodeCell(v: Cell): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return escapeText(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (v instanceof PgArray) return escapeText(arrayLiteral(v.items));
  return escapeText(JSON.stringify(v));
}

/** Rows for one table, accumulated as COPY text chunks. */
export class CopyBuffer {
  private chunks: string[] = [];
  private lines: string[] = [];
  private size = 0;
  count = 0;

  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {}

  row(values: Cell[]): void {
    let line = encodeCell(values[0]);
    for (let i = 1; i < values.length; i++) line += '\t' + encodeCell(values[i]);
    this.line(line + '\n');
  }

  /** A row already in COPY text form, newline included (hot paths with numeric cells only). */
  line(line: string): void {
    this.lines.push(line);
    this.size += line.length;
    this.count++;
    // Joining lines into flat chunks keeps the garbage collector from chasing long string ropes.
    if (this.size > 1 << 16) this.seal();
  }

  private seal(): void {
    if (this.lines.length) this.chunks.push(this.lines.join(''));
    this.lines = [];
    this.size = 0;
  }

  /** Hands over the buffered rows and empties the buffer, so the next batch can fill it. */
  take(): CopyBatch {
    this.seal();
    const batch = { table: this.table, columns: this.columns, chunks: this.chunks, count: this.count };
    this.chunks = [];
    this.count = 0;
    return batch;
  }

  async flush(client: PoolClient): Promise<number> {
    return writeBatch(client, this.take());
  }
}

export interface CopyBatch {
  table: string;
  columns: readonly string[];
  /** COPY text; UTF-8 bytes when the batch crossed from a worker thread */
  chunks: (string | Uint8Array)[];
  count: number;
}

/** Streams one table's rows through COPY FROM STDIN. */
export async function writeBatch(client: PoolClient, batch: CopyBatch): Promise<number> {
  if (batch.count === 0) return 0;
  const stream = client.query(copyFrom(`COPY ${batch.table} (${batch.columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(batch.chunks), stream);
  return batch.count;
}
