// Demo corpus generator (`lds seed`): deterministic (seeded), all 52 jurisdictions, every
// resource, and the edge cases the spec names. Rows are bulk loaded with COPY; bills are generated
// and loaded in batches so memory stays bounded at any scale.
//
// The whole seed is one transaction: truncate, drop the loaded tables' secondary indexes and
// foreign keys (see seed/bulk.ts), COPY, rebuild them, record the change log, commit. Readers see
// the old corpus or the new one, never half of it, and a failed seed leaves the database as it was.
//
// Re-seeding replaces the demo corpus: when the database holds only demo data, the domain tables
// are truncated (keys, usage, subscriptions and deliveries are never touched) and the change-log
// rows of demo bills are deleted. A database holding imported data is refused, so demo bills never
// mix with real ones.
import cliProgress from 'cli-progress';
import { withTransaction, type Pool, type PoolClient } from '../db/pool.js';
import { deferIndexes, restoreIndexes } from './seed/bulk.js';
import { recordChanges, type ChangeInput } from '../changes/record.js';
import { DEMO_ID_BASE, DEMO_ID_END, loadContext } from './seed/context.js';
import { writeBatch, type CopyBatch } from './seed/copy.js';
import { corpusSource } from './seed/source.js';

export interface SeedOptions {
  /** number of bills to generate */
  bills?: number;
  /** PRNG seed; same seed, same rows */
  seed?: number;
  progress?: boolean;
  log?: (msg: string) => void;
}

export interface SeedResult {
  counts: Record<string, number>;
  /** seconds spent in COPY per table, and in the phases after it (indexes, foreign keys, commit, analyze) */
  seconds: Record<string, number>;
}

export { RECENT_CHANGES } from './seed/corpus.js';

// roll_call_votes is named because it has no foreign keys (migration 071), so CASCADE does not reach it.
const DOMAIN_TABLES = [
  'bills',
  'sessions',
  'people',
  'committees',
  'hearings',
  'candidates',
  'subjects',
  'roll_call_votes',
  'text_diff_queue',
];
const SOURCED_TABLES = ['bills', 'sessions', 'people', 'committees'];

async function clearDemo(c: PoolClient): Promise<void> {
  for (const t of SOURCED_TABLES) {
    const { rowCount } = await c.query(`SELECT 1 FROM ${t} WHERE source <> 'demo' LIMIT 1`);
    if (rowCount)
      throw new Error(
        `the database holds imported data (${t} with source other than 'demo'); seed the demo corpus into a separate database`,
      );
  }
  // CASCADE reaches every table referencing these (sub-resources, votes, members, links).
  await c.query(`TRUNCATE ${DOMAIN_TABLES.join(', ')} CASCADE`);
  await c.query('DELETE FROM changes WHERE bill_id >= $1 AND bill_id < $2', [DEMO_ID_BASE, DEMO_ID_END]);
}

async function load(
  c: PoolClient,
  batches: CopyBatch[],
  counts: Record<string, number>,
  seconds: Record<string, number>,
): Promise<void> {
  for (const b of batches) {
    const t0 = performance.now();
    counts[b.table] = (counts[b.table] ?? 0) + (await writeBatch(c, b));
    seconds[b.table] = (seconds[b.table] ?? 0) + (performance.now() - t0) / 1000;
  }
}

/** Every table the seed writes; their indexes and foreign keys are rebuilt after the load. */
const LOADED_TABLES = [
  'sessions',
  'people',
  'committees',
  'committee_members',
  'subjects',
  'subject_topics',
  'bills',
  'bill_sponsors',
  'bill_history',
  'bill_texts',
  'roll_calls',
  'roll_call_votes',
  'bill_subjects',
  'bill_topics',
  'amendments',
  'bill_referrals',
  'bill_calendar',
  'supplements',
  'bill_sasts',
  'bill_citations',
  'bill_analyses',
  'hearings',
  'candidates',
  'candidacies',
];

/** Generates and loads every row; returns the counts and the change-log entries to record. */
async function fill(
  c: PoolClient,
  total: number,
  opts: SeedOptions,
  seconds: Record<string, number>,
  phase: (name: string) => void,
): Promise<{ counts: Record<string, number>; changes: ChangeInput[] }> {
  const log = opts.log ?? (() => undefined);
  const counts: Record<string, number> = {};
  const ctx = await loadContext(c, opts.seed ?? 1);
  const bar = opts.progress
    ? new cliProgress.SingleBar(
        { format: 'seeding bills [{bar}] {percentage}% {value}/{total} | {eta}s left', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(total, 0);
  const source = corpusSource(ctx, total);
  let lastLine = Date.now();
  // Time spent waiting for the generator: when it is most of the run, generation is the bottleneck.
  let waited = 0;
  try {
    for (;;) {
      const w0 = Date.now();
      const step = await source.next();
      waited += Date.now() - w0;
      if (step.done) {
        seconds.generator_wait = waited / 1000;
        phase(`rows loaded (${(waited / 1000).toFixed(1)} s of it waiting for the generator)`);
        return { counts, changes: step.value };
      }
      await load(c, step.value.batches, counts, seconds);
      bar?.update(step.value.bills);
      if (!bar && Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        log(`seed: ${step.value.bills} / ${total} bills`);
      }
    }
  } finally {
    bar?.stop();
    await source.return([]);
  }
}

export async function seed(db: Pool, opts: SeedOptions = {}): Promise<SeedResult> {
  const total = opts.bills ?? 30_000;
  const log = opts.log ?? (() => undefined);
  if (total > DEMO_ID_END - DEMO_ID_BASE - 1) throw new Error('too many bills for the demo id range');
  const t0 = performance.now();
  let tPhase = t0;
  const seconds: Record<string, number> = {};
  const phase = (name: string, key?: string) => {
    const now = performance.now();
    if (key) seconds[key] = (now - tPhase) / 1000;
    tPhase = now;
    log(`seed: ${name} at ${((now - t0) / 1000).toFixed(1)} s`);
  };
  const counts = await withTransaction(db, async (c) => {
    // One commit at the end: nothing to gain from waiting on the WAL flush for it. The index
    // rebuilds get enough memory to sort in one pass; lz4 compresses long bill texts faster
    // than the default pglz (where the server has it).
    await c.query(`SET LOCAL synchronous_commit = off`);
    await c.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    const { rowCount: lz4 } = await c.query(
      `SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)`,
    );
    if (lz4) await c.query(`SET LOCAL default_toast_compression = 'lz4'`);
    await clearDemo(c);
    const deferred = await deferIndexes(c, LOADED_TABLES);
    phase('cleared', 'clear');
    const filled = await fill(c, total, opts, seconds, (name) => phase(name));
    const counts = filled.counts;
    tPhase = performance.now();
    await restoreIndexes(c, deferred, (name) => phase(name, name.includes('indexes') ? 'indexes' : 'foreign_keys'));
    await c.query(
      `UPDATE subjects s SET bill_count = n FROM (SELECT subject_id, count(*)::int AS n FROM bill_subjects GROUP BY subject_id) x WHERE x.subject_id = s.subject_id`,
    );
    // Citation and analysis ids were given explicitly (for determinism); move the sequences past them.
    await c.query(
      `SELECT setval(pg_get_serial_sequence('bill_citations', 'id'), greatest((SELECT max(id) FROM bill_citations), 1))`,
    );
    await c.query(
      `SELECT setval(pg_get_serial_sequence('bill_analyses', 'id'), greatest((SELECT max(id) FROM bill_analyses), 1))`,
    );
    counts.changes = await recordChanges(c, filled.changes);
    return counts;
  });
  phase('committed', 'commit');
  await db.query(`ANALYZE ${LOADED_TABLES.join(', ')}`);
  phase('done', 'analyze');
  seconds.total = (performance.now() - t0) / 1000;
  return { counts, seconds };
}
