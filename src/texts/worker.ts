// Text diff worker: keeps text_changes complete for consecutive text versions of every bill.
// Discovery follows a cursor on bill_texts (created, text_id), so versions added by imports or the
// simulator are picked up without manual steps; /diff misses and writers add pairs to the queue.
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import type { Pool } from '../db/pool.js';
import { processQueue, queueMissingPairs } from './store.js';

const POLL_MS = 2_000;
const DISCOVER_BATCH = 1_000;
// Texts are stamped created = now() at insert but become visible at commit; rows of a transaction
// that commits late could sit behind the cursor. Keeping the cursor this far behind the present and
// re-checking the window (cheap: already computed pairs are skipped) closes that gap.
const LATE_COMMIT_WINDOW = '60 seconds';

/** Queues consecutive pairs of bills whose texts appeared since the stored cursor; returns how many pairs. */
export async function discoverNewTexts(db: Pool): Promise<number> {
  let queued = 0;
  for (let round = 0; round < 50; round++) {
    const cur = (await db.query<{ created: Date; text_id: number }>('SELECT created, text_id FROM text_diff_cursor WHERE id = 1')).rows[0];
    const rows = (await db.query<{ bill_id: number; created: Date; text_id: number }>(
      `SELECT bill_id, created, text_id FROM bill_texts WHERE (created, text_id) > ($1, $2)
       ORDER BY created, text_id LIMIT $3`, [cur.created, cur.text_id, DISCOVER_BATCH],
    )).rows;
    if (rows.length === 0) break;
    queued += await queueMissingPairs(db, [...new Set(rows.map((r) => r.bill_id))]);
    const last = rows[rows.length - 1];
    await db.query(
      `UPDATE text_diff_cursor SET (created, text_id) =
         (SELECT CASE WHEN $1::timestamptz < now() - $3::interval THEN $1::timestamptz ELSE now() - $3::interval END,
                 CASE WHEN $1::timestamptz < now() - $3::interval THEN $2::int ELSE 0 END)
       WHERE id = 1`, [last.created, last.text_id, LATE_COMMIT_WINDOW],
    );
    if (rows.length < DISCOVER_BATCH) break;
  }
  return queued;
}

/**
 * One full round: discover, then drain the queue. Exposed for tests and `lds` one-shot use.
 * `stopped` is asked between batches so a shutdown waits for one batch, not for a queue that a
 * fresh corpus can fill with thousands of pairs (the rest stays queued for the next start).
 */
export async function runDiffRound(db: Pool, stopped: () => boolean = () => false): Promise<{ queued: number; computed: number }> {
  const queued = await discoverNewTexts(db);
  let computed = 0;
  while (!stopped()) {
    const n = await processQueue(db);
    computed += n;
    if (n === 0) break;
  }
  return { queued, computed };
}

export async function startDiffWorker(ctx: BackgroundContext, opts: { pollMs?: number } = {}): Promise<Background> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const failures = retryLog(ctx.log, 'diff worker round failed');
  const tick = () => {
    running = runDiffRound(ctx.db, () => stopped)
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
      await running;
    },
  };
}
