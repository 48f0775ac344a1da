// One block of a scope's files (its NDJSON gzip member and CSV tables) from one pass over its records.
// Used by the builder's lanes (lanes.ts), on a worker thread or in the calling thread.
import { createGzip } from 'node:zlib';
import type { Pool } from '../db/pool.js';
import { chunkSink, createFile, finishFile, HEAD_BLOCK, openSink, type BlockRange } from './store.js';
import { CsvTablesWriter } from './csv.js';
import { tablesOf } from './tables.js';
import { RECORD_TYPES, type BulkRecord } from './record-types.js';
import { withRendered } from './member-votes.js';

/** Scope of the nationwide records (topics). */
export const GLOBAL_SCOPE = 'global';

/**
 * The records, the next batch read while the consumer writes this one: PostgreSQL's work (the
 * snapshot's queries) and this process's (serialising, compressing) overlap instead of alternating.
 */
async function* oneAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = it.next();
      next.catch(() => undefined); // awaited on the next turn; a consumer that stops early drops it
      yield r.value;
    }
  } finally {
    await next.catch(() => undefined);
    await it.return?.(undefined);
  }
}

/**
 * Writes one block of a scope's files from one pass over its records: the NDJSON (one gzip
 * member) and its CSV tables (the head block every table, a block of bills those it has rows for).
 * Returns their file ids.
 */
export async function writeScope(
  store: Pool,
  scope: string,
  signature: string,
  records: AsyncIterable<BulkRecord[]>,
  signal?: AbortSignal,
  block: BlockRange = HEAD_BLOCK,
): Promise<number[]> {
  const fileId = await createFile(store, scope, signature, 'ndjson', '', block);
  const ndjson = openSink(createGzip(), chunkSink(store, fileId));
  const head = block.from === HEAD_BLOCK.from;
  const csv = await CsvTablesWriter.create(store, scope, signature, tablesOf(scope === GLOBAL_SCOPE), block, head);
  const counts: Record<string, number> = {};
  try {
    for await (const batch of oneAhead(records)) {
      signal?.throwIfAborted();
      if (batch.length === 0) continue;
      let text = '';
      for (const r of batch) {
        const name = RECORD_TYPES[r.type];
        counts[name] = (counts[name] ?? 0) + 1;
        // JSON.stringify({ type, data }) byte for byte (type is a bare word), without a wrapper object per record
        const data = r.rendered ? withRendered(r.data, r.rendered) : JSON.stringify(r.data);
        text += `{"type":"${r.type}","data":${data}}\n`;
      }
      await Promise.all([ndjson.write(text), csv.write(batch)]);
    }
    const [size, csvIds] = await Promise.all([ndjson.end(), csv.finish()]);
    await finishFile(store, fileId, size, counts);
    return [fileId, ...csvIds];
  } catch (err) {
    ndjson.destroy(err as Error);
    csv.destroy(err as Error);
    throw err;
  }
}
