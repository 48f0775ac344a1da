// `lds import legiscan PATH`: a dataset folder (JSON or XML files), several dataset folders, or
// a getDataset zip. People first, then bills (with every part), roll calls, text documents.
import path from 'node:path';
import type { Pool, Queryable } from '../../db/pool.js';
import { SubjectIndex } from '../../topics/assign.js';
import { BatchWriter } from '../write/batch.js';
import { PipelinedWriter, type RecordWriter } from '../write/pipeline.js';
import { upsertBill } from '../write/bills.js';
import { queuePerson } from '../write/people-group.js';
import { upsertPerson } from '../write/people.js';
import { splitPublishedName } from '../../domain/names.js';
import { queueLegiscanCommittees } from '../write/committees.js';
import { loadReference, type Reference } from '../write/reference.js';
import { ImportReport, RecordError, type ReportOptions } from '../write/report.js';
import { upsertRollCall } from '../write/rollcalls.js';
import { queueTextDocument } from '../write/texts.js';
import { upsertSession } from '../write/sessions.js';
import { legiscanSession } from './session.js';
import {
  bodyFromDesc,
  date,
  decodeDocument,
  list,
  mapBill,
  mapPerson,
  mimeId,
  need,
  num,
  str,
  textTypeId,
} from './map.js';
import { ParsePool } from '../read/parse-pool.js';
import { eachMember } from './members.js';
import {
  FOLDERS,
  countFiles,
  datasetRoots,
  firstPayload,
  firstZipPayload,
  openZipDataset,
  readFolder,
  readZipFolder,
  zipFileCount,
  type Folder,
  type Payload,
} from './read.js';
import type { LegiscanBill, LegiscanMemberVote, LegiscanPerson, LegiscanRollCall, LegiscanText } from './source.js';

const ENTITY: Record<Folder, string> = {
  people: 'people',
  bill: 'bills',
  vote: 'roll_calls',
  text: 'texts',
  amendment: 'amendments',
  supplement: 'supplements',
};

export async function importLegiscan(
  pool: Pool,
  target: string,
  opts: ReportOptions & { batchSize?: number } = {},
): Promise<ImportReport> {
  const report = new ImportReport('legiscan', opts);
  const ref = await loadReference(pool);
  const subjects = new SubjectIndex();
  const peopleMap = new Map<number, number>();
  const sessions = new Set<number>();
  const bills = new Map<number, { state_id: number; body_id: number }>();
  const reset = () => {
    peopleMap.clear();
    sessions.clear();
    bills.clear();
    subjects.reset();
  };
  const size = opts.batchSize ?? 500;
  const writer: RecordWriter = PipelinedWriter.fits(pool)
    ? new PipelinedWriter(pool, report, size, reset)
    : new BatchWriter(pool, report, size, reset);
  const zip = target.toLowerCase().endsWith('.zip') ? await openZipDataset(target) : undefined;
  const roots = zip ? [target] : await datasetRoots(target);
  if (roots.length === 0)
    throw new Error(`no LegiScan dataset (bill/, people/ or vote/ folders, or a .zip) at ${target}`);
  report.expect(zip ? zipFileCount(zip) : await countFiles(roots));
  const ctx = { pool, ref, subjects, writer, report, peopleMap, sessions, bills };
  const parsers = new ParsePool();
  try {
    for (const root of roots) {
      // People files without a state take the dataset's, from its first bill (a zip's too).
      const state = stateOf(zip ? firstZipPayload(zip, 'bill') : await firstPayload(root, 'bill'), ref);
      // The next folder's first files are read and parsed while this folder's last batches commit.
      const open = (folder: Folder) => {
        const source = zip ? readZipFolder(zip, folder, parsers, true) : readFolder(root, folder, parsers, true);
        const first = source.next();
        first.catch(() => undefined); // surfaced when the folder's turn comes
        return { source, first };
      };
      let next = open(FOLDERS[0]!);
      for (const [i, folder] of FOLDERS.entries()) {
        const started = performance.now();
        const { source, first } = next;
        let files = 0;
        for (let r = await first; !r.done; r = await source.next()) {
          await handle(ctx, r.value, state);
          report.tick();
          files++;
        }
        if (i + 1 < FOLDERS.length) next = open(FOLDERS[i + 1]!);
        if (folder === 'people') {
          // Bills look their sponsors up in peopleMap, which a people batch fills when it commits.
          await writer.commit();
          report.phase(ENTITY[folder], started);
        } else {
          // Later folders only need what the records before them left in the caches (a roll call's
          // bill) and what earlier batches wrote, which their own batch's write waits for: the
          // next folder's first batch is built while this one's last batch is written. The phase
          // ends when that batch is committed.
          const { committed } = await writer.cut();
          if (files)
            committed.then(
              () => report.phase(ENTITY[folder], started),
              () => undefined,
            );
        }
      }
    }
    await writer.commit();
    await subjects.refreshCounts(pool);
  } finally {
    await parsers.close();
    await writer.close();
    report.finish();
  }
  return report;
}

interface Ctx {
  pool: Pool;
  ref: Reference;
  subjects: SubjectIndex;
  writer: RecordWriter;
  report: ImportReport;
  peopleMap: Map<number, number>;
  sessions: Set<number>;
  /** bills written in this run: roll call files need their state and chamber */
  bills: Map<number, { state_id: number; body_id: number }>;
}

/** The dataset's state, read from its first bill: the older XML people files carry none. */
function stateOf(bill: LegiscanBill | undefined, ref: Reference): number {
  return bill ? num(bill.state_id) || ref.stateByAbbr.get(str(bill.state).toUpperCase()) || 0 : 0;
}

async function handle(ctx: Ctx, p: Payload, state: number): Promise<void> {
  const entity = ENTITY[p.folder];
  const file = path.relative(process.cwd(), p.file) || p.file;
  const { folder, data, error } = p;
  if (error || !data) return ctx.report.problem(entity, file, error);
  switch (folder) {
    case 'people':
      return ctx.writer.run(entity, file, async (_db, w) => person(ctx, w, data, state));
    case 'bill':
      return ctx.writer.run(entity, file, (db, w) => bill(ctx, db, w, data));
    case 'vote':
      return ctx.writer.run(entity, file, (db, w) => rollCall(ctx, db, w, data));
    case 'text':
      return ctx.writer.run(entity, file, async (_db, w) => text(w, data));
    default:
      return ctx.report.skip(entity, 'documents of this kind are not stored (metadata comes with the bill)');
  }
}

function person(ctx: Ctx, w: BatchWriter, data: LegiscanPerson, state: number) {
  const stateId = num(data.state_id) || state;
  if (!stateId) throw new RecordError('person has no state and the dataset has no bills to infer it from', 'state_id');
  const rec = mapPerson(data, stateId, ctx.ref);
  // A committee sponsor's person file stands for a committee, which must exist as one.
  if (rec.committee_id && rec.name)
    queueLegiscanCommittees(
      w,
      [{ committee_id: rec.committee_id, state_id: rec.state_id, body_id: rec.body_id ?? 0, name: rec.name }],
      ctx.ref,
    );
  return queuePerson(w, rec, (id) => ctx.peopleMap.set(rec.legiscan_id!, id));
}

/**
 * people_id for a LegiScan id seen in a reference (sponsor, member vote) whose person file is not
 * in the dataset: a placeholder carrying what the reference says (a sponsor's name and role, a
 * voter's chamber). A name is never invented: unknown stays empty until a record brings it.
 */
async function personRef(
  ctx: Ctx,
  db: Queryable,
  p: LegiscanPerson,
  stateId: number,
  chamberBody?: number,
): Promise<number> {
  const lid = need(p, 'people_id');
  const known = ctx.peopleMap.get(lid);
  if (known) return known;
  const role = num(p.role_id) || (chamberBody ? (ctx.ref.bodyById.get(chamberBody)?.role_id ?? 0) : 0);
  const rec = mapPerson({ ...p, state_id: num(p.state_id) || stateId, role_id: role }, stateId, ctx.ref);
  if (!rec.name) rec.name = [rec.first_name, rec.middle_name, rec.last_name, rec.suffix].filter(Boolean).join(' ');
  // A committee's name is no person's name: "Joint Budget Committee" has no first name "Joint".
  else if (!rec.first_name && !rec.last_name && !rec.committee_id)
    Object.assign(rec, splitPublishedName(rec.name), { name: rec.name });
  rec.stub = true;
  const { people_id } = await upsertPerson(db, rec);
  ctx.peopleMap.set(lid, people_id);
  return people_id;
}

async function bill(ctx: Ctx, db: Queryable, w: BatchWriter, data: LegiscanBill) {
  const stateId = num(data.state_id) || ctx.ref.stateByAbbr.get(str(data.state).toUpperCase()) || 0;
  // Map first (a malformed bill fails before any write), then create placeholder sponsors for
  // people the dataset has no file for, and put their ids in.
  const { record, session, committees } = mapBill(data, ctx.ref, (id) => ctx.peopleMap.get(id) ?? 0);
  const listed = list(data.sponsors);
  for (const [i, sp] of record.sponsors.entries())
    if (!sp.people_id) sp.people_id = await personRef(ctx, db, listed[i]!, stateId);
  const sid = record.bill.session_id;
  if (!ctx.sessions.has(sid)) {
    await upsertSession(db, legiscanSession(session, record.bill, ctx.ref));
    ctx.sessions.add(sid);
  }
  queueLegiscanCommittees(w, committees, ctx.ref);
  const outcome = await upsertBill(db, record, ctx.subjects, w);
  ctx.bills.set(record.bill.bill_id!, { state_id: record.bill.state_id, body_id: record.bill.body_id });
  return outcome;
}

async function rollCall(ctx: Ctx, db: Queryable, w: BatchWriter, r: LegiscanRollCall) {
  const bill_id = need(r, 'bill_id');
  need(r, 'roll_call_id');
  const b =
    ctx.bills.get(bill_id) ??
    (
      await db.query<{ state_id: number; body_id: number }>('SELECT state_id, body_id FROM bills WHERE bill_id = $1', [
        bill_id,
      ])
    ).rows[0];
  if (!b) return { skip: 'its bill is not in this dataset or the database' };
  const members: { people_id: number; vote_id: number }[] = [];
  const body = num(r.chamber_id) || bodyFromDesc(str(r.desc), b.state_id, b.body_id, ctx.ref);
  // Voters without a person file become placeholders: found in one pass, created after it.
  const unknown: { at: number; entry: LegiscanMemberVote }[] = [];
  eachMember(r, (lid, vote_id, entry) => {
    const people_id = ctx.peopleMap.get(lid);
    if (people_id === undefined) unknown.push({ at: members.length, entry: entry() });
    members.push({ people_id: people_id ?? 0, vote_id });
  });
  for (const { at, entry } of unknown)
    members[at]!.people_id =
      ctx.peopleMap.get(num(entry.people_id)) ?? (await personRef(ctx, db, entry, b.state_id, body));
  const desc = str(r.desc);
  const tally = (k: 'yea' | 'nay' | 'nv' | 'absent') => num(r[k]);
  return upsertRollCall(
    db,
    {
      roll_call_id: need(r, 'roll_call_id'),
      bill_id,
      body_id: body,
      date: date(r.date),
      desc,
      yea: tally('yea'),
      nay: tally('nay'),
      nv: tally('nv'),
      absent: tally('absent'),
      total: num(r.total) || tally('yea') + tally('nay') + tally('nv') + tally('absent'),
      passed: num(r.passed),
      state_url: str(r.state_link),
      external_ids: {},
      members,
    },
    w,
  );
}

function text(w: BatchWriter, t: LegiscanText) {
  const doc = str(t.doc);
  if (!doc) throw new RecordError('missing doc', 'doc');
  const m = mimeId(t);
  const text_id = need(t, 'doc_id');
  const bill_id = need(t, 'bill_id');
  const decoded = decodeDocument(doc, m, str(t.mime));
  return queueTextDocument(w, {
    text_id,
    bill_id,
    type_id: num(t.type_id) || textTypeId(str(t.type)),
    date: date(t.date),
    mime_id: m,
    size: num(t.text_size) || decoded.size,
    hash: str(t.text_hash) || decoded.hash,
    state_url: str(t.state_link),
    content: decoded.text,
  });
}
