// The whole corpus as a sequence of COPY batches, parents before children: reference tables, then
// bills in fixed-size batches, then hearings and candidates. Generation is synchronous and
// strictly in bill order (shared counters such as text and roll-call ids advance bill by bill),
// so the same seed gives the same rows whether it runs in a worker thread or in the caller's.
import type { ChangeInput } from '../../changes/record.js';
import { generateBill, stateWeights, type World } from './bills.js';
import { generateCandidates } from './candidates.js';
import { generateCommittees } from './committees.js';
import { DEMO_ID_BASE, type SeedContext } from './context.js';
import type { CopyBatch, CopyBuffer } from './copy.js';
import { generateHearings } from './hearings.js';
import { generatePeople } from './people.js';
import { generateSessions } from './sessions.js';
import { generateSubjects } from './subjects.js';
import { billBuffers, referenceBuffers, tailBuffers } from './tables.js';

/** Bills recorded as NewBill changes, so a fresh start shows recent activity without a flood. */
export const RECENT_CHANGES = 200;
/** Bills per COPY batch: large enough to keep COPY busy, small enough to bound memory. */
export const BATCH = 2_000;

export interface CorpusStep {
  batches: CopyBatch[];
  /** bills generated so far */
  bills: number;
}

const takeAll = (bufs: Record<string, CopyBuffer>): CopyBatch[] => Object.values(bufs).map((b) => b.take());

export function* corpus(ctx: SeedContext, total: number): Generator<CorpusStep, ChangeInput[]> {
  const ref = referenceBuffers();
  const sessions = generateSessions(ctx, ref.sessions);
  const people = generatePeople(ctx, ref.people);
  const committees = generateCommittees(ctx, people, ref.committees, ref.committee_members);
  const subjects = generateSubjects(ctx, ref.subjects, ref.subject_topics);
  yield { batches: takeAll(ref), bills: 0 };

  const w: World = {
    ctx,
    sessions,
    people,
    committees,
    subjects,
    stateWeights: stateWeights(ctx),
    ids: {
      text: DEMO_ID_BASE,
      rollCall: DEMO_ID_BASE,
      amendment: DEMO_ID_BASE,
      supplement: DEMO_ID_BASE,
      citation: DEMO_ID_BASE,
      analysis: DEMO_ID_BASE,
    },
    numbers: new Map(),
    companions: new Map(),
    sample: new Map(),
  };
  // The most recently updated bills, for the change log (kept as a small sorted window).
  let recent: { bill_id: number; updated: number; state_id: number; status: number }[] = [];
  const bufs = billBuffers();
  for (let i = 0; i < total; i++) {
    const b = generateBill(w, bufs, i);
    if (recent.length < RECENT_CHANGES || b.updated > recent[recent.length - 1].updated) {
      recent.push(b);
      recent.sort((x, y) => y.updated - x.updated || y.bill_id - x.bill_id);
      if (recent.length > RECENT_CHANGES) recent = recent.slice(0, RECENT_CHANGES);
    }
    if ((i + 1) % BATCH === 0 || i + 1 === total) yield { batches: takeAll(bufs), bills: i + 1 };
  }

  const tail = tailBuffers();
  generateHearings(ctx, committees, w.sample, tail.hearings);
  generateCandidates(ctx, people, tail.candidates, tail.candidacies);
  yield { batches: takeAll(tail), bills: total };
  // Oldest first, so the feed (newest first) shows the most recently updated bill on top.
  return [...recent]
    .reverse()
    .map((r) => ({ bill_id: r.bill_id, state_id: r.state_id, reason: 'NewBill' as const, new_status: r.status }));
}
