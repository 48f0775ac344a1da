// Building the bulk files: one consistent snapshot (snapshot.ts) per run, in which only the
// jurisdictions that changed since the current files are rebuilt, as gzip members of NDJSON and
// their CSV tables (csv.ts), from one pass over the records; the others are unchanged at this
// snapshot, so their files move to its cursor as they are. The all-in-one NDJSON download is the
// concatenation of the members (a valid gzip file: RFC 1952 members), the CSV zips are laid out
// from the tables' files at request time (zip.ts).
import { createHash } from 'node:crypto';
import { createGzip } from 'node:zlib';
import type { Pool, Queryable } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { withSnapshot } from './snapshot.js';
import {
  chunkSink,
  cleanup,
  createFile,
  currentFiles,
  finishFile,
  openSink,
  publish,
  type StoredFile,
} from './store.js';
import { CsvTablesWriter } from './csv.js';
import { tablesOf } from './tables.js';
import { globalRecords, jurisdictionRecords, RECORD_TYPES, type BulkRecord, type Jurisdiction } from './records.js';

/** Scope of the nationwide records (topics). */
export const GLOBAL_SCOPE = 'global';
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
    md5(coalesce(string_agg(v.t || ':' || v.n || ':' || v.x, ',' ORDER BY v.t), '')) AS signature
  FROM states s LEFT JOIN v ON v.state_id = s.state_id GROUP BY s.state_id, s.state_abbr ORDER BY s.state_abbr`;

/** Whether a scope has its NDJSON file and every CSV table (files written before CSV existed have none). */
function hasEveryTable(files: StoredFile[], scope: string): boolean {
  const have = new Set(files.filter((f) => f.scope === scope && f.format === 'csv').map((f) => f.part));
  return tablesOf(scope === GLOBAL_SCOPE).every((t) => have.has(t.name));
}

interface Target extends Jurisdiction {
  signature: string;
}

export interface BuildResult {
  cursor: string;
  /** scopes whose files were rebuilt */
  built: string[];
  /** bytes written */
  bytes: number;
}

/**
 * The records, the next batch read while the consumer writes this one: PostgreSQL's work (the
 * snapshot's queries) and this process's (serialising, compressing) overlap instead of alternating.
 */
async function* oneAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = it.next();
      next.catch(() => undefined); // awaited on the next turn; a consumer that stops early drops it
      yield r.value;
    }
  } finally {
    await next.catch(() => undefined);
    await it.return?.(undefined);
  }
}

/**
 * Writes a scope's files from one pass over its records: the NDJSON (one gzip member) and its
 * CSV tables. Returns their file ids.
 */
export async function writeScope(
  store: Queryable,
  scope: string,
  signature: string,
  records: AsyncIterable<BulkRecord[]>,
  signal?: AbortSignal,
): Promise<number[]> {
  const fileId = await createFile(store, scope, signature);
  const ndjson = openSink(createGzip(), chunkSink(store, fileId));
  const csv = await CsvTablesWriter.create(store, scope, signature, tablesOf(scope === GLOBAL_SCOPE));
  const counts: Record<string, number> = {};
  try {
    for await (const batch of oneAhead(records)) {
      signal?.throwIfAborted();
      if (batch.length === 0) continue;
      let text = '';
      for (const r of batch) {
        const name = RECORD_TYPES[r.type];
        counts[name] = (counts[name] ?? 0) + 1;
        // JSON.stringify({ type, data }) byte for byte (type is a bare word), without a wrapper object per record
        text += `{"type":"${r.type}","data":${JSON.stringify(r.data)}}\n`;
      }
      await Promise.all([ndjson.write(text), csv.write(batch)]);
    }
    const [size, csvIds] = await Promise.all([ndjson.end(), csv.finish()]);
    await finishFile(store, fileId, size, counts);
    return [fileId, ...csvIds];
  } catch (err) {
    ndjson.destroy(err as Error);
    csv.destroy(err as Error);
    throw err;
  }
}

/**
 * One build: takes a snapshot, rebuilds the changed jurisdictions (all of them with `force`) and
 * publishes them, every current file moving to the snapshot's cursor. Reads run on one client of
 * `pool` inside the snapshot; the bytes are written through other connections of `pool`. An
 * aborted build publishes nothing (its unfinished files are removed by the next one).
 */
export async function buildSnapshots(
  pool: Pool,
  log: Logger,
  opts: { force?: boolean; signal?: AbortSignal } = {},
): Promise<BuildResult> {
  await cleanup(pool, RETAIN_MS);
  const files = await currentFiles(pool);
  const current = new Map(files.filter((f) => f.format === 'ndjson').map((f) => [f.scope, f]));
  const complete = (scope: string) => hasEveryTable(files, scope);
  const client = await pool.connect();
  try {
    return await withSnapshot(client, async (snap) => {
      const states = (await client.query<Target>(SIGNATURE_SQL)).rows;
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
      const fresh: number[] = [];
      for (const t of targets) {
        fresh.push(...(await writeScope(pool, t.state_abbr, t.signature, jurisdictionRecords(client, t), opts.signal)));
        log.debug({ scope: t.state_abbr }, 'bulk file written');
      }
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
