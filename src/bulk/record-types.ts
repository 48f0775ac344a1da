// The records of the bulk files as the writers take them (records.ts reads them, scope.ts,
// csv.ts and tables.ts write them), with nothing to import: the readers and the writers depend
// on it and not on each other.

/** Record types, and the resource name each is counted under. */
export const RECORD_TYPES = {
  session: 'sessions',
  legislator: 'legislators',
  committee: 'committees',
  hearing: 'hearings',
  subject: 'subjects',
  candidate: 'candidates',
  bill: 'bills',
  roll_call: 'roll_calls',
  topic: 'topics',
} as const;
export type RecordType = keyof typeof RECORD_TYPES;

export interface BulkRecord {
  type: RecordType;
  data: Record<string, unknown>;
  /** a list of the record already written as text (a roll call's member votes), after data's keys */
  rendered?: RenderedList;
}

/** A list of a record already written as text: the last key of its JSON and its own table's lines. */
export interface RenderedList {
  /** the record's key (the JSON record's last) */
  key: string;
  /** its CSV table */
  table: string;
  /** the list as a JSON array */
  json: string;
  /** the table's lines, each ending in LF */
  csv: string;
  rows: number;
}
