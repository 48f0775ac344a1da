// Text diff worker: keeps text_changes complete for consecutive text versions of every bill.
// Discovery follows a cursor on bill_texts (created, text_id), so versions added by imports or the
// simulator are picked up without manual steps; /diff misses and writers add pairs to the queue.
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import type { Pool } from '../db/pool.js';
import { diffComputer, type ComputeChange } from './compute.js';
import { processQueue, queueMissingPairs } from './store.js';

const POLL_MS = 2_000;
const DISCOVER_BATCH = 1_000;
// Texts are stamped created = now() at insert but become visible at commit; rows of a transaction
// that commits late could sit behind the cursor. Keeping the cursor this far behind the present and
// re-checking the window (cheap: already computed pairs are skipped) closes that gap.
const LATE_COMMIT_WINDOW = '60 seconds';

/**
 * Queues consecutive pairs of bills whose texts appeared since the stored cursor; returns how many pairs.
 * The cursor's time travels as PostgreSQL's text, never as a JS Date: a Date keeps milliseconds, and
 * an import stamps every text of a transaction with the same microsecond time, so a truncated cursor
 * sat before all of them and re-read the same batch forever once more than a batch shared it.
 */
export async function discoverNewTexts(db: Pool, stopped: () => boolean = () => false): Promise<number> {
  let queued = 0;
  for (let round = 0; round < 50 && !stopped(); round++) {
    const cur = (
      await db.query<{ created: string; text_id: number }>(
        'SELECT created::text AS created, text_id FROM text_diff_cursor WHERE id = 1',
      )
    ).rows[0];
    // created_text, not created: ORDER BY would read an output column named created as the text.
    const rows = (
      await db.query<{ bill_id: number; created_text: string; text_id: number }>(
        `SELECT bill_id, created::text AS created_text, text_id FROM bill_texts WHERE (created, text_id) > ($1::timestamptz, $2)
       ORDER BY created, text_id LIMIT $3`,
        [cur.created, cur.text_id, DISCOVER_BATCH],
      )
    ).rows;
    if (rows.length === 0) break;
    queued += await queueMissingPairs(db, [...new Set(rows.map((r) => r.bill_id))]);
    const last = rows[rows.length - 1];
    await db.query(
      `UPDATE text_diff_cursor SET (created, text_id) =
         (SELECT CASE WHEN $1::timestamptz < now() - $3::interval THEN $1::timestamptz ELSE now() - $3::interval END,
                 CASE WHEN $1::timestamptz < now() - $3::interval THEN $2::int ELSE 0 END)
       WHERE id = 1`,
      [last.created_text, last.text_id, LATE_COMMIT_WINDOW],
    );
    if (rows.length < DISCOVER_BATCH) break;
  }
  return queued;
}

/**
 * One full round: discover, then drain the queue. Exposed for tests and `lds` one-shot use.
 * `stopped` is asked between discovery batches and between pairs, so a shutdown waits for at most
 * one statement or one pair (and the pair's thread is ended by the worker's stop), never for a
 * queue that a fresh corpus or an import fills with thousands of pairs: the rest stays queued for
 * the next start.
 */
export async function runDiffRound(
  db: Pool,
  stopped: () => boolean = () => false,
  compute?: ComputeChange,
): Promise<{ queued: number; computed: number }> {
  const queued = await discoverNewTexts(db, stopped);
  let computed = 0;
  while (!stopped()) {
    const n = await processQueue(db, { stopped, compute });
    computed += n;
    if (n === 0) break;
  }
  return { queued, computed };
}

/** What the diff worker needs of the process: the pool and the log. */
export type DiffWorkerDeps = Pick<BackgroundContext, 'db' | 'log'>;

export async function startDiffWorker(ctx: DiffWorkerDeps, opts: { pollMs?: number } = {}): Promise<Background> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const computer = diffComputer();
  const failures = retryLog(ctx.log, 'diff worker round failed');
  const tick = () => {
    running = runDiffRound(ctx.db, () => stopped, computer.compute)
      .then(() => failures.ok())
      .catch((err: unknown) => failures.failed(err))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, opts.pollMs ?? POLL_MS);
      });
  };
  tick();
  return {
    name: 'diff-worker',
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Ends a computation in progress; its pair is rolled back to the queue, untouched.
      await computer.close();
      await running;
    },
  };
}
