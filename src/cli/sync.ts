// `lds sync`: a local copy of everything, kept current (src/sync). Talks to the service over HTTP
// only, like any customer, so it needs no settings of the service.
import { InvalidArgumentError, type Command } from 'commander';
import { runSync } from '../sync/run.js';
import { openDatabase, type Database } from '../db/open.js';
import { cliLogger, fail, loadConfigOrExit } from './database.js';

/** Without --into: a database `lds_copy` beside the service's own (the embedded PostgreSQL, or DATABASE_URL's server), created if missing. */
const LOCAL_COPY = 'lds_copy';

async function localTarget(): Promise<{ url: string; db: Database }> {
  const config = loadConfigOrExit();
  const db = await openDatabase(config, cliLogger(config), 'client', 1);
  const exists = (await db.pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [LOCAL_COPY])).rowCount === 1;
  if (!exists) await db.pool.query(`CREATE DATABASE ${LOCAL_COPY}`);
  const url = new URL(db.url);
  url.pathname = '/' + LOCAL_COPY;
  return { url: url.toString(), db };
}

const httpUrl = (v: string) => {
  if (!/^https?:\/\/[^/]+/.test(v))
    throw new InvalidArgumentError('--from takes the service address, e.g. http://localhost:8080');
  return v.replace(/\/+$/, '');
};
const pgUrl = (v: string) => {
  if (!/^postgres(ql)?:\/\//.test(v))
    throw new InvalidArgumentError('--into takes a PostgreSQL URL, e.g. postgres://user@localhost:5432/warehouse');
  return v;
};

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      'Copy everything into a PostgreSQL database: the newest bulk file, then the change feed from its cursor (changed bills re-fetched whole). ' +
        'Stores its cursor in the target, so a restart resumes where it stopped. Tables lds_bills, lds_roll_calls, lds_legislators, … hold each record as the API returns it (jsonb).',
    )
    .requiredOption('--from <url>', 'address of the service', httpUrl)
    .requiredOption('--key <key>', 'API key (or LDS_API_KEY)', process.env.LDS_API_KEY)
    .option(
      '--into <url>',
      `target PostgreSQL URL (default: a database ${LOCAL_COPY} on the service's local PostgreSQL, created if missing)`,
      pgUrl,
    )
    .option('--follow', 'keep following the change feed (woken by the event stream) until interrupted')
    .action(async (opts: { from: string; key: string; into?: string; follow?: boolean }) => {
      const local = opts.into ? undefined : await localTarget().catch(fail);
      const into = opts.into ?? local!.url;
      const ac = new AbortController();
      process.once('SIGINT', () => ac.abort());
      process.once('SIGTERM', () => ac.abort());
      try {
        const r = await runSync({ ...opts, into, signal: ac.signal, log: (m) => process.stderr.write(`sync: ${m}\n`) });
        process.stdout.write(
          `${r.loadedSnapshot ? `loaded ${r.records} records, ` : ''}applied ${r.changes} changes; cursor ${r.cursor}` +
            `${local ? ` (into ${LOCAL_COPY})` : ''}\n`,
        );
      } catch (err) {
        if (!ac.signal.aborted) fail(err);
        // Stopped while the first bulk file loaded: that load is one transaction, rolled back, so
        // the target is as it was. Say so (an interrupted command exits 130, as a shell's Ctrl-C).
        process.stdout.write('stopped before the first bulk file was loaded: nothing copied; run it again to start\n');
        process.exitCode = 130;
      } finally {
        await local?.db.close();
      }
    });
}
