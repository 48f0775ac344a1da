// PostgreSQL's binary COPY format, both ways. Reading: the values of a one-column `COPY … TO
// STDOUT (FORMAT binary)`, as they stream in: a download's stored chunks read this way (store.ts)
// arrive as their raw bytes. Read as query rows, each 1 MiB chunk came as a 2 MiB hex string (a
// large object in the V8 heap, freed only by a full collection) through a protocol buffer that
// grew to the largest result; a server sending a 580 MB file grew by 60-80 MiB. Writing: a stored
// chunk's row, its bytes sent as the pieces the compressor gave. The format (PostgreSQL docs,
// COPY, "Binary Format"): an 11-byte signature, a 32-bit flags field and a 32-bit header extension
// length (and the extension); then per tuple a 16-bit field count (-1 ends the data), and per
// field a 32-bit length (-1: NULL) and the bytes.
import { Transform, type TransformCallback } from 'node:stream';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The end of a COPY's data: a field count of -1. */
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/**
 * The bytes of a binary COPY into (bigint, int, bytea) that come before the bytea's own: the
 * header, then one tuple's count, its bigint and int fields and the bytea's length. The bytea
 * follows as written (any number of pieces), then COPY_TRAILER.
 */
export function copyBinaryHead(id: number, n: number, bytes: number): Buffer {
  const b = Buffer.alloc(SIGNATURE.length + 8 + 2 + 4 + 8 + 4 + 4 + 4);
  let at = SIGNATURE.copy(b, 0) + 8; // flags 0, no header extension
  at = b.writeInt16BE(3, at);
  at = b.writeInt32BE(8, at);
  at = b.writeBigInt64BE(BigInt(id), at);
  at = b.writeInt32BE(4, at);
  at = b.writeInt32BE(n, at);
  b.writeInt32BE(bytes, at);
  return b;
}

type State =
  | { at: 'header' }
  | { at: 'extension'; left: number }
  | { at: 'count' }
  | { at: 'length' }
  | { at: 'value'; left: number }
  | { at: 'end' };

/**
 * Emits the bytes of every value of a one-column binary COPY, in order, as slices of what arrived
 * (no value is assembled whole). A NULL value or a tuple of more than one column is an error.
 */
export class CopyBinaryValues extends Transform {
  private state: State = { at: 'header' };
  /** bytes of a fixed-size field split across chunks */
  private carry: Buffer = Buffer.alloc(0);

  /** `need` bytes from carry + chunk at `i`, or undefined (kept in carry) when they have not all arrived */
  private fixed(chunk: Buffer, i: number, need: number): { bytes: Buffer; next: number } | undefined {
    const have = this.carry.length + chunk.length - i;
    if (have < need) {
      this.carry = Buffer.concat([this.carry, chunk.subarray(i)]);
      return undefined;
    }
    const fromChunk = need - this.carry.length;
    const bytes = this.carry.length
      ? Buffer.concat([this.carry, chunk.subarray(i, i + fromChunk)])
      : chunk.subarray(i, i + need);
    this.carry = Buffer.alloc(0);
    return { bytes, next: i + fromChunk };
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let i = 0;
    try {
      while (i < chunk.length) {
        const s = this.state;
        if (s.at === 'value') {
          const n = Math.min(s.left, chunk.length - i);
          this.push(chunk.subarray(i, i + n));
          i += n;
          s.left -= n;
          if (s.left === 0) this.state = { at: 'count' };
        } else if (s.at === 'extension') {
          const n = Math.min(s.left, chunk.length - i);
          i += n;
          s.left -= n;
          if (s.left === 0) this.state = { at: 'count' };
        } else if (s.at === 'end') {
          throw new Error('COPY binary: data after the trailer');
        } else {
          const need = s.at === 'header' ? SIGNATURE.length + 8 : s.at === 'count' ? 2 : 4;
          const got = this.fixed(chunk, i, need);
          if (!got) return cb();
          i = got.next;
          const b = got.bytes;
          if (s.at === 'header') {
            if (!b.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('COPY binary: bad signature');
            const ext = b.readUInt32BE(SIGNATURE.length + 4);
            this.state = ext > 0 ? { at: 'extension', left: ext } : { at: 'count' };
          } else if (s.at === 'count') {
            const fields = b.readInt16BE(0);
            if (fields === -1) this.state = { at: 'end' };
            else if (fields !== 1) throw new Error(`COPY binary: ${fields} columns, expected 1`);
            else this.state = { at: 'length' };
          } else {
            const len = b.readInt32BE(0);
            if (len < 0) throw new Error('COPY binary: NULL value');
            this.state = len > 0 ? { at: 'value', left: len } : { at: 'count' };
          }
        }
      }
      cb();
    } catch (err) {
      cb(err as Error);
    }
  }

  override _flush(cb: TransformCallback): void {
    cb(this.state.at === 'end' ? null : new Error('COPY binary: the data ended early'));
  }
}
