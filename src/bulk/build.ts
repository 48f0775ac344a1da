// Building the bulk files: one consistent snapshot (snapshot.ts) per run, in which only what
// changed since the current files is rendered again: a jurisdiction's head block when its people,
// committees, sessions, hearings, subjects or candidates changed (then the whole jurisdiction,
// whose bills name them), else only its blocks of bills that changed (blocks.ts). Every block is a
// gzip member of NDJSON and CSV deflate pieces (csv.ts) from one pass over its records; what was
// not rendered is unchanged at this snapshot, so its files move to the snapshot's cursor as they
// are. The downloads concatenate the members (a valid gzip file: RFC 1952 members) and lay the CSV
// zips out from the tables' pieces at request time (zip.ts). The blocks are written by lanes that
// share the snapshot (lanes.ts), on worker threads in the compiled service.
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { withSnapshot } from './snapshot.js';
import { cleanup, currentFiles, HEAD_BLOCK, publish, type StoredFile } from './store.js';
import { hasEveryTable } from './downloads.js';
import { globalRecords, type Jurisdiction } from './records.js';
import type { BulkRecord } from './record-types.js';
import { GLOBAL_SCOPE, writeScope } from './scope.js';
import { writeJurisdictions } from './lanes.js';
import { BLOCK_SIGNATURES_SQL, SESSION_BILLS_SQL, type Unit } from './blocks.js';

/** Marks the head signatures of the block layout: files of an earlier layout are rebuilt whole. */
const LAYOUT = 'blocks1';

export { GLOBAL_SCOPE } from './scope.js';
/** How long a superseded file stays readable for downloads that started on it. */
export const RETAIN_MS = 60 * 60 * 1000;

/**
 * What tells a jurisdiction's head block changed: the count and the sum of row versions (xmin) of
 * its rows in the tables the change log does not cover (people, committees, sessions, hearings,
 * subjects, candidates). Any insert, update or delete moves it. Their rows also appear in the
 * bills' records (sponsors' and voters' names), so a moved head renders the whole jurisdiction
 * again. Its bills are watched block by block (blocks.ts).
 */
const SIGNATURE_SQL = `
  WITH v AS (
    SELECT state_id, 'people' AS t, count(*) AS n, sum(xmin::text::bigint) AS x FROM people GROUP BY state_id
    UNION ALL SELECT state_id, 'committees', count(*), sum(xmin::text::bigint) FROM committees GROUP BY state_id
    UNION ALL SELECT c.state_id, 'members', count(*), sum(m.xmin::text::bigint) FROM committee_members m JOIN committees c USING (committee_id) GROUP BY c.state_id
    UNION ALL SELECT state_id, 'sessions', count(*), sum(xmin::text::bigint) FROM sessions GROUP BY state_id
    UNION ALL SELECT state_id, 'hearings', count(*), sum(xmin::text::bigint) FROM hearings GROUP BY state_id
    UNION ALL SELECT state_id, 'subjects', count(*), sum(xmin::text::bigint) FROM subjects GROUP BY state_id
    UNION ALL SELECT s.state_id, 'candidates', count(*), sum(c.xmin::text::bigint) FROM candidates c JOIN states s ON s.state_abbr::text = c.state GROUP BY s.state_id
  )
  SELECT s.state_id, s.state_abbr::text AS state_abbr,
    '${LAYOUT}:' || md5(coalesce(string_agg(v.t || ':' || v.n || ':' || v.x, ',' ORDER BY v.t), '')) AS signature
  FROM states s LEFT JOIN v ON v.state_id = s.state_id
  GROUP BY s.state_id, s.state_abbr ORDER BY s.state_abbr`;

interface Candidate extends Jurisdiction {
  /** its head block's signature */
  signature: string;
}

/** Bills per session (a session's count, its state). */
export interface SessionBills {
  session_id: number;
  state_id: number;
  n: number;
}

/** A session's bills, all of them, cut into blocks anew. */
const wholeSession = (j: Candidate, s: SessionBills, blockBills?: number): Unit => ({
  ...j,
  kind: 'bills',
  session: s.session_id,
  from: 0,
  to: null,
  size: s.n,
  blockBills,
});

/** A whole jurisdiction: its head, and each session's bills cut into blocks anew. */
export function wholeJurisdiction(j: Candidate, sessions: SessionBills[], blockBills?: number): Unit[] {
  return [
    { ...j, kind: 'head', size: 0 },
    ...sessions.filter((s) => s.state_id === j.state_id).map((s) => wholeSession(j, s, blockBills)),
  ];
}

export interface BuildResult {
  cursor: string;
  /** scopes with files rebuilt */
  built: string[];
  /** ranges of bills rendered: a block, or a session laid out anew (each counts once) */
  blocks: number;
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
  /** bills per block (default blocks.ts BLOCK_BILLS; tests use small blocks) */
  blockBills?: number;
}

/**
 * Writes the targets' files in lanes reading the snapshot of `client`'s transaction, exported to
 * them; returns the new file ids.
 */
export async function writeInSnapshot(
  pool: Pool,
  client: PoolClient,
  targets: Unit[],
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
  const ndjson = files.filter((f) => f.format === 'ndjson');
  const heads = new Map(ndjson.filter((f) => f.bill_from === HEAD_BLOCK.from).map((f) => [f.scope, f]));
  const client = await pool.connect();
  try {
    return await withSnapshot(client, async (snap) => {
      const states = (await client.query<Candidate>(SIGNATURE_SQL)).rows;
      const sessions = (await client.query<SessionBills>(SESSION_BILLS_SQL)).rows;
      const blockNow = new Map(
        (await client.query<{ file_id: number; n: number; signature: string }>(BLOCK_SIGNATURES_SQL)).rows.map((r) => [
          r.file_id,
          r,
        ]),
      );
      const logged = await changedBills(client, ndjson, snap.cursor);
      const units: Unit[] = [];
      const replaced: number[] = [];
      // a scope's files, or those of one of its blocks
      const filesOf = (scope: string, block?: StoredFile) =>
        files
          .filter((f) => f.scope === scope)
          .filter((f) => !block || (f.session_id === block.session_id && f.bill_from === block.bill_from))
          .map((f) => f.file_id);
      for (const s of states) {
        const scope = s.state_abbr;
        const head = heads.get(scope);
        const blocks = ndjson.filter((f) => f.scope === scope && f.bill_from !== HEAD_BLOCK.from);
        if (opts.force || head?.signature !== s.signature || !hasEveryTable(files, scope)) {
          units.push(...wholeJurisdiction(s, sessions, opts.blockBills));
          replaced.push(...filesOf(scope));
          continue;
        }
        for (const b of blocks) {
          const now = blockNow.get(b.file_id);
          const changed = logged.get(b.session_id) ?? [];
          const hit = changed.some((id) => id > b.bill_from && (b.bill_to === null || id <= b.bill_to));
          if (now && now.signature === b.signature && !hit) continue;
          units.push({
            ...s,
            kind: 'bills',
            session: b.session_id,
            from: b.bill_from,
            to: b.bill_to,
            size: now?.n ?? 0,
            blockBills: opts.blockBills,
          });
          replaced.push(...filesOf(scope, b));
        }
        // a session with bills and no block yet (a new session): all of it
        const covered = new Set(blocks.map((b) => b.session_id));
        for (const ss of sessions)
          if (ss.state_id === s.state_id && !covered.has(ss.session_id))
            units.push(wholeSession(s, ss, opts.blockBills));
      }
      const largestFirst = [...units].sort((a, b) => b.size - a.size);
      const fresh = await writeInSnapshot(pool, client, largestFirst, log, opts);
      // The nationwide member is small: rebuilt when its content differs.
      const topics: BulkRecord[][] = [];
      for await (const batch of globalRecords(client)) topics.push(batch);
      const globalSig = createHash('sha256').update(JSON.stringify(topics)).digest('hex');
      const globalBuilt =
        opts.force || heads.get(GLOBAL_SCOPE)?.signature !== globalSig || !hasEveryTable(files, GLOBAL_SCOPE);
      if (globalBuilt) {
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
        replaced.push(...filesOf(GLOBAL_SCOPE));
      }
      await publish(pool, fresh, replaced, snap.cursor, snap.takenAt);
      const bytes = (
        await pool.query<{ n: number }>(
          'SELECT coalesce(sum(size), 0)::bigint AS n FROM bulk_files WHERE file_id = ANY($1::bigint[])',
          [fresh],
        )
      ).rows[0].n;
      const built = new Set(units.map((u) => u.state_abbr));
      if (globalBuilt) built.add(GLOBAL_SCOPE);
      return {
        cursor: snap.cursor,
        built: [...built].sort(),
        blocks: units.filter((u) => u.kind === 'bills').length,
        bytes,
      };
    });
  } finally {
    client.release();
  }
}

/**
 * Bills with changes in the log since the current files' snapshot, up to this one, by session:
 * changes that move no bill row (a new text, vote or amendment) show only there.
 */
async function changedBills(client: PoolClient, current: StoredFile[], cursor: string): Promise<Map<number, number[]>> {
  const since = current.map((f) => f.feed_cursor).sort()[0];
  const out = new Map<number, number[]>();
  if (since === undefined) return out;
  const { rows } = await client.query<{ session_id: number; bill_id: number }>(
    `SELECT DISTINCT b.session_id, c.bill_id FROM changes c JOIN bills b USING (bill_id)
     WHERE c.changed_at > $1::timestamptz AND c.changed_at <= $2::timestamptz`,
    [since, cursor],
  );
  for (const r of rows) {
    const list = out.get(r.session_id);
    if (list) list.push(r.bill_id);
    else out.set(r.session_id, [r.bill_id]);
  }
  return out;
}
