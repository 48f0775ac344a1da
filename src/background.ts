// Long-running work a process may host besides HTTP (relay, dispatcher, delivery worker, diff
// worker). Each is started by server.ts according to the process's roles and stopped in reverse
// order on shutdown.
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { Logger } from './logger.js';
import type { ChangeBus } from './changes/events.js';

export interface BackgroundContext {
  config: Config;
  db: Pool;
  dbRead: Pool;
  /** connection string of the primary, for components that need a dedicated connection */
  databaseUrl: string;
  bus: ChangeBus;
  log: Logger;
}

export interface Background {
  name: string;
  stop(): Promise<void>;
}
