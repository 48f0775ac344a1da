// Long-running work a process may host besides HTTP (relay, dispatcher, delivery worker, diff
// worker). Each is started by server.ts according to the process's roles and stopped in reverse
// order on shutdown.
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { Logger } from './logger.js';
import type { Bus } from './bus/types.js';
import type { ChangeEvent } from './domain/change-event.js';

export interface BackgroundContext {
  config: Config;
  db: Pool;
  dbRead: Pool;
  /** connection string of the primary, for components that need a dedicated connection */
  databaseUrl: string;
  bus: Bus<ChangeEvent>;
  log: Logger;
}

export interface Background {
  name: string;
  stop(): Promise<void>;
}
