// `lds import congress PATH`: unitedstates/congress bill and vote JSON (data/<congress>/bills/**
// and votes/**). Bills with actions (history), sponsor and cosponsors (by bioguide id), committee
// referrals, subjects and summaries; roll calls with member votes (House members by bioguide id,
// Senate members by LIS id). Votes not about a bill (nominations, quorum calls) have no bill to
// hang on: counted as skipped.
import fs from 'node:fs/promises';
import path from 'node:path';
import { withTransaction, type Pool, type Queryable } from '../../db/pool.js';
import { SubjectIndex } from '../../topics/assign.js';
import { BatchWriter, type RecordWrite, type WriteResult } from '../write/batch.js';
import { upsertBill, type BillRecord } from '../write/bills.js';
import { contentHash, nextIds } from '../write/ids.js';
import { latest, utcDay } from '../read/dates.js';
import { congressLadder, type CongressStep } from '../../domain/congress-status.js';
import { congressPerson, foldPlaceholders, PeopleCache, preloadPeople } from './people.js';
import {
  amendments,
  preloadAmendments,
  preloadCommittees,
  referrals,
  resolveRelatedBills,
  type AmendmentIds,
  type CommitteeCache,
} from './parts.js';
import { congressSession } from './session.js';
import { readAhead } from '../read/readahead.js';
import { ImportReport, RecordError, type ReportOptions } from '../write/report.js';
import { upsertRollCall } from '../write/rollcalls.js';
import type { CongressAction, CongressBillJson, CongressSponsor, CongressVoteJson } from './source.js';

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const TYPES: Record<string, number> = { hr: 1, s: 1, hres: 2, sres: 2, hconres: 3, sconres: 3, hjres: 4, sjres: 4 };
/** Vote options → vote_id (1 yea, 2 nay, 3 not voting), and the tally each one counts in. */
const VOTE_IDS: Record<string, 1 | 2 | 3> = {
  yea: 1,
  aye: 1,
  guilty: 1,
  nay: 2,
  no: 2,
  'not guilty': 2,
  'not voting': 3,
  present: 3,
};
const TALLY = ['', 'yea', 'nay', 'nv'] as const;

/**
 * The ladder step of a bill from its status code (src/domain/congress-status.ts); an enacted bill
 * with its law number (`enacted_as`, or the `enacted` action's) is chaptered. An unknown code fails
 * the record rather than being guessed.
 */

/**
 * The chamber an action names, only where the source says it: a vote's `where` ("h"/"s"), a House
 * floor action code (H…, Intro-H) or Intro-S. Other actions (the President's, Congressional Record
 * remarks, most Senate steps, which carry no code) stay body-less (0), never the bill's chamber.
 */
function actionBody(a: CongressAction): number {
  const where = s(a.where);
  if (where === 'h' || where === 's') return where === 'h' ? 114 : 115;
  const code = s(a.action_code);
  if (code === 'Intro-S') return 115;
  return /^(H|Intro-H$)/.test(code) ? 114 : 0;
}
export function congressStatus(d: CongressBillJson): CongressStep {
  const status = s(d.status);
  const law = !!s(d.enacted_as?.number) || (d.actions ?? []).some((a) => s(a.type) === 'enacted' && !!s(a.number));
  const found = congressLadder(status, law);
  if (!found) throw new RecordError(`unknown status "${status}"`, 'status');
  return found;
}

async function dataFiles(dir: string, out: string[] = []): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await dataFiles(p, out);
    else if (e.name === 'data.json') out.push(p);
  }
  return out;
}

/** Run-level caches: people by member id, sessions by congress, committees by THOMAS code, amendment ids by bill. */
interface Cache {
  people: PeopleCache;
  sessions: Map<number, number>;
  committees: CommitteeCache;
  amendments: AmendmentIds;
}

async function sessionFor(db: Queryable, cache: Cache, congress: number): Promise<number> {
  const known = cache.sessions.get(congress);
  if (known !== undefined) return known;
  const id = await congressSession(db, congress);
  cache.sessions.set(congress, id);
  return id;
}

/**
 * Ids of Congress records by their source key (`congress_bill_id`, `congress_vote_id`): the stored
 * ones from one query per run, new ones from the id sequence in blocks. With its id known before
 * the write, a Congress bill goes through the grouped bill write (one statement per batch)
 * instead of one statement per bill, and a vote needs no look-up.
 */
class SourceIds {
  private readonly known = new Map<string, number>();
  private spare: number[] = [];

  constructor(
    private readonly table: 'bills' | 'roll_calls',
    private readonly column: 'bill_id' | 'roll_call_id',
    private readonly key: string,
  ) {}

  async load(db: Queryable): Promise<this> {
    const { rows } = await db.query<{ key: string; id: number }>(
      `SELECT external_ids->>'${this.key}' AS key, ${this.column} AS id FROM ${this.table} WHERE external_ids ? '${this.key}'`,
    );
    for (const r of rows) this.known.set(r.key, r.id);
    return this;
  }

  /** The stored id for a key, if any. */
  stored(key: string): number | undefined {
    return this.known.get(key);
  }

  // An id taken for a record whose batch then rolls back stays its id: sequence values are never reused.
  async get(db: Queryable, key: string): Promise<number> {
    let id = this.known.get(key);
    if (id === undefined) {
      if (!this.spare.length) this.spare = await nextIds(db, 100);
      id = this.spare.shift()!;
      this.known.set(key, id);
    }
    return id;
  }
}

/** Checks done before any write, so a bad file fails alone without disturbing its batch. */
function validateBill(d: CongressBillJson): void {
  const type = s(d.bill_type);
  if (!TYPES[type]) throw new RecordError(`unknown bill_type "${type}"`, 'bill_type');
  if (!d.bill_id || !d.number) throw new RecordError('missing bill_id or number', d.bill_id ? 'number' : 'bill_id');
  congressStatus(d);
}

async function billRecord(db: Queryable, w: BatchWriter, cache: Cache, d: CongressBillJson): Promise<BillRecord> {
  validateBill(d);
  const type = s(d.bill_type);
  const body = type.startsWith('s') ? 115 : 114;
  const session_id = await sessionFor(db, cache, Number(d.congress));
  const sponsorList = [d.sponsor, ...(d.cosponsors ?? []).filter((c) => !c.withdrawn_at)].filter(
    (x): x is CongressSponsor => !!x?.bioguide_id,
  );
  const sponsors = [];
  for (const [i, sp] of sponsorList.entries()) {
    const people_id = await congressPerson(
      db,
      cache.people,
      {
        scheme: 'bioguide',
        id: s(sp.bioguide_id),
        name: s(sp.name),
        first: '',
        last: '',
        party: '',
        state: s(sp.state),
        district: sp.district,
        senate: s(sp.title) === 'Sen' ? true : s(sp.title) ? false : undefined,
      },
      w,
    );
    sponsors.push({
      people_id,
      sponsor_order: i + 1,
      sponsor_type_id: i === 0 && d.sponsor ? 1 : 2,
      committee_sponsor: 0,
      committee_id: 0,
    });
  }
  const actions = d.actions ?? [];
  const history = actions.map((a) => ({
    date: s(a.acted_at).slice(0, 10) || null,
    action: s(a.text),
    body_id: actionBody(a),
    major: s(a.type) === 'action' ? 0 : 1,
  }));
  const refs = await referrals(db, cache.committees, d);
  const status = s(d.status);
  const { status_id, final } = congressStatus(d);
  const subjects = [...new Set([s(d.subjects_top_term), ...(d.subjects ?? [])].filter(Boolean))].map((name) => ({
    name,
  }));
  const last = history[history.length - 1];
  // Resolved to cross-references once every bill is written (resolveRelatedBills).
  const related = (d.related_bills ?? [])
    .filter((r) => s(r.type) === 'bill' && s(r.bill_id))
    .map((r) => ({ bill_id: s(r.bill_id), reason: s(r.reason) }));
  return {
    externalKey: ['congress_bill_id', s(d.bill_id)],
    bill: {
      state_id: 52,
      session_id,
      bill_number: `${type.toUpperCase()}${s(d.number)}`,
      bill_type_id: TYPES[type]!,
      body_id: body,
      current_body_id: body,
      status_id,
      status_date: s(d.status_at).slice(0, 10) || null,
      title: s(d.short_title) || s(d.popular_title) || s(d.official_title),
      description: s(d.official_title),
      state_url: `https://www.congress.gov/bill/${s(d.congress)}th-congress/${type.startsWith('s') ? 'senate' : 'house'}-${type === 'hr' || type === 's' ? 'bill' : type.includes('jres') ? 'joint-resolution' : type.includes('conres') ? 'concurrent-resolution' : 'resolution'}/${s(d.number)}`,
      url: s(d.url),
      change_hash: contentHash(d),
      summary: s(d.summary?.text) || null,
      last_action: last?.action ?? null,
      last_action_date: last?.date ?? null,
      completed: final ? 1 : 0,
      pending_committee_id: null,
      legiscan_status: null,
      external_ids: { congress_bill_id: s(d.bill_id), congress_status: status, related_bills: related },
      source: 'congress',
      // The source's dates: last change of the record, and introduction.
      updated: s(d.updated_at) || utcDay(latest(s(d.status_at).slice(0, 10) || null, last?.date)),
      created: utcDay(s(d.introduced_at).slice(0, 10) || null),
    },
    sponsors,
    history,
    texts: [],
    votes: [],
    amendments: await amendments(db, cache.amendments, s(d.bill_id), d),
    supplements: [],
    sasts: [],
    subjects,
    calendar: [],
    referrals: refs,
  };
}

export async function importCongress(pool: Pool, target: string, opts: ReportOptions = {}): Promise<ImportReport> {
  const report = new ImportReport('congress', opts);
  const subjects = new SubjectIndex();
  // Amendment ids survive a rolled-back batch: each is stored or was drawn from the sequence for
  // that amendment, so reusing it on the replay is right either way.
  const cache: Cache = { people: new PeopleCache(), sessions: new Map(), committees: new Map(), amendments: new Map() };
  const writer = new BatchWriter(pool, report, 500, () => {
    cache.people.clear();
    cache.sessions.clear();
    cache.committees.clear();
    subjects.reset();
  });
  const ids = new SourceIds('bills', 'bill_id', 'congress_bill_id');
  // A data.json parsed as the kind of file its pass reads (a bill or a roll call): the one place
  // this source's records get their type.
  const read = async <T>(file: string): Promise<{ file: string; d?: T; err?: unknown }> => {
    try {
      return { file, d: JSON.parse(await fs.readFile(file, 'utf8')) as T };
    } catch (err) {
      return { file, err: new RecordError(`malformed JSON: ${(err as Error).message}`) };
    }
  };
  // One pass over the files of a kind, in order. Each is checked before any write, so a bad file
  // fails alone without disturbing its batch; `write` then gives its write.
  const pass = async <T>(
    mine: string[],
    entity: string,
    check: (d: T) => void,
    write: (d: T) => Promise<RecordWrite>,
  ): Promise<void> => {
    report.expect(mine.length);
    for await (const { file, d, err } of readAhead(mine, read<T>)) {
      report.tick();
      try {
        if (!d) throw err;
        check(d);
      } catch (e) {
        report.problem(entity, file, e);
        continue;
      }
      await writer.run(entity, file, await write(d));
    }
    await writer.commit();
  };
  try {
    // Placeholders of members whose full record arrived since: folded before the run learns the people.
    const folded = await withTransaction(pool, foldPlaceholders);
    if (folded) report.count('placeholders merged', 'updated', folded);
    await preloadPeople(pool, cache.people);
    await preloadCommittees(pool, cache.committees);
    await preloadAmendments(pool, cache.amendments);
    await ids.load(pool);
    const files = await dataFiles(target);
    const inVotes = (f: string) => f.split(path.sep).includes('votes');
    // Bills before votes, so a vote finds its bill in the same run.
    await pass<CongressBillJson>(
      files.filter((f) => !inVotes(f)),
      'bills',
      validateBill,
      async (d) => async (db, w) => {
        const rec = await billRecord(db, w, cache, d);
        rec.bill.bill_id = await ids.get(db, rec.externalKey![1]);
        return upsertBill(db, rec, subjects, w);
      },
    );
    await resolveRelatedBills(pool);
    let votes: VoteIds | undefined;
    await pass<CongressVoteJson>(
      files.filter(inVotes),
      'roll_calls',
      (d) => {
        if (!s(d.vote_id)) throw new RecordError('missing vote_id', 'vote_id');
      },
      async (d) => {
        // Loaded once the bills are committed: a vote's bill is one the database has.
        votes ??= {
          bills: await new SourceIds('bills', 'bill_id', 'congress_bill_id').load(pool),
          rollCalls: await new SourceIds('roll_calls', 'roll_call_id', 'congress_vote_id').load(pool),
        };
        const v = votes;
        return (db, w) => vote(db, w, cache, v, d);
      },
    );
    await subjects.refreshCounts(pool);
  } finally {
    await writer.close();
    report.finish();
  }
  return report;
}

/** Stored bills (as the votes pass starts) and roll calls by their source keys. */
interface VoteIds {
  bills: SourceIds;
  rollCalls: SourceIds;
}

async function vote(
  db: Queryable,
  w: BatchWriter,
  cache: Cache,
  ids: VoteIds,
  d: CongressVoteJson,
): Promise<WriteResult> {
  const voteId = s(d.vote_id);
  const b = d.bill;
  if (!b) return { skip: 'vote not about a bill (nomination, procedure)' };
  const billId = ids.bills.stored(`${s(b.type)}${s(b.number)}-${s(b.congress)}`);
  if (billId === undefined) return { skip: 'bill not imported' };
  const senate = s(d.chamber) === 's';
  const members = [];
  const tally = { yea: 0, nay: 0, nv: 0, absent: 0 };
  for (const [option, list] of Object.entries(d.votes ?? {})) {
    const vote_id = VOTE_IDS[option.toLowerCase()] ?? 3;
    for (const m of list) {
      if (!m || typeof m !== 'object' || !m.id) continue; // "VP" tie-breakers carry no member id
      const people_id = await congressPerson(
        db,
        cache.people,
        {
          scheme: senate ? 'lis' : 'bioguide',
          id: s(m.id),
          name: s(m.display_name).replace(/\s*\(.*\)$/, ''),
          first: s(m.first_name),
          last: s(m.last_name),
          party: s(m.party),
          state: s(m.state),
          district: undefined,
        },
        w,
      );
      members.push({ people_id, vote_id });
      tally[TALLY[vote_id]]++;
    }
  }
  return upsertRollCall(
    db,
    {
      roll_call_id: await ids.rollCalls.get(db, voteId),
      bill_id: billId,
      body_id: senate ? 115 : 114,
      date: s(d.date).slice(0, 10) || null,
      desc: s(d.question),
      ...tally,
      total: members.length,
      passed: /agreed|passed|confirmed/i.test(s(d.result)) ? 1 : 0,
      state_url: s(d.source_url),
      external_ids: { congress_vote_id: voteId },
      members,
    },
    w,
  );
}
