// The records of a bulk file, each exactly what the API returns for it, read through the API's own
// repository functions (no second copy of any query): a bill as GET /v1/bills/{id}?include=all, a
// roll call as GET /v1/votes/{id} with its member votes (GET /v1/votes/{id}/details) under
// `member_votes` (assembled as text from their parts, member-votes.ts), a committee as in
// GET /v1/committees with its members (…/members) under `members`, and legislators, sessions,
// hearings, subjects, candidates and topics as their lists.
import type { Queryable } from '../db/pool.js';
import { billsOfSession } from '../api/bills/repository.js';
import { embedParts, PART_NAMES } from '../api/bills/parts.js';
import { roster } from '../api/legislators/repository.js';
import { committeeMembers, listCommittees } from '../api/committees/repository.js';
import { listSessions } from '../api/reference/repository.js';
import { listHearings } from '../api/hearings/repository.js';
import { listSubjects } from '../api/subjects/repository.js';
import { listCandidates } from '../api/candidates/repository.js';
import { listTopics } from '../api/topics/repository.js';
import { NO_MEMBER_VOTES, type MemberVoteText } from './member-votes.js';
import type { BulkRecord, RecordType } from './record-types.js';

/**
 * Bills read (with all their parts) per round trip set. The V8 heap holds two batches (one read
 * while the other is written) and their text, and what of them outlives two scavenges is promoted
 * and waits for a full collection: on the 1M corpus 100 peaked at 198–202 MiB RSS, 250 at 236–275
 * MiB, in the same time (bench/results/bulk-batch-size.json, before the build had lanes). With two
 * lanes, on NY + US (a tenth of the corpus) taking turns with 100 (bench/results/bulk-batch-75.json):
 * 75 peaked at 182–183 MiB against 187–189 in 93–99 s against 88–99 s; 50 at 175 MiB against
 * 186, but in 99–111 s against 91–94 s, with a quarter more PostgreSQL CPU (twice the statements)
 * and the NDJSON larger (bills and their roll calls alternate more often, and gzip's 32 KiB window
 * finds less of the same kind to refer to).
 */
const BILL_BATCH = 75;
/** No list limit: a jurisdiction's whole set. */
const ALL = 2_000_000_000;

export interface Jurisdiction {
  state_id: number;
  state_abbr: string;
}

/** A jurisdiction's records other than its bills and roll calls: the head block of its files. */
export async function* headRecords(db: Queryable, j: Jurisdiction): AsyncGenerator<BulkRecord[]> {
  const list = (type: RecordType, rows: Array<Record<string, unknown>>) => rows.map((data) => ({ type, data }));
  yield list('session', await listSessions(db, j.state_id, ALL));
  yield list('legislator', await roster(db, { stateId: j.state_id, limit: ALL, offset: 0 }));
  // a committee record carries its members (the bulk file's committees with members)
  const committees = (await listCommittees(db, { stateId: j.state_id, limit: ALL })).map((c) => ({
    ...c,
    members: [] as unknown[],
  }));
  const members = new Map<number, unknown[]>(committees.map((c) => [c.committee_id, c.members]));
  if (members.size)
    for (const m of await committeeMembers(db, [...members.keys()])) members.get(m.committee_id)?.push(m);
  yield list('committee', committees);
  yield list('hearing', await listHearings(db, { stateId: j.state_id, limit: ALL }));
  yield list('subject', await listSubjects(db, { stateId: j.state_id, limit: ALL }));
  yield list('candidate', await listCandidates(db, { state: j.state_abbr, limit: ALL, offset: 0 }));
}

/**
 * The `count` bills of a session after bill id `after` (with all their parts), each batch followed
 * by its roll calls. The caller counted them in the same snapshot, so the last batch ends exactly
 * at the block's last bill.
 */
export async function* billRecords(
  db: Queryable,
  session: number,
  after: number,
  count: number,
  memberVotes: MemberVoteText,
): AsyncGenerator<BulkRecord[]> {
  for (let left = count; left > 0;) {
    const bills = await billsOfSession(db, session, after, Math.min(BILL_BATCH, left));
    if (bills.length === 0) return;
    left -= bills.length;
    after = bills[bills.length - 1].bill_id as number;
    await embedParts(db, bills as Array<{ bill_id: number }>, PART_NAMES);
    const rollCalls = bills.flatMap((b) =>
      (b as unknown as { votes: Array<Record<string, unknown>> }).votes.map((v) => ({ ...v })),
    );
    yield bills.map((data) => ({ type: 'bill' as const, data }));
    yield await withMemberVotes(db, rollCalls, memberVotes);
  }
}

/** Nationwide records (not tied to one jurisdiction). */
export async function* globalRecords(db: Queryable): AsyncGenerator<BulkRecord[]> {
  yield (await listTopics(db)).map((data) => ({ type: 'topic' as const, data }));
}

/** Roll call records, each with its member votes (GET /v1/votes/{id}/details) as text under `member_votes`. */
async function withMemberVotes(
  db: Queryable,
  rollCalls: Array<Record<string, unknown>>,
  text: MemberVoteText,
): Promise<BulkRecord[]> {
  const lists = await text.of(
    db,
    rollCalls.map((rc) => rc.roll_call_id as number),
  );
  return rollCalls.map((data) => ({
    type: 'roll_call',
    data,
    rendered: lists.get(data.roll_call_id as number) ?? NO_MEMBER_VOTES,
  }));
}
