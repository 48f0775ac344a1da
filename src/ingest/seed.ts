// Demo corpus generator (`lds seed`): deterministic (seeded), all 52 jurisdictions, every
// resource, and the edge cases the spec names. Rows are bulk loaded with COPY in one transaction
// per table batch; bills are generated and loaded in batches so memory stays bounded at any scale.
//
// Re-seeding replaces the demo corpus: when the database holds only demo data, the domain tables
// are truncated (keys, usage, subscriptions and deliveries are never touched) and the change-log
// rows of demo bills are deleted. A database holding imported data is refused, so demo bills never
// mix with real ones.
import cliProgress from 'cli-progress';
import type { Pool, PoolClient } from '../db/pool.js';
import { withTransaction } from '../db/pool.js';
import { recordChanges } from '../changes/record.js';
import { generateBill, stateWeights, type World } from './seed/bills.js';
import { generateCandidates } from './seed/candidates.js';
import { generateCommittees } from './seed/committees.js';
import { DEMO_ID_BASE, DEMO_ID_END, loadContext } from './seed/context.js';
import { writeBatch, type CopyBatch, type CopyBuffer } from './seed/copy.js';
import { generateHearings } from './seed/hearings.js';
import { generatePeople } from './seed/people.js';
import { generateSessions } from './seed/sessions.js';
import { generateSubjects } from './seed/subjects.js';
import { billBuffers, referenceBuffers, tailBuffers } from './seed/tables.js';

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
}

/** Bills recorded as NewBill changes, so a fresh start shows recent activity without a flood. */
export const RECENT_CHANGES = 200;
const BATCH = 2_000;

const DOMAIN_TABLES = ['bills', 'sessions', 'people', 'committees', 'hearings', 'candidates', 'subjects', 'text_diff_queue'];
const SOURCED_TABLES = ['bills', 'sessions', 'people', 'committees'];

async function clearDemo(db: Pool): Promise<void> {
  for (const t of SOURCED_TABLES) {
    const { rows } = await db.query(`SELECT 1 FROM ${t} WHERE source <> 'demo' LIMIT 1`);
    if (rows.length) throw new Error(`the database holds imported data (${t} with source other than 'demo'); seed the demo corpus into a separate database`);
  }
  await withTransaction(db, async (c) => {
    // CASCADE reaches every table referencing these (sub-resources, votes, members, links).
    await c.query(`TRUNCATE ${DOMAIN_TABLES.join(', ')} CASCADE`);
    await c.query('DELETE FROM changes WHERE bill_id >= $1 AND bill_id < $2', [DEMO_ID_BASE, DEMO_ID_END]);
  });
}

async function load(db: Pool, batches: CopyBatch[], counts: Record<string, number>): Promise<void> {
  await withTransaction(db, async (c: PoolClient) => {
    for (const b of batches) counts[b.table] = (counts[b.table] ?? 0) + (await writeBatch(c, b));
  });
}

const takeAll = (bufs: Record<string, CopyBuffer>) => Object.values(bufs).map((b) => b.take());

export async function seed(db: Pool, opts: SeedOptions = {}): Promise<SeedResult> {
  const total = opts.bills ?? 30_000;
  const log = opts.log ?? (() => undefined);
  if (total > DEMO_ID_END - DEMO_ID_BASE - 1) throw new Error('too many bills for the demo id range');
  const counts: Record<string, number> = {};
  const t0 = Date.now();
  const phase = (name: string) => log(`seed: ${name} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await clearDemo(db);
  phase('cleared');
  const ctx = await loadContext(db, opts.seed ?? 1);

  const ref = referenceBuffers();
  const sessions = generateSessions(ctx, ref.sessions);
  const people = generatePeople(ctx, ref.people);
  const committees = generateCommittees(ctx, people, ref.committees, ref.committee_members);
  const subjects = generateSubjects(ctx, ref.subjects, ref.subject_topics);
  phase('reference generated');
  await load(db, takeAll(ref), counts);
  phase('reference loaded');

  const w: World = {
    ctx, sessions, people, committees, subjects, stateWeights: stateWeights(ctx),
    ids: { text: DEMO_ID_BASE, rollCall: DEMO_ID_BASE, amendment: DEMO_ID_BASE, supplement: DEMO_ID_BASE, citation: DEMO_ID_BASE, analysis: DEMO_ID_BASE },
    numbers: new Map(), companions: new Map(), sample: new Map(),
  };
  const bar = opts.progress ? new cliProgress.SingleBar({ format: 'seeding bills [{bar}] {percentage}% {value}/{total} | {eta}s left', hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(total, 0);
  // The most recently updated bills, for the change log (kept as a small sorted window).
  let recent: { bill_id: number; updated: number; state_id: number; status: number }[] = [];
  const bufs = billBuffers();
  let pending: Promise<void> = Promise.resolve();
  let lastLine = Date.now();
  for (let i = 0; i < total; i++) {
    const b = generateBill(w, bufs, i);
    if (recent.length < RECENT_CHANGES || b.updated > recent[recent.length - 1].updated) {
      recent.push(b);
      recent.sort((x, y) => y.updated - x.updated || y.bill_id - x.bill_id);
      if (recent.length > RECENT_CHANGES) recent = recent.slice(0, RECENT_CHANGES);
    }
    if ((i + 1) % BATCH === 0 || i + 1 === total) {
      // Load this batch while the next one is generated: generation yields to the event loop
      // every few hundred bills so the COPY streams keep moving.
      const batch = takeAll(bufs);
      await pending;
      pending = load(db, batch, counts);
      bar?.update(i + 1);
      if (!bar && Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        log(`seed: ${i + 1} / ${total} bills`);
      }
    }
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
  }
  await pending;
  bar?.stop();
  phase('bills loaded');

  const tail = tailBuffers();
  generateHearings(ctx, committees, w.sample, tail.hearings);
  generateCandidates(ctx, people, tail.candidates, tail.candidacies);
  await load(db, takeAll(tail), counts);
  phase('hearings and candidates loaded');

  await withTransaction(db, async (c) => {
    await c.query(`UPDATE subjects s SET bill_count = n FROM (SELECT subject_id, count(*)::int AS n FROM bill_subjects GROUP BY subject_id) x WHERE x.subject_id = s.subject_id`);
    // Citation and analysis ids were given explicitly (for determinism); move the sequences past them.
    await c.query(`SELECT setval(pg_get_serial_sequence('bill_citations', 'id'), greatest((SELECT max(id) FROM bill_citations), 1))`);
    await c.query(`SELECT setval(pg_get_serial_sequence('bill_analyses', 'id'), greatest((SELECT max(id) FROM bill_analyses), 1))`);
    // Oldest first, so the feed (newest first) shows the most recently updated bill on top.
    const changes = [...recent].reverse().map((r) => ({ bill_id: r.bill_id, state_id: r.state_id, reason: 'NewBill' as const, new_status: r.status }));
    counts.changes = await recordChanges(c, changes);
  });
  await db.query(`ANALYZE ${[...DOMAIN_TABLES, 'bill_texts', 'bill_sponsors', 'bill_history', 'roll_calls', 'roll_call_votes', 'bill_subjects', 'bill_topics', 'committee_members', 'candidacies'].join(', ')}`);
  phase('done');
  return { counts };
}
