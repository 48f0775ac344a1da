// Opens the database a process works on: DATABASE_URL when set, the embedded PostgreSQL otherwise.
// Servers adopt and stop the embedded cluster; CLI commands reuse a running one (the one
// `lds serve` started) and only stop a cluster they had to start themselves.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startEmbedded, type EmbeddedHandle } from './embedded.js';
import { isDatabaseUnavailable } from './health.js';
import { createPool, type Pool } from './pool.js';

export interface Database {
  url: string;
  pool: Pool;
  readPool: Pool;
  /** expensive reads (text search, substring filters, deep offsets): EXPENSIVE_READ_POOL_SIZE, else the read pool */
  expensivePool: Pool;
  /** stream catch-up from the change log: STREAM_REPLAY_POOL_SIZE, else the read pool */
  streamPool: Pool;
  embedded?: EmbeddedHandle;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Config,
  log: Logger,
  mode: 'server' | 'client',
  poolSize = config.dbPoolSize,
): Promise<Database> {
  let embedded: EmbeddedHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbedded({ dataDir: config.dataDir, preferredPort: config.embeddedPgPort, log, mode });
    url = embedded.url;
  }
  const pool = createPool(url, poolSize, mode === 'server' ? 'lds-serve' : 'lds-cli');
  // A server reads through a pool of its own (on the replica when there is one) whose statements
  // PostgreSQL cancels after READ_STATEMENT_TIMEOUT_MS: no read can hold a connection for long,
  // while writers, the relay and migrations on the primary pool are never cut.
  const readUrl = config.databaseReadUrl ?? url;
  const reading = { statementTimeoutMs: config.readStatementTimeoutMs, parallelWorkers: config.readParallelWorkers };
  const serving = config.databaseReadUrl || mode === 'server';
  const readPool = serving ? createPool(readUrl, poolSize, 'lds-read', reading) : pool;
  // Pools of their own for the two kinds of read one tenant can multiply: expensive searches and
  // stream catch-ups. Each is small, so together they hold at most a few connections (and, with
  // READ_PARALLEL_WORKERS, cores) of the database, and the read pool stays free for cheap reads.
  // Their backends also run at a lower CPU priority when the database is on this machine
  // (LOW_PRIORITY_NICE): what they take is what the cheap reads leave.
  const low = { ...reading, backendNice: config.lowPriorityNice };
  const side = (size: number, name: string) => (serving && size > 0 ? createPool(readUrl, size, name, low) : readPool);
  const expensivePool = side(config.expensiveReadPoolSize, 'lds-read-expensive');
  const streamPool = side(config.streamReplayPoolSize, 'lds-stream-replay');
  const pools = [...new Set([pool, readPool, expensivePool, streamPool])];
  for (const p of pools) p.status.log = log;
  const endAll = async () => {
    for (const p of [...pools].reverse()) await p.end().catch(() => undefined);
  };
  try {
    await waitForDatabase(pool, mode === 'server' ? config.dbStartTimeoutMs : 0, log);
  } catch (err) {
    await endAll();
    await embedded?.stop();
    throw new Error(`cannot connect to PostgreSQL: ${(err as Error).message}`);
  }
  let closed = false;
  return {
    url,
    pool,
    readPool,
    expensivePool,
    streamPool,
    embedded,
    async close() {
      if (closed) return;
      closed = true;
      for (const p of pools) p.status.close();
      await endAll();
      await embedded?.stop();
    },
  };
}

/**
 * A server started while PostgreSQL is restarting or not up yet (a deploy racing the database)
 * waits for it, saying so every few seconds, up to timeoutMs; then it gives up with the last
 * reason, so an orchestrator restarts it rather than it hanging. Other errors (bad password,
 * unknown database) fail at once: waiting would not fix them.
 */
async function waitForDatabase(pool: Pool, timeoutMs: number, log: Logger): Promise<void> {
  const start = Date.now();
  let lastLog = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('SELECT 1');
      if (attempt > 1) log.info({ waited_ms: Date.now() - start }, 'PostgreSQL is reachable; starting');
      return;
    } catch (err) {
      const waited = Date.now() - start;
      if (!isDatabaseUnavailable(err) || waited >= timeoutMs) {
        if (timeoutMs > 0 && waited >= timeoutMs)
          throw new Error(
            `still unreachable after ${Math.round(waited / 1000)} s (DB_START_TIMEOUT_MS): ${(err as Error).message}`,
          );
        throw err;
      }
      if (Date.now() - lastLog >= 5000) {
        lastLog = Date.now();
        log.warn(
          { attempt, waited_ms: waited, timeout_ms: timeoutMs, reason: (err as Error).message },
          'waiting for PostgreSQL to accept connections',
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, timeoutMs - waited))));
    }
  }
}
