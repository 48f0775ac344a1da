// `lds import <kind> <path>` and `lds topics unmapped`.
import type { Command } from 'commander';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { unmappedSubjects } from '../topics/assign.js';
import type { Pool } from '../db/pool.js';
import type { ImportReport, ReportOptions } from './report.js';
import { importLegiscan } from './legiscan/import.js';
import { importOpenStatesPeople } from './openstates/import.js';
import { importCongressLegislators } from './congress/legislators.js';
import { importCongress } from './congress/bills.js';

export const IMPORTERS: Record<string, (pool: Pool, target: string, opts: ReportOptions) => Promise<ImportReport>> = {
  legiscan: importLegiscan,
  'openstates-people': importOpenStatesPeople,
  'congress-legislators': importCongressLegislators,
  congress: importCongress,
};

async function withDb<T>(fn: (pool: Pool) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const log = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', { destination: 2 });
  const db = await openDatabase(config, log, 'client', 4);
  try {
    await migrate(db.pool, log);
    return await fn(db.pool);
  } finally {
    await db.close();
  }
}

export function registerIngestCommands(program: Command): void {
  program
    .command('import')
    .description('Import real legislative data. Kinds: legiscan (dataset folder of JSON/XML or getDataset zip), openstates-people (people repo data/ folder), congress-legislators (YAML folder), congress (unitedstates/congress data folder). Re-running is idempotent; changes are recorded only where data changed.')
    .argument('<kind>', Object.keys(IMPORTERS).join(' | '))
    .argument('<path>', 'file or folder to import')
    .option('--quiet', 'no progress output')
    .action(async (kind: string, target: string, opts: { quiet?: boolean }) => {
      const run = IMPORTERS[kind];
      if (!run) {
        process.stderr.write(`lds: unknown import kind "${kind}": use ${Object.keys(IMPORTERS).join(', ')}\n`);
        process.exit(2);
      }
      try {
        const report = await withDb((pool) => run(pool, target, { progress: !opts.quiet }));
        process.stdout.write(report.summary() + '\n');
        process.exitCode = report.failed ? 1 : 0;
      } catch (err) {
        process.stderr.write(`lds: import failed: ${(err as Error).message}\n`);
        process.exit(1);
      }
    });

  const topics = program.command('topics').description('Topic taxonomy maintenance.');
  topics
    .command('unmapped')
    .description('List raw subjects that reach no topic, with bill counts, most used first.')
    .option('--limit <n>', 'rows to show', '100')
    .option('--json', 'print JSON')
    .action(async (opts: { limit: string; json?: boolean }) => {
      const rows = await withDb((pool) => unmappedSubjects(pool, Math.max(1, Number(opts.limit) || 100)));
      if (opts.json) return void process.stdout.write(JSON.stringify(rows) + '\n');
      if (rows.length === 0) return void process.stdout.write('every subject reaches a topic\n');
      for (const r of rows) process.stdout.write(`${String(r.bill_count).padStart(7)}  ${(r.state ?? '--').padEnd(3)} ${r.subject_name}\n`);
    });
}
