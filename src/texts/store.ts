// Database side of text changes: compute a pair, queue pairs, discover consecutive pairs.
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { recordChanges } from '../changes/record.js';
import { computeInThread, DiffStopped, type ComputeChange } from './compute.js';

/** Consecutive versions of a bill: ordered by text_date (undated first), then text_id. */
export const CONSECUTIVE_PAIRS_SQL = `
  SELECT bill_id, lag(text_id) OVER w AS from_text_id, text_id AS to_text_id
  FROM bill_texts WHERE bill_id = ANY($1::int[])
  WINDOW w AS (PARTITION BY bill_id ORDER BY text_date ASC NULLS FIRST, text_id)`;

/** The stored columns of a text change that the API shows (computed_at aside): what "changed" compares. */
const RESULT_COLUMNS = [
  'from_type_id',
  'to_type_id',
  'from_created',
  'to_created',
  'added_chars',
  'removed_chars',
  'added_lines',
  'removed_lines',
  'similarity',
  'is_whitespace_only',
  'changed_sections',
  'highlights',
  'diff_truncated',
  'diff_unified',
];
const tuple = (table: string) => `(${RESULT_COLUMNS.map((c) => `${table}.${c}`).join(', ')})`;

/**
 * Records a TextDiff change for a stored or removed result, in the caller's transaction, when the
 * pair is consecutive for its bill: only those show in the bill's `changes` part (a pair queued by
 * a /diff miss is served by /diff alone and changes no bill record a copy holds).
 */
async function recordTextDiff(db: Queryable, billId: number, fromId: number, toId: number): Promise<void> {
  const bill = (
    await db.query<{ state_id: number; consecutive: boolean }>(
      `SELECT b.state_id, EXISTS (SELECT 1 FROM (${CONSECUTIVE_PAIRS_SQL}) p WHERE p.from_text_id = $2 AND p.to_text_id = $3) AS consecutive
       FROM bills b WHERE b.bill_id = $4`,
      [[billId], fromId, toId, billId],
    )
  ).rows[0];
  if (!bill?.consecutive) return;
  await recordChanges(db, [
    {
      bill_id: billId,
      state_id: bill.state_id,
      reason: 'TextDiff',
      detail: { from_text_id: fromId, to_text_id: toId },
    },
  ]);
}

/**
 * Computes and stores the change between two text versions of the same bill, replacing an earlier
 * result, and removes the pair from the queue. Returns false when either text is missing or the
 * two belong to different bills (such a pair is dropped from the queue too, and a stale result
 * removed).
 *
 * A result that is new, differs from the stored one, or is removed makes a TextDiff change in the
 * change log, in the same statement's transaction (call it inside one), so a copy that follows the
 * feed re-fetches the bill. A recomputation that finds the same result writes nothing (computed_at
 * included: it is shown) and records nothing.
 */
export async function computePair(
  db: Queryable,
  fromId: number,
  toId: number,
  compute: ComputeChange = computeInThread,
): Promise<boolean> {
  const texts = (
    await db.query<{
      text_id: number;
      bill_id: number;
      bill_text_type_id: number;
      created: Date;
      content: string | null;
    }>('SELECT text_id, bill_id, bill_text_type_id, created, content FROM bill_texts WHERE text_id = ANY($1::int[])', [
      [fromId, toId],
    ])
  ).rows;
  const from = texts.find((t) => t.text_id === fromId);
  const to = texts.find((t) => t.text_id === toId);
  // A text whose document is absent (metadata only) has nothing to compare: comparing it as ''
  // would publish two missing documents as identical (whitespace-only, similarity 1).
  if (!from || !to || from.bill_id !== to.bill_id || from.content === null || to.content === null) {
    const removed = await db.query<{ bill_id: number }>(
      `WITH q AS (DELETE FROM text_diff_queue WHERE from_text_id = $1 AND to_text_id = $2)
                    DELETE FROM text_changes WHERE from_text_id = $1 AND to_text_id = $2 RETURNING bill_id`,
      [fromId, toId],
    );
    if (removed.rows[0]) await recordTextDiff(db, removed.rows[0].bill_id, fromId, toId);
    return false;
  }
  const s = await compute(from.content, to.content, { from: `text/${fromId}`, to: `text/${toId}` });
  const written = await db.query(
    `WITH done AS (DELETE FROM text_diff_queue WHERE from_text_id = $2 AND to_text_id = $3)
     INSERT INTO text_changes (bill_id, from_text_id, to_text_id, ${RESULT_COLUMNS.join(', ')}, computed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, now())
     ON CONFLICT (from_text_id, to_text_id) DO UPDATE SET
       ${RESULT_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, computed_at = now()
     WHERE ${tuple('text_changes')} IS DISTINCT FROM ${tuple('EXCLUDED')}
     RETURNING 1`,
    [
      from.bill_id,
      fromId,
      toId,
      from.bill_text_type_id,
      to.bill_text_type_id,
      from.created,
      to.created,
      s.added_chars,
      s.removed_chars,
      s.added_lines,
      s.removed_lines,
      s.similarity,
      s.is_whitespace_only,
      JSON.stringify(s.changed_sections),
      JSON.stringify(s.highlights),
      s.diff_truncated,
      s.diff_unified,
    ],
  );
  if (written.rowCount) await recordTextDiff(db, from.bill_id, fromId, toId);
  return true;
}

export async function enqueuePair(db: Queryable, billId: number, fromId: number, toId: number): Promise<void> {
  await db.query(
    'INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [fromId, toId, billId],
  );
}

/** Queues every consecutive pair of these bills that has no computed change yet (both documents present). */
export async function queueMissingPairs(db: Queryable, billIds: number[]): Promise<number> {
  if (billIds.length === 0) return 0;
  const r = await db.query(
    `INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id)
     SELECT p.from_text_id, p.to_text_id, p.bill_id FROM (${CONSECUTIVE_PAIRS_SQL}) p
     WHERE p.from_text_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM bill_texts t WHERE t.text_id IN (p.from_text_id, p.to_text_id) AND t.content IS NULL)
       AND NOT EXISTS (SELECT 1 FROM text_changes tc WHERE tc.from_text_id = p.from_text_id AND tc.to_text_id = p.to_text_id)
     ON CONFLICT DO NOTHING`,
    [billIds],
  );
  return r.rowCount ?? 0;
}

export const MAX_ATTEMPTS = 5;

export interface QueueOptions {
  /** pairs to compute before returning (the worker then looks for new texts again) */
  batch?: number;
  /** asked before each pair: a stopping worker leaves the rest queued */
  stopped?: () => boolean;
  compute?: ComputeChange;
}

/**
 * Computes up to `batch` queued pairs, each claimed (SKIP LOCKED, so several workers share the
 * queue) and stored in a transaction of its own: a pair can take seconds, and what is computed is
 * kept whatever happens to the pairs after it. A failing pair records its error and is retried on
 * later rounds, up to MAX_ATTEMPTS; a pair cut by a shutdown (DiffStopped) stays queued as it was.
 */
export async function processQueue(pool: Pool, opts: QueueOptions = {}): Promise<number> {
  const { batch = 20, stopped = () => false, compute = computeInThread } = opts;
  let done = 0;
  const failed: string[] = []; // tried once in this call: retried on a later round, not at once
  for (let i = 0; i < batch && !stopped(); i++) {
    const outcome = await withTransaction(pool, async (client) => {
      const p = (
        await client.query<{ from_text_id: number; to_text_id: number }>(
          `SELECT from_text_id, to_text_id FROM text_diff_queue
         WHERE attempts < $1 AND from_text_id || ':' || to_text_id <> ALL($2::text[])
         ORDER BY queued_at, from_text_id, to_text_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [MAX_ATTEMPTS, failed],
        )
      ).rows[0];
      if (!p) return 'empty';
      await client.query('SAVEPOINT pair');
      try {
        await computePair(client, p.from_text_id, p.to_text_id, compute);
        return 'done';
      } catch (err) {
        await client.query('ROLLBACK TO SAVEPOINT pair');
        if (err instanceof DiffStopped) return 'stopped';
        await client.query(
          'UPDATE text_diff_queue SET attempts = attempts + 1, last_error = $3 WHERE from_text_id = $1 AND to_text_id = $2',
          [p.from_text_id, p.to_text_id, String((err as Error).message).slice(0, 500)],
        );
        failed.push(`${p.from_text_id}:${p.to_text_id}`);
        return 'failed';
      }
    });
    if (outcome === 'empty' || outcome === 'stopped') break;
    if (outcome === 'done') done++;
  }
  return done;
}
