// The `lds` command: every subcommand, registered on one commander program.
import { Command } from 'commander';
import { settingsTable } from '../config.js';
import { migrate } from '../db/migrate.js';
import { seed } from '../demo/seed.js';
import { registerIngestCommands } from './import.js';
import { registerSimulateCommand } from './simulate.js';
import { registerSyncCommand } from './sync.js';
import { fail, loadConfigOrExit, positiveInt, withDatabase } from './database.js';
import { registerKeyCommands } from './keys.js';
import { registerServeCommand } from './serve.js';

export function buildCli(): Command {
  const program = new Command();
  program
    .name('lds')
    .description(
      'Legislative Data Service: HTTP/JSON API over US legislative data with a realtime gateway.\nSettings come from the environment; run `lds config` to list them.',
    )
    .showHelpAfterError();

  registerServeCommand(program);
  program
    .command('migrate')
    .description('Apply pending database migrations (also done at every start).')
    .action(async () => {
      await withDatabase(async (db, _config, log) => {
        const applied = await migrate(db.pool, log);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
      }).catch(fail);
    });

  program
    .command('seed')
    .description(
      'Generate the deterministic demo corpus (all 52 jurisdictions, every resource). Replaces existing demo data.',
    )
    .option(
      '--scale <bills>',
      'number of bills to generate (default 30000; up to 1000000 for benchmarks)',
      positiveInt('--scale'),
    )
    .option('--seed <n>', 'PRNG seed: the same seed gives the same rows', positiveInt('--seed'), 1)
    .action(async (opts: { scale?: number; seed: number }) => {
      await withDatabase(async (db) => {
        const started = Date.now();
        const result = await seed(db.pool, {
          bills: opts.scale ?? 30_000,
          seed: opts.seed,
          progress: process.stderr.isTTY === true,
          log: (m) => process.stderr.write(m + '\n'),
        });
        process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        for (const [table, n] of Object.entries(result.counts))
          process.stdout.write(`  ${table.padEnd(20)} ${n.toLocaleString('en-US')}\n`);
      }).catch(fail);
    });

  registerKeyCommands(program);

  program
    .command('config')
    .description(
      'List every setting (environment variable, default, accepted values) and check the current environment.',
    )
    .action(() => {
      loadConfigOrExit();
      for (const s of settingsTable())
        process.stdout.write(`${s.env.padEnd(26)} ${s.default.padEnd(14)} ${s.description} (${s.accepts})\n`);
    });

  registerIngestCommands(program);
  registerSimulateCommand(program);
  registerSyncCommand(program);
  return program;
}
