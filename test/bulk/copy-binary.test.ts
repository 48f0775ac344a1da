// Downloads stream stored chunks as COPY binary (store.ts): the parser must hand back each value's
// exact bytes however the stream is cut, and refuse what is not a one-column COPY; a byte range
// of stored files (and of bytes made at request time) is exactly those bytes of their concatenation,
// read a few chunks at a time without holding a connection while the consumer takes them.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { CopyBinaryValues } from '../../src/bulk/copy-binary.js';
import { CHUNK_BYTES, chunkSink, createFile, readRange, type Piece } from '../../src/bulk/store.js';
import type { Pool } from '../../src/db/pool.js';
import { freshDatabase } from '../helpers/db.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Stores `data` as a file's chunks; the piece a download would list for it. */
async function storeFile(pool: Pool, data: Buffer): Promise<Piece> {
  const fileId = await createFile(pool, 'XX', 'sig');
  await pipeline(Readable.from([data]), chunkSink(pool, fileId));
  return { file_id: fileId, size: data.length };
}

/** A one-column COPY binary stream of `values` (with an optional header extension). */
function copyBinary(values: Buffer[], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [SIGNATURE, Buffer.alloc(4), Buffer.alloc(4)];
  parts[2].writeUInt32BE(extension.length);
  parts.push(extension);
  for (const v of values) {
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(v.length, 2);
    parts.push(head, v);
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  return Buffer.concat(parts);
}

/** The stream cut into pieces of the given sizes (cycled). */
function cut(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0, k = 0; i < data.length; k++) {
    const n = sizes[k % sizes.length];
    out.push(data.subarray(i, i + n));
    i += n;
  }
  return out;
}

const parse = (pieces: Buffer[]) => buffer(Readable.from(pieces).pipe(new CopyBinaryValues()));

describe('CopyBinaryValues', () => {
  const values = [randomBytes(70_000), Buffer.alloc(0), randomBytes(1), randomBytes(12_345)];
  const whole = Buffer.concat(values);

  it('returns the values’ bytes in order however the stream is cut', async () => {
    const data = copyBinary(values, Buffer.from('ext'));
    for (const sizes of [[data.length], [1], [2, 3, 5], [7, 65_536], [19, 1, 6]]) {
      expect((await parse(cut(data, sizes))).equals(whole)).toBe(true);
    }
  });

  it('refuses a bad signature, two columns, a NULL and data that ends early', async () => {
    const good = copyBinary(values);
    const bad = Buffer.from(good);
    bad[0] = 0x51;
    await expect(parse([bad])).rejects.toThrow(/signature/);
    const two = Buffer.from(good);
    two.writeInt16BE(2, SIGNATURE.length + 8);
    await expect(parse([two])).rejects.toThrow(/2 columns/);
    const nul = Buffer.from(good);
    nul.writeInt32BE(-1, SIGNATURE.length + 10);
    await expect(parse([nul])).rejects.toThrow(/NULL/);
    await expect(parse([good.subarray(0, good.length - 2)])).rejects.toThrow(/ended early/);
  });

  it('reads what PostgreSQL writes', async () => {
    const db = await freshDatabase(2);
    try {
      const client = await db.pool.connect();
      try {
        await client.query('CREATE TEMP TABLE t (n int, data bytea)');
        for (const [n, v] of values.entries()) await client.query('INSERT INTO t VALUES ($1, $2)', [n, v]);
        const out = await buffer(
          client
            .query(copyTo('COPY (SELECT data FROM t ORDER BY n) TO STDOUT (FORMAT binary)'))
            .pipe(new CopyBinaryValues()),
        );
        expect(out.equals(whole)).toBe(true);
      } finally {
        client.release();
      }
    } finally {
      await db.drop();
    }
  });

  it('stores a file written in pieces that straddle chunk boundaries as the same bytes, chunk by chunk', async () => {
    const db = await freshDatabase(2);
    try {
      const fileId = await createFile(db.pool, 'XX', 'sig');
      const data = randomBytes(3 * CHUNK_BYTES + 4321);
      // pieces of an odd size, as a compressor hands them on: several end inside a chunk's last bytes
      const pieces: Buffer[] = [];
      for (let at = 0; at < data.length; at += 70_001) pieces.push(data.subarray(at, at + 70_001));
      const sink = chunkSink(db.pool, fileId);
      await pipeline(Readable.from(pieces), sink);
      expect(sink.size()).toBe(data.length);
      const { rows } = await db.pool.query<{ n: number; len: number }>(
        'SELECT n, length(data) AS len FROM bulk_chunks WHERE file_id = $1 ORDER BY n',
        [fileId],
      );
      expect(rows).toEqual([
        { n: 0, len: CHUNK_BYTES },
        { n: 1, len: CHUNK_BYTES },
        { n: 2, len: CHUNK_BYTES },
        { n: 3, len: 4321 },
      ]);
      const parts: Buffer[] = [];
      for await (const x of readRange(db.pool, [{ file_id: fileId, size: data.length }], 0, data.length - 1))
        parts.push(Buffer.from(x));
      expect(Buffer.concat(parts).equals(data)).toBe(true);
    } finally {
      await db.drop();
    }
  });

  it('reads a run of small stored files in few COPYs, the same bytes in any range', async () => {
    const db = await freshDatabase(3);
    try {
      const store = (data: Buffer) => storeFile(db.pool, data);
      // a download's CSV pieces: many small files, a made header between runs of them, a large file
      const datas: Buffer[] = [];
      const pieces: Piece[] = [];
      for (let i = 0; i < 60; i++) {
        const data = i === 30 ? randomBytes(40) : randomBytes(1 + ((i * 7919) % 150_000));
        datas.push(data);
        pieces.push(i === 30 ? { data, size: data.length } : await store(data));
      }
      const large = randomBytes(CHUNK_BYTES + 99);
      datas.push(large);
      pieces.push(await store(large));
      const all = Buffer.concat(datas);
      let copies = 0;
      const count = () => copies++;
      db.pool.on('acquire', count);
      const read = async (start: number, end: number) => {
        const parts: Buffer[] = [];
        for await (const x of readRange(db.pool, pieces, start, end)) parts.push(Buffer.from(x));
        return Buffer.concat(parts);
      };
      expect((await read(0, all.length - 1)).equals(all)).toBe(true);
      // 59 small files of 4.4 MB together, in runs broken by the made bytes: a few COPYs, not one per file
      expect(copies).toBeLessThanOrEqual(6);
      db.pool.off('acquire', count);
      for (const [start, end] of [
        [5, 5],
        [1000, 2_000_000], // from inside a small file to inside another
        [all.length - large.length - 10, all.length - 1], // a small file's end into the large one
      ] as Array<[number, number]>)
        expect((await read(start, end)).equals(all.subarray(start, end + 1))).toBe(true);
    } finally {
      await db.drop();
    }
  });

  it('reads any byte range of stored files and made bytes, across chunk boundaries', async () => {
    const db = await freshDatabase(3);
    try {
      const store = (data: Buffer) => storeFile(db.pool, data);
      const a = randomBytes(2 * CHUNK_BYTES + 1234);
      const made = randomBytes(100);
      const b = randomBytes(CHUNK_BYTES);
      const pieces = [await store(a), { data: made, size: made.length }, await store(b)];
      const all = Buffer.concat([a, made, b]);
      const read = async (start: number, end: number) => {
        const parts: Buffer[] = [];
        for await (const x of readRange(db.pool, pieces, start, end)) parts.push(Buffer.from(x));
        return Buffer.concat(parts);
      };
      const ranges: Array<[number, number]> = [
        [0, all.length - 1],
        [0, 0],
        [CHUNK_BYTES - 1, CHUNK_BYTES], // across a chunk boundary
        [CHUNK_BYTES + 5, 2 * CHUNK_BYTES + 1300], // into the made bytes
        [a.length - 3, a.length + made.length + 3], // a file's end, the made bytes, the next file's start
        [all.length - 10, all.length - 1],
      ];
      for (const [start, end] of ranges)
        expect((await read(start, end)).equals(all.subarray(start, end + 1))).toBe(true);
      // a slow consumer holds no connection while it reads what it was given
      const slow = readRange(db.pool, pieces, 0, all.length - 1);
      expect((await slow.next()).done).toBe(false);
      expect(db.pool.totalCount - db.pool.idleCount).toBe(0);
      await slow.return(undefined);
      // a consumer that stops early frees its connection (the pool is not left short)
      for (let i = 0; i < 5; i++) {
        for await (const x of readRange(db.pool, pieces, 0, all.length - 1)) if (x.length) break;
      }
      expect((await read(0, all.length - 1)).equals(all)).toBe(true);
    } finally {
      await db.drop();
    }
  });
});
