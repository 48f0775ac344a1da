// Building the bulk files: one consistent snapshot (snapshot.ts) per run, in which only the
// jurisdictions that changed since the current files are rebuilt, as gzip members of NDJSON and
// their CSV tables (csv.ts), from one pass over the records; the others are unchanged at this
// snapshot, so their files move to its cursor as they are. The all-in-one NDJSON download is the
// concatenation of the members (a valid gzip file: RFC 1952 members), the CSV zips are laid out
// from the tables' files at request time (zip.ts). The jurisdictions are written by lanes that
// share the snapshot (lanes.ts), on worker threads in the compiled service.
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { withSnapshot } from './snapshot.js';
import { cleanup, currentFiles, publish, type StoredFile } from './store.js';
import { tablesOf } from './tables.js';
import { globalRecords } from './records.js';
import type { BulkRecord } from './record-types.js';
import { GLOBAL_SCOPE, writeScope } from './scope.js';
import { writeJurisdictions, type Target } from './lanes.js';

export { GLOBAL_SCOPE } from './scope.js';
/** How long a superseded file stays readable for downloads that started on it. */
export const RETAIN_MS = 60 * 60 * 1000;

/**
 * What tells a jurisdiction changed besides the change log: the count and the sum of row versions
 * (xmin) of its rows in the tables the change log does not cover (people, committees, sessions,
 * hearings, subjects, candidates) and of its bills. Any insert, update or delete moves it.
 */
const SIGNATURE_SQL = `
  WITH v AS (
    SELECT state_id, 'bills' AS t, count(*) AS n, sum(xmin::text::bigint) AS x FROM bills GROUP BY state_id
    UNION ALL SELECT state_id, 'people', count(*), sum(xmin::text::bigint) FROM people GROUP BY state_id
    UNION ALL SELECT state_id, 'committees', count(*), sum(xmin::text::bigint) FROM committees GROUP BY state_id
    UNION ALL SELECT c.state_id, 'members', count(*), sum(m.xmin::text::bigint) FROM committee_members m JOIN committees c USING (committee_id) GROUP BY c.state_id
    UNION ALL SELECT state_id, 'sessions', count(*), sum(xmin::text::bigint) FROM sessions GROUP BY state_id
    UNION ALL SELECT state_id, 'hearings', count(*), sum(xmin::text::bigint) FROM hearings GROUP BY state_id
    UNION ALL SELECT state_id, 'subjects', count(*), sum(xmin::text::bigint) FROM subjects GROUP BY state_id
    UNION ALL SELECT s.state_id, 'candidates', count(*), sum(c.xmin::text::bigint) FROM candidates c JOIN states s ON s.state_abbr::text = c.state GROUP BY s.state_id
  )
  SELECT s.state_id, s.state_abbr::text AS state_abbr,
    coalesce(sum(v.n) FILTER (WHERE v.t = 'bills'), 0)::int AS bills,
    md5(coalesce(string_agg(v.t || ':' || v.n || ':' || v.x, ',' ORDER BY v.t), '')) AS signature
  FROM states s LEFT JOIN v ON v.state_id = s.state_id GROUP BY s.state_id, s.state_abbr ORDER BY s.state_abbr`;

/** Whether a scope has its NDJSON file and every CSV table (files written before CSV existed have none). */
function hasEveryTable(files: StoredFile[], scope: string): boolean {
  const have = new Set(files.filter((f) => f.scope === scope && f.format === 'csv').map((f) => f.part));
  return tablesOf(scope === GLOBAL_SCOPE).every((t) => have.has(t.name));
}

interface Candidate extends Target {
  /** its bill count (lanes take the largest first) */
  bills: number;
}

export interface BuildResult {
  cursor: string;
  /** scopes whose files were rebuilt */
  built: string[];
  /** bytes written */
  bytes: number;
}

/**
 * One build: takes a snapshot, rebuilds the changed jurisdictions (all of them with `force`) and
 * publishes them, every current file moving to the snapshot's cursor. Reads run on one client of
 * `pool` inside the snapshot; the bytes are written through other connections of `pool`. An
 * aborted build publishes nothing (its unfinished files are removed by the next one).
 */
export interface BuildOptions {
  force?: boolean;
  signal?: AbortSignal;
  /** the database's URL: lanes on worker threads open connections of their own (none: lanes in this thread) */
  databaseUrl?: string;
  /** how many lanes write jurisdictions at once (default lanes.ts LANES) */
  lanes?: number;
}

/**
 * Writes the targets' files in lanes reading the snapshot of `client`'s transaction, exported to
 * them; returns the new file ids.
 */
export async function writeInSnapshot(
  pool: Pool,
  client: PoolClient,
  targets: Target[],
  log: Logger,
  opts: BuildOptions = {},
): Promise<number[]> {
  if (targets.length === 0) return [];
  const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
  const fresh: number[] = [];
  await writeJurisdictions(
    pool,
    rows[0].id,
    targets,
    (b) => {
      fresh.push(...b.fileIds);
      log.debug({ scope: b.scope }, 'bulk file written');
    },
    opts,
  );
  return fresh;
}

export async function buildSnapshots(pool: Pool, log: Logger, opts: BuildOptions = {}): Promise<BuildResult> {
  await cleanup(pool, RETAIN_MS);
  const files = await currentFiles(pool);
  const current = new Map(files.filter((f) => f.format === 'ndjson').map((f) => [f.scope, f]));
  const complete = (scope: string) => hasEveryTable(files, scope);
  const client = await pool.connect();
  try {
    return await withSnapshot(client, async (snap) => {
      const states = (await client.query<Candidate>(SIGNATURE_SQL)).rows;
      const cursors = [...current.values()].map((f) => f.feed_cursor).sort();
      // Bills whose change rows move no bill row (a new text, vote or amendment) show in the change log.
      const logged =
        cursors.length === 0
          ? new Set<number>()
          : new Set(
              (
                await client.query<{ state_id: number }>(
                  'SELECT DISTINCT state_id FROM changes WHERE changed_at > $1::timestamptz AND changed_at <= $2::timestamptz',
                  [cursors[0], snap.cursor],
                )
              ).rows.map((r) => r.state_id),
            );
      const targets = states.filter((s) => {
        const prev = current.get(s.state_abbr);
        return (
          opts.force || !prev || prev.signature !== s.signature || logged.has(s.state_id) || !complete(s.state_abbr)
        );
      });
      const largestFirst = [...targets].sort((a, b) => b.bills - a.bills);
      const fresh = await writeInSnapshot(pool, client, largestFirst, log, opts);
      // The nationwide member is small: rebuilt when its content differs.
      const topics: BulkRecord[][] = [];
      for await (const batch of globalRecords(client)) topics.push(batch);
      const globalSig = createHash('sha256').update(JSON.stringify(topics)).digest('hex');
      const globalBuilt = opts.force || current.get(GLOBAL_SCOPE)?.signature !== globalSig || !complete(GLOBAL_SCOPE);
      if (globalBuilt)
        fresh.push(
          ...(await writeScope(
            pool,
            GLOBAL_SCOPE,
            globalSig,
            (async function* () {
              yield* topics;
            })(),
          )),
        );
      await publish(pool, fresh, snap.cursor, snap.takenAt);
      const bytes = (
        await pool.query<{ n: number }>(
          'SELECT coalesce(sum(size), 0)::bigint AS n FROM bulk_files WHERE file_id = ANY($1::bigint[])',
          [fresh],
        )
      ).rows[0].n;
      return {
        cursor: snap.cursor,
        built: targets.map((t) => t.state_abbr).concat(globalBuilt ? [GLOBAL_SCOPE] : []),
        bytes,
      };
    });
  } finally {
    client.release();
  }
}
