// The CSV tables of the bulk downloads: one per resource, and one per nested list that has rows of
// its own (a bill's parts, a roll call's member votes, a committee's members), keyed by its
// parent's id. Column names and order are the API's response schemas, so the tables follow the
// API when it gains a field; a nested value that has no table of its own (a hearing's
// participants, a text change's highlights) is one JSON-encoded cell.
import type { TObject } from 'typebox';
import { BillSchema } from '../api/bills/schemas.js';
import { PARTS, PART_NAMES, type PartName } from '../api/bills/parts.js';
import { MemberVoteRow } from '../api/votes/schemas.js';
import { LegislatorSchema } from '../api/legislators/schemas.js';
import { CommitteeMemberSchema, CommitteeSchema } from '../api/committees/schemas.js';
import { SessionSchema } from '../api/reference/schemas.js';
import { HearingSchema } from '../api/hearings/schemas.js';
import { SubjectListRow } from '../api/subjects/schemas.js';
import { CandidateSchema } from '../api/candidates/schemas.js';
import { TopicSchema } from '../api/topics/schemas.js';
import type { BulkRecord, RenderedList } from './record-types.js';

type Row = Record<string, unknown>;

export interface Table {
  /** file name without .csv */
  name: string;
  columns: string[];
  /** the parent's id column, prepended where the API's rows do not carry it */
  parentKey?: string;
}

const table = (name: string, schema: TObject, parentKey?: string): Table => {
  const own = Object.keys(schema.properties);
  return { name, columns: parentKey && !own.includes(parentKey) ? [parentKey, ...own] : own, parentKey };
};

/** A bill's `votes` part is the roll calls themselves: roll_calls.csv, not a table of its own. */
const PART_TABLES = PART_NAMES.filter((p) => p !== 'votes');
const partTable = (p: PartName) => `bill_${p}`;

/** Every table, in the order a zip lists them. */
export const TABLES: Table[] = [
  table('bills', BillSchema),
  ...PART_TABLES.map((p) => table(partTable(p), PARTS[p], 'bill_id')),
  table('roll_calls', PARTS.votes),
  table('roll_call_votes', MemberVoteRow, 'roll_call_id'),
  table('legislators', LegislatorSchema),
  table('committees', CommitteeSchema),
  table('committee_members', CommitteeMemberSchema, 'committee_id'),
  table('sessions', SessionSchema),
  table('hearings', HearingSchema),
  table('subjects', SubjectListRow),
  table('candidates', CandidateSchema),
  table('topics', TopicSchema),
];
const BY_NAME = new Map(TABLES.map((t) => [t.name, t]));
export const tableNamed = (name: string): Table => BY_NAME.get(name)!;

/** The tables a scope's files hold: the nationwide scope has the topics, a jurisdiction everything else. */
export const tablesOf = (global: boolean): Table[] => TABLES.filter((t) => (t.name === 'topics') === global);

/**
 * Rows by table name, in record order: each a row already in its table's column order, or a
 * record's list already written as the table's lines.
 */
export type TableRows = Map<string, Array<unknown[] | RenderedList>>;

function entriesOf(out: TableRows, name: string) {
  let rows = out.get(name);
  if (!rows) out.set(name, (rows = []));
  return rows;
}

function add(out: TableRows, name: string, row: Row, parentId?: unknown): void {
  const t = BY_NAME.get(name)!;
  const values = t.columns.map((c) => row[c]);
  if (t.parentKey && parentId !== undefined && !(t.parentKey in row)) values[0] = parentId;
  entriesOf(out, name).push(values);
}

/** Splits records into table rows (a bill into bills and its parts' tables, and so on). */
export function tableRows(records: BulkRecord[], out: TableRows = new Map()): TableRows {
  for (const { type, data, rendered } of records) {
    if (rendered) entriesOf(out, rendered.table).push(rendered);
    switch (type) {
      case 'bill':
        add(out, 'bills', data);
        for (const p of PART_TABLES) for (const r of data[p] as Row[]) add(out, partTable(p), r, data.bill_id);
        break;
      case 'roll_call':
        add(out, 'roll_calls', data);
        if (!rendered) for (const r of data.member_votes as Row[]) add(out, 'roll_call_votes', r, data.roll_call_id);
        break;
      case 'committee':
        add(out, 'committees', data);
        for (const r of data.members as Row[]) add(out, 'committee_members', r, data.committee_id);
        break;
      default:
        add(out, RESOURCE_TABLE[type], data);
    }
  }
  return out;
}

const RESOURCE_TABLE = {
  session: 'sessions',
  legislator: 'legislators',
  hearing: 'hearings',
  subject: 'subjects',
  candidate: 'candidates',
  topic: 'topics',
} as Record<string, string>;
