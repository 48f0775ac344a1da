// Shared glue of the `lds` subcommands: configuration, logging, failure and the one way a command
// opens the database (the way the server does: it reuses a running embedded PostgreSQL, the one
// `lds serve` started, or starts one for the duration of the command).
import { InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openDatabase, type Database } from '../db/open.js';
import { createLogger, type Logger } from '../logger.js';

export const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
  return Number(v);
};

export function loadConfigOrExit(overrides: Partial<Config> = {}, env = process.env): Config {
  try {
    return loadConfig(env, overrides);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`lds: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** Logger for CLI commands: warnings only unless LOG_LEVEL says otherwise, on stderr. */
export function cliLogger(config: Config): Logger {
  const level = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  return createLogger(level, { destination: 2 });
}

/** Runs fn with a migrated database, closing it (and any embedded cluster it started) after. */
export async function withDatabase<T>(fn: (db: Database, config: Config, log: Logger) => Promise<T>): Promise<T> {
  const config = loadConfigOrExit();
  const log = cliLogger(config);
  const db = await openDatabase(config, log, 'client', 4);
  try {
    await migrate(db.pool, log);
    return await fn(db, config, log);
  } finally {
    await db.close();
  }
}

export function fail(err: unknown): never {
  process.stderr.write(`lds: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
}
