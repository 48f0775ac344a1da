// A jurisdiction's bulk files in blocks: the head block (its sessions, legislators, committees,
// hearings, subjects and candidates) and each session's bills in bill_id order, BLOCK_BILLS to a
// block, each block its own gzip member and CSV deflate pieces (which concatenate, as the
// jurisdictions' already do). A block's signature is the count and the sum of row versions (xmin)
// of its bills; a build renders again only the blocks whose signature moved or whose bills have
// changes in the change log since the last build (a new text, vote or amendment moves no bill row),
// so a build's cost follows what changed, not the corpus: a past session's bills, most of any
// jurisdiction's, are never rendered again.
import type { Queryable } from '../db/pool.js';
import type { BlockRange } from './store.js';
import type { Jurisdiction } from './records.js';

/**
 * Bills per block. A block is what a build renders again when one of its bills changed: small
 * blocks render less per change, but each is a gzip member (its own dictionary) and a file per CSV
 * table. At 2,000 a block's NDJSON is about 1 MiB compressed.
 */
export const BLOCK_BILLS = 2000;

/** One block of a session's bills, with its bill count and signature. */
export interface BillBlock extends BlockRange {
  n: number;
  /** count:sum(xmin) of its bills, as BLOCK_SIGNATURES_SQL computes it */
  signature: string;
}

/** What a lane writes: a jurisdiction's head block, or a range of one session's bills (one or more blocks). */
export type Unit = Jurisdiction & { signature: string; size: number } & (
    { kind: 'head' } | { kind: 'bills'; session: number; from: number; to: number | null; blockBills?: number }
  );

/** The signature now of every current block of bills, by file id (read in the build's snapshot). */
export const BLOCK_SIGNATURES_SQL = `
  SELECT f.file_id, count(b.bill_id)::int AS n,
    count(b.bill_id) || ':' || coalesce(sum(b.xmin::text::bigint), 0) AS signature
  FROM bulk_files f
  LEFT JOIN bills b ON b.session_id = f.session_id AND b.bill_id > f.bill_from AND (f.bill_to IS NULL OR b.bill_id <= f.bill_to)
  WHERE f.status = 'current' AND f.format = 'ndjson' AND f.bill_from >= 0
  GROUP BY f.file_id`;

/** Bills per session of every jurisdiction (read in the build's snapshot): sessions that have no block yet get one. */
export const SESSION_BILLS_SQL =
  'SELECT session_id, state_id, count(*)::int AS n FROM bills GROUP BY session_id, state_id';

/**
 * The blocks of a range of a session's bills, as they stand in the reader's snapshot: one block
 * while the range holds at most twice BLOCK_BILLS (the session's last block grows with its new
 * bills until then), else cut every `size` bills, the last block taking the rest to the range's end.
 */
export async function cutBlocks(
  db: Queryable,
  session: number,
  from: number,
  to: number | null,
  size = BLOCK_BILLS,
): Promise<BillBlock[]> {
  const { rows } = await db.query<{ bill_id: number; x: string }>(
    `SELECT bill_id, xmin::text AS x FROM bills
     WHERE session_id = $1 AND bill_id > $2 AND ($3::int IS NULL OR bill_id <= $3) ORDER BY bill_id`,
    [session, from, to],
  );
  const per = rows.length <= 2 * size ? Math.max(rows.length, 1) : size;
  const blocks: BillBlock[] = [];
  for (let i = 0, lo = from; i < Math.max(rows.length, 1); i += per) {
    const part = rows.slice(i, i + per);
    const last = i + per >= rows.length;
    const sum = part.reduce((s, r) => s + BigInt(r.x), 0n);
    const hi = last ? to : part[part.length - 1].bill_id;
    blocks.push({ session, from: lo, to: hi, n: part.length, signature: `${part.length}:${sum}` });
    if (hi !== null) lo = hi;
  }
  return blocks;
}
