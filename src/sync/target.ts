// The copy a sync keeps: one table per resource in the target PostgreSQL, each record as the API
// returns it (jsonb) under its id, plus the sync's own cursor. Everything a step writes, records
// and cursor, commits in one transaction, so a sync killed at any moment restarts from a state
// where the records and the cursor agree.
import pg from 'pg';

/** resource → [table, id expression over the record `r`] */
export const TABLES = {
  bill: ['lds_bills', `(r->>'bill_id')::int`],
  roll_call: ['lds_roll_calls', `(r->>'roll_call_id')::int`],
  legislator: ['lds_legislators', `(r->>'people_id')`],
  committee: ['lds_committees', `(r->>'committee_id')::int`],
  session: ['lds_sessions', `(r->>'session_id')::int`],
  hearing: ['lds_hearings', `(r->>'hearing_id')`],
  subject: ['lds_subjects', `(r->>'subject_id')`],
  candidate: ['lds_candidates', `(r->>'id')`],
  topic: ['lds_topics', `(r->>'slug')`],
} as const;
export type Resource = keyof typeof TABLES;

const SCHEMA = `
  ${Object.values(TABLES)
    .map(([t, id]) => `CREATE TABLE IF NOT EXISTS ${t} (id text PRIMARY KEY, data jsonb NOT NULL); -- ${id}`)
    .join('\n  ')}
  -- the bills of a session, counted to choose how to re-fetch them (run.ts)
  CREATE INDEX IF NOT EXISTS lds_bills_session ON lds_bills (((data->>'session_id')::int));
  CREATE TABLE IF NOT EXISTS lds_sync_state (
    id int PRIMARY KEY CHECK (id = 1),
    source text NOT NULL,
    feed_cursor text NOT NULL,
    snapshot_generated_at text,
    updated_at timestamptz NOT NULL DEFAULT now()
  );`;

export interface SyncState {
  source: string;
  feed_cursor: string;
  snapshot_generated_at: string | null;
}

export async function openTarget(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, application_name: 'lds-sync' });
  await c.connect();
  await c.query(SCHEMA);
  return c;
}

export async function readState(c: pg.Client): Promise<SyncState | undefined> {
  return (
    await c.query<SyncState>('SELECT source, feed_cursor, snapshot_generated_at FROM lds_sync_state WHERE id = 1')
  ).rows[0];
}

export async function writeState(c: pg.ClientBase, s: SyncState): Promise<void> {
  await c.query(
    `INSERT INTO lds_sync_state (id, source, feed_cursor, snapshot_generated_at) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET source = $1, feed_cursor = $2, snapshot_generated_at = coalesce($3, lds_sync_state.snapshot_generated_at), updated_at = now()`,
    [s.source, s.feed_cursor, s.snapshot_generated_at],
  );
}

/** Empties every resource table (before loading a snapshot, in the same transaction). */
export async function clearAll(c: pg.ClientBase): Promise<void> {
  await c.query(
    `TRUNCATE ${Object.values(TABLES)
      .map(([t]) => t)
      .join(', ')}`,
  );
}

/** Inserts or replaces records of one resource (one statement for the batch). */
export async function upsert(c: pg.ClientBase, resource: Resource, records: unknown[]): Promise<void> {
  if (records.length === 0) return;
  const [table, id] = TABLES[resource];
  await c.query(
    `INSERT INTO ${table} (id, data) SELECT ${id}, r FROM jsonb_array_elements($1::jsonb) AS r
     ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
    [JSON.stringify(records)],
  );
}

/** Ids of the roll calls already held, among these. */
export async function heldRollCalls(c: pg.ClientBase, ids: number[]): Promise<Set<number>> {
  const { rows } = await c.query<{ id: string }>('SELECT id FROM lds_roll_calls WHERE id = ANY($1::text[])', [
    ids.map(String),
  ]);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Of these bill ids, those held, each with its session and how many bills the copy holds of that session. */
export async function billSessions(
  c: pg.ClientBase,
  ids: number[],
): Promise<Array<{ id: number; session_id: number; bills: number }>> {
  const { rows } = await c.query<{ id: number; session_id: number; bills: number }>(
    `WITH w AS (SELECT id::int AS id, (data->>'session_id')::int AS session_id FROM lds_bills WHERE id = ANY($1::text[])),
          n AS (SELECT s.session_id, (SELECT count(*)::int FROM lds_bills b WHERE (b.data->>'session_id')::int = s.session_id) AS bills
                FROM (SELECT DISTINCT session_id FROM w WHERE session_id IS NOT NULL) s)
     SELECT w.id, w.session_id, n.bills FROM w JOIN n USING (session_id)`,
    [ids.map(String)],
  );
  return rows;
}
