// Opens the database a process works on: DATABASE_URL when set, the embedded PostgreSQL otherwise.
// Servers adopt and stop the embedded cluster; CLI commands reuse a running one (the one
// `lds serve` started) and only stop a cluster they had to start themselves.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startEmbedded, type EmbeddedHandle } from './embedded.js';
import { createPool, type Pool } from './pool.js';

export interface Database {
  url: string;
  pool: Pool;
  readPool: Pool;
  embedded?: EmbeddedHandle;
  close(): Promise<void>;
}

export async function openDatabase(config: Config, log: Logger, mode: 'server' | 'client', poolSize = config.dbPoolSize): Promise<Database> {
  let embedded: EmbeddedHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbedded({ dataDir: config.dataDir, preferredPort: config.embeddedPgPort, log, mode });
    url = embedded.url;
  }
  const pool = createPool(url, poolSize, mode === 'server' ? 'lds-serve' : 'lds-cli');
  const readPool = config.databaseReadUrl ? createPool(config.databaseReadUrl, poolSize, 'lds-read') : pool;
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await embedded?.stop();
    throw new Error(`cannot connect to PostgreSQL: ${(err as Error).message}`);
  }
  let closed = false;
  return {
    url,
    pool,
    readPool,
    embedded,
    async close() {
      if (closed) return;
      closed = true;
      if (readPool !== pool) await readPool.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await embedded?.stop();
    },
  };
}
