// `lds import <kind> <path>` and `lds topics unmapped`.
import type { Command } from 'commander';
import { withDatabase } from './database.js';
import { unmappedSubjects } from '../topics/assign.js';
import type { Pool } from '../db/pool.js';
import type { ImportReport, ReportOptions } from '../ingest/write/report.js';
import { importLegiscan } from '../ingest/legiscan/import.js';
import { importOpenStatesPeople } from '../ingest/openstates/import.js';
import { importCongressLegislators } from '../ingest/congress/legislators.js';
import { importCongress } from '../ingest/congress/bills.js';

export const IMPORTERS: Record<string, (pool: Pool, target: string, opts: ReportOptions) => Promise<ImportReport>> = {
  legiscan: importLegiscan,
  'openstates-people': importOpenStatesPeople,
  'congress-legislators': importCongressLegislators,
  congress: importCongress,
};

export function registerIngestCommands(program: Command): void {
  program
    .command('import')
    .description(
      'Import real legislative data. Kinds: legiscan (dataset folder of JSON/XML or getDataset zip), openstates-people (people repo data/ folder), congress-legislators (YAML folder), congress (unitedstates/congress data folder). Re-running is idempotent; changes are recorded only where data changed.',
    )
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
        const report = await withDatabase((db) => run(db.pool, target, { progress: !opts.quiet }));
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
      const rows = await withDatabase((db) => unmappedSubjects(db.pool, Math.max(1, Number(opts.limit) || 100)));
      if (opts.json) return void process.stdout.write(JSON.stringify(rows) + '\n');
      if (rows.length === 0) return void process.stdout.write('every subject reaches a topic\n');
      for (const r of rows)
        process.stdout.write(`${String(r.bill_count).padStart(7)}  ${(r.state ?? '--').padEnd(3)} ${r.subject_name}\n`);
    });
}
