// Where bulk files live: PostgreSQL (bulk_files + fixed-size bulk_chunks), so every replica serves
// the same bytes with no shared volume, and the embedded default needs no setup. Writing streams
// chunk by chunk (one chunk in memory); reading a byte range reads only the chunks it covers, a
// few at a time, as raw bytes (COPY binary, copy-binary.ts).
import { once } from 'node:events';
import { Writable, type Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '../db/pool.js';
import { COPY_TRAILER, CopyBinaryValues, copyBinaryHead } from './copy-binary.js';

/** Bytes per stored chunk; every chunk but a file's last is exactly this long (Range arithmetic relies on it). */
export const CHUNK_BYTES = 1 << 20;
/** Chunks read per COPY while streaming a download (4 MiB in memory per download at most). */
const CHUNKS_PER_READ = 4;

export type Format = 'ndjson' | 'csv';

export interface StoredFile {
  file_id: number;
  scope: string;
  format: Format;
  /** the CSV table; '' for NDJSON */
  part: string;
  /** CSV: bytes before compression, and their CRC-32 */
  raw_size: number | null;
  crc32: number | null;
  feed_cursor: string;
  generated_at: string;
  built_at: string;
  signature: string;
  size: number;
  counts: Record<string, number>;
  /** the block's session and its bills there: bill_from < bill_id <= bill_to (null: no upper bound); session 0, bill_from -1: the head block */
  session_id: number;
  bill_from: number;
  bill_to: number | null;
}

/** Where a file sits in its scope: the head block, or a block of a session's bills (blocks.ts). */
export interface BlockRange {
  session: number;
  from: number;
  to: number | null;
}
export const HEAD_BLOCK: BlockRange = { session: 0, from: -1, to: null };

export async function createFile(
  db: Queryable,
  scope: string,
  signature: string,
  format: Format = 'ndjson',
  part = '',
  block: BlockRange = HEAD_BLOCK,
): Promise<number> {
  const { rows } = await db.query<{ file_id: number }>(
    `INSERT INTO bulk_files (scope, signature, format, part, session_id, bill_from, bill_to)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING file_id`,
    [scope, signature, format, part, block.session, block.from, block.to],
  );
  return rows[0].file_id;
}

/**
 * Stores one chunk: a binary COPY of its row whose bytes are `pieces` as they are (slices of the
 * compressor's output). As a parameter of an INSERT the chunk was copied four times (joined into
 * one Buffer, then into pg's parameter and message buffers, each grown to fit), every copy a
 * 1 MiB allocation left to the collector, per chunk and lane.
 */
async function storeChunk(pool: Pool, fileId: number, n: number, pieces: Buffer[], bytes: number): Promise<void> {
  await onClient(pool, async (client) => {
    const copy = client.query(copyFrom('COPY bulk_chunks (file_id, n, data) FROM STDIN (FORMAT binary)'));
    const done = finished(copy);
    copy.write(copyBinaryHead(fileId, n, bytes));
    for (const p of pieces) copy.write(p);
    copy.end(COPY_TRAILER);
    await done;
  });
}

/** Runs `fn` on a client of `pool`; a client whose COPY failed is discarded, not reused (it may have stopped midway). */
async function onClient<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failed = false;
  try {
    return await fn(client);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    client.release(failed);
  }
}

/** A Writable storing what it receives as the file's chunks; `size()` is the byte count written. */
export function chunkSink(pool: Pool, fileId: number): Writable & { size(): number } {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let n = 0;
  let total = 0;
  const drainFull = async () => {
    while (pendingBytes >= CHUNK_BYTES) {
      // the first CHUNK_BYTES of pending, the piece that crosses the boundary split (no copies)
      const chunk: Buffer[] = [];
      let taken = 0;
      while (taken < CHUNK_BYTES) {
        const p = pending.shift()!;
        const want = CHUNK_BYTES - taken;
        if (p.length > want) {
          chunk.push(p.subarray(0, want));
          pending.unshift(p.subarray(want));
          taken += want;
        } else {
          chunk.push(p);
          taken += p.length;
        }
      }
      pendingBytes -= CHUNK_BYTES;
      await storeChunk(pool, fileId, n++, chunk, CHUNK_BYTES);
    }
  };
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _enc, cb) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      total += chunk.length;
      drainFull().then(() => cb(), cb);
    },
    final(cb) {
      (pendingBytes > 0 ? storeChunk(pool, fileId, n++, pending, pendingBytes) : Promise.resolve()).then(
        () => cb(),
        cb,
      );
    },
  });
  return Object.assign(sink, { size: () => total });
}

/** A stream (a compressor) piped into a chunk sink, written with backpressure. */
export interface OpenSink {
  /** resolves when the stream can take more (rejects when the pipeline failed) */
  write(buf: Buffer | string): Promise<void>;
  /** ends the stream; resolves with the bytes stored once all are */
  end(): Promise<number>;
  destroy(err: Error): void;
}

export function openSink(head: Transform, sink: Writable & { size(): number }): OpenSink {
  const done = pipeline(head, sink);
  done.catch(() => undefined); // surfaced by write() and end()
  return {
    async write(buf) {
      if (!head.write(buf)) await Promise.race([once(head, 'drain'), done]);
    },
    async end() {
      head.end();
      await done;
      return sink.size();
    },
    destroy: (err) => head.destroy(err),
  };
}

export async function finishFile(
  db: Queryable,
  fileId: number,
  size: number,
  counts: Record<string, number>,
  csv?: { rawSize: number; crc32: number },
): Promise<void> {
  await db.query('UPDATE bulk_files SET size = $2, counts = $3, raw_size = $4, crc32 = $5 WHERE file_id = $1', [
    fileId,
    size,
    JSON.stringify(counts),
    csv?.rawSize ?? null,
    csv?.crc32 ?? null,
  ]);
}

/**
 * Makes the fresh files current in place of the `replaced` ones (the blocks rebuilt, or every file
 * of a scope laid out anew) and moves every current file to the snapshot: the others' content is
 * unchanged at this snapshot, so it equals the snapshot too. One transaction, so the listing
 * always shows one consistent set.
 */
export async function publish(
  pool: Pool,
  fresh: number[],
  replaced: number[],
  cursor: string,
  generatedAt: string,
): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query(
      `UPDATE bulk_files SET status = 'superseded', superseded_at = now() WHERE file_id = ANY($1::bigint[]) AND status = 'current'`,
      [replaced],
    );
    await client.query(`UPDATE bulk_files SET status = 'current' WHERE file_id = ANY($1::bigint[])`, [fresh]);
    await client.query(`UPDATE bulk_files SET feed_cursor = $1, generated_at = $2 WHERE status = 'current'`, [
      cursor,
      generatedAt,
    ]);
  });
}

/** The current files, by scope, then block (the head first, then each session's bills in bill_id order), format and table. */
export async function currentFiles(db: Queryable): Promise<StoredFile[]> {
  const { rows } = await db.query<StoredFile>(
    `SELECT file_id, scope, format, part, raw_size, crc32, feed_cursor, to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS generated_at,
       to_char(built_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS built_at, signature, size, counts,
       session_id, bill_from, bill_to
     FROM bulk_files WHERE status = 'current' ORDER BY scope, session_id, bill_from, format, part`,
  );
  return rows;
}

/**
 * What identifies the current set: a build that publishes adds newer files (a higher id) or moves
 * the cursor, or both. Reading it is one aggregate of three numbers, where the set is a row per
 * block and table (thousands on the 1M corpus).
 */
export async function currentSetKey(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT count(*) || ':' || coalesce(max(file_id), 0) || ':' || coalesce(max(feed_cursor), '') AS key
     FROM bulk_files WHERE status = 'current'`,
  );
  return rows[0].key;
}

/** Removes files superseded longer than `retainMs` ago (downloads in progress keep reading the old bytes until then) and unfinished builds. */
export async function cleanup(db: Queryable, retainMs: number): Promise<void> {
  await db.query(
    `DELETE FROM bulk_files WHERE status = 'building' OR (status = 'superseded' AND superseded_at < now() - $1 * interval '1 millisecond')`,
    [retainMs],
  );
}

export interface Member {
  file_id: number;
  size: number;
}
/** A part of a download: a stored file, or bytes made at request time (a zip's headers). */
export type Piece = Member | { data: Buffer; size: number };

/** Stored files of one chunk read whole are read together, this many bytes in one COPY at most. */
const GROUP_BYTES = CHUNKS_PER_READ * CHUNK_BYTES;

/**
 * The bytes [start, end] (inclusive) of the concatenation of `pieces`, a few chunks at a time:
 * memory stays flat whatever the file size. A run of small stored files (a download holds a CSV
 * piece per table and block: thousands of a few KiB each) is read in one COPY, not one each.
 */
export async function* readRange(pool: Pool, pieces: Piece[], start: number, end: number): AsyncGenerator<Buffer> {
  let base = 0;
  let group: Member[] = [];
  let groupBytes = 0;
  for (const m of pieces) {
    const lo = Math.max(start, base);
    const hi = Math.min(end, base + m.size - 1);
    const whole = !('data' in m) && lo === base && hi === base + m.size - 1 && m.size <= CHUNK_BYTES;
    if (group.length > 0 && (!whole || groupBytes + m.size > GROUP_BYTES)) {
      yield* await wholeFiles(pool, group, groupBytes);
      group = [];
      groupBytes = 0;
    }
    if (lo > hi) {
      // outside the range
    } else if (whole) {
      group.push(m);
      groupBytes += m.size;
    } else if ('data' in m) {
      yield m.data.subarray(lo - base, hi - base + 1);
    } else {
      yield* storedBytes(pool, m.file_id, lo - base, hi - base);
    }
    base += m.size;
  }
  if (group.length > 0) yield* await wholeFiles(pool, group, groupBytes);
}

/** The whole bytes of small stored files (one chunk each), in their order, in one COPY. */
async function wholeFiles(pool: Pool, files: Member[], bytes: number): Promise<Buffer[]> {
  // COPY takes no bind parameters: these are integers of our own
  const ids = files.map((f) => Number(f.file_id)).join(',');
  const sql = `COPY (SELECT c.data FROM unnest('{${ids}}'::bigint[]) WITH ORDINALITY AS u(file_id, ord)
    JOIN bulk_chunks c ON c.file_id = u.file_id ORDER BY u.ord, c.n) TO STDOUT (FORMAT binary)`;
  const out = await copyValues(pool, sql);
  if (out.reduce((n, b) => n + b.length, 0) !== bytes) throw new Error(`bulk files ${ids} are missing chunks`);
  return out;
}

/**
 * Bytes [from, to] of a stored file, CHUNKS_PER_READ chunks at a time: each group is one COPY of
 * the chunks' raw bytes, read whole and its connection released before its bytes are handed on,
 * so a slow client holds at most one group in memory and no connection while it reads (a download
 * of 600 MB over a slow link would otherwise hold a read connection for minutes).
 */
async function* storedBytes(pool: Pool, fileId: number, from: number, to: number): AsyncGenerator<Buffer> {
  const last = Math.floor(to / CHUNK_BYTES);
  for (let n = Math.floor(from / CHUNK_BYTES); n <= last; n += CHUNKS_PER_READ) {
    const upTo = Math.min(n + CHUNKS_PER_READ - 1, last);
    const pieces = await copyChunks(pool, fileId, n, upTo);
    const size = pieces.reduce((sum, b) => sum + b.length, 0);
    const end = to - n * CHUNK_BYTES + 1;
    // every chunk but a file's last is CHUNK_BYTES long: a short group is one with chunks missing
    if (size < (upTo < last ? (upTo - n + 1) * CHUNK_BYTES : end))
      throw new Error(`bulk file ${fileId} is missing chunks between ${n} and ${upTo}`);
    // the group's bytes [skip, end) as the pieces they arrived in (no copy into one buffer)
    let at = 0;
    const skip = Math.max(0, from - n * CHUNK_BYTES);
    for (const b of pieces) {
      const lo = Math.max(skip - at, 0);
      const hi = Math.min(end - at, b.length);
      at += b.length;
      if (hi > lo) yield b.subarray(lo, hi);
      if (at >= end) break;
    }
  }
}

/** The raw bytes of chunks [first, last] of a file, in the pieces they arrived in (COPY binary: no hex text). */
async function copyChunks(pool: Pool, fileId: number, first: number, last: number): Promise<Buffer[]> {
  // COPY takes no bind parameters: these are integers of our own
  return copyValues(
    pool,
    `COPY (SELECT data FROM bulk_chunks WHERE file_id = ${Number(fileId)} AND n BETWEEN ${first} AND ${last} ORDER BY n) TO STDOUT (FORMAT binary)`,
  );
}

/** The values of a one-column binary COPY, read whole on a client released before they are handed on. */
async function copyValues(pool: Pool, sql: string): Promise<Buffer[]> {
  return onClient(pool, async (client) => {
    const copy = client.query(copyTo(sql));
    const values = copy.pipe(new CopyBinaryValues());
    // a failing COPY fails the read (pipe() does not pass errors on)
    copy.on('error', (err) => values.destroy(err));
    const out: Buffer[] = [];
    for await (const b of values as AsyncIterable<Buffer>) out.push(b);
    return out;
  });
}
