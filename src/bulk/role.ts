// The `bulk` role: builds the bulk files at most every BULK_INTERVAL seconds, rendering again only
// the blocks of bills that changed (blocks.ts). Any number of processes may run the role; one builds at a time (a
// PostgreSQL advisory lock held by a dedicated session), the others stand by and take over when
// its session ends. The files live in PostgreSQL, so every API replica serves them.
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import { buildSnapshots } from './build.js';
import { SessionLock } from '../jobs/session-lock.js';

/** Advisory lock key of the active builder (the relay's is 7310006). */
export const BULK_LOCK_KEY = 7310022;
/** How often a standby tries the lock, and the active builder checks whether a build is due. */
const TICK_MS = 5000;

/** What the bulk builder needs of the process: the pool, its own session for the lock, the settings. */
export type BulkDeps = Pick<BackgroundContext, 'db' | 'log' | 'config' | 'databaseUrl'>;

export async function startBulk(ctx: BulkDeps): Promise<Background> {
  const { db, log, config } = ctx;
  let stopped = false;
  let running: Promise<void> | undefined;
  // a build of a large corpus takes minutes: stopping aborts it rather than waiting
  const abort = new AbortController();
  const failures = retryLog(log, 'bulk build failed; retrying');
  const lock = new SessionLock({ databaseUrl: ctx.databaseUrl, key: BULK_LOCK_KEY, name: 'lds-bulk-lock' });

  /** Seconds since the current files' snapshot (undefined when there is none). */
  const age = async () =>
    (
      await db.query<{ s: number | null }>(
        `SELECT extract(epoch FROM now() - max(generated_at))::float8 AS s FROM bulk_files WHERE status = 'current'`,
      )
    ).rows[0].s ?? undefined;

  const tick = async () => {
    if (stopped) return;
    try {
      const got = await lock.tend();
      if (got === 'standby' || stopped) return;
      if (got === 'acquired') log.info('bulk builder active');
      const seconds = await age();
      if (seconds !== undefined && seconds < config.bulkInterval) return;
      const started = Date.now();
      const r = await buildSnapshots(db, log, { signal: abort.signal, databaseUrl: ctx.databaseUrl });
      log.info(
        { cursor: r.cursor, built: r.built.length, blocks: r.blocks, bytes: r.bytes, ms: Date.now() - started },
        'bulk files built',
      );
      failures.ok();
    } catch (err) {
      if (!stopped) failures.failed(err);
    }
  };

  const loop = async () => {
    while (!stopped) {
      running = tick();
      await running;
      running = undefined;
      if (!stopped)
        await new Promise((r) => {
          timer = setTimeout(r, TICK_MS);
        });
    }
  };
  let timer: NodeJS.Timeout | undefined;
  void loop();

  return {
    name: 'bulk',
    async stop() {
      stopped = true;
      abort.abort();
      clearTimeout(timer);
      await running;
      await lock.release();
    },
  };
}
