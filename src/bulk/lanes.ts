// The units of one build (a jurisdiction's head block, or a range of a session's bills: blocks.ts),
// written by lanes that share the build's snapshot: the snapshot's
// transaction exports it (pg_export_snapshot) and each lane reads in a transaction of its own
// that imports it (SET TRANSACTION SNAPSHOT), so every lane sees exactly the same database as
// the snapshot that gave the cursor. A lane takes the next unit when it finished one.
//
// The compiled service runs each lane on a worker thread with its own connections: serialising
// and compressing bills is CPU work, and two lanes keep two cores busy (and the main
// thread free to serve requests) where one thread alternated with PostgreSQL. Under the
// TypeScript sources (tests), or without a database URL, the lanes run in the calling thread on
// connections of its pool: the same snapshot import, the same files.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Pool, PoolClient, Queryable } from '../db/pool.js';
import { billRecords, headRecords } from './records.js';
import { writeScope } from './scope.js';
import { HEAD_BLOCK } from './store.js';
import { cutBlocks, type Unit } from './blocks.js';
import { MemberVoteText } from './member-votes.js';

/** What a lane writes (blocks.ts). */
export type Target = Unit;

/** What a lane reports when it wrote a unit's files. */
export interface Built {
  scope: string;
  fileIds: number[];
}

/**
 * Lanes of a build: at most two (each one more V8 heap in the process, and the builder runs beside
 * the service's own work), fewer on one core.
 */
export const LANES = Math.max(1, Math.min(2, os.availableParallelism()));

/**
 * V8 limits of a lane's thread (MiB). A batch's rows and text are short-lived. A young generation
 * of 48 MiB kept more of them there but put two lanes' build at 222-225 MiB RSS. Each lane's young
 * generation stays committed whole, so it is RSS for the whole build: at 16 MiB a lane's heap was
 * 16 MiB young + 23 MiB old, and the whole corpus peaked at 214-218 MiB. 8 MiB takes 18-20 MiB off
 * (WA + MN, builds taking turns: 175-178 against 195-196 MiB) in the same time (12.0-13.1 s against
 * 12.3-13.6 s, Node CPU equal); 4 MiB took 9 MiB more off but 15-25 % more CPU. The old generation
 * holds the app's modules (about 5 MiB over an empty isolate), the member vote texts and what is in
 * flight.
 */
export const THREAD_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

/** A snapshot id as pg_export_snapshot returns it (hex words and dashes), checked before it is put into SQL. */
const SNAPSHOT_ID = /^[0-9A-F]+(-[0-9A-F]+)+$/i;

/** Starts a transaction on `client` that reads the exported snapshot `snapshotId`. */
export async function importSnapshot(client: Pick<PoolClient, 'query'>, snapshotId: string): Promise<void> {
  if (!SNAPSHOT_ID.test(snapshotId)) throw new Error(`bulk: not a snapshot id: ${snapshotId}`);
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await client.query(`SET TRANSACTION SNAPSHOT '${snapshotId}'`);
}

/**
 * The lane's reading client, with every statement prepared once per connection: a build runs the
 * same 17 statements for each batch of 100 bills, and PostgreSQL parsed and planned each of them
 * every time, about a fifth of their time there. Named by a hash of their text.
 */
export function preparing(client: PoolClient): Queryable {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let n = names.get(text);
    if (n === undefined)
      names.set(text, (n = `lds_bulk_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
    return n;
  };
  const query = (text: string, values?: unknown[]) => client.query({ name: nameOf(text), text, values });
  return { query } as unknown as Queryable;
}

/**
 * One lane: reads in the imported snapshot on one client of `pool`, writes the files through the
 * pool's other connections, until `next` has no unit left.
 */
export async function runLane(
  pool: Pool,
  snapshotId: string,
  next: () => Promise<Target | undefined>,
  built: (b: Built) => void,
  signal?: AbortSignal,
): Promise<void> {
  const client = await pool.connect();
  try {
    await importSnapshot(client, snapshotId);
    const reader = preparing(client);
    for (let t = await next(); t; t = await next())
      built({ scope: t.state_abbr, fileIds: await writeUnit(pool, reader, t, signal) });
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Writes a unit's files: the head block, or the blocks its range of bills is cut into (blocks.ts). */
async function writeUnit(pool: Pool, reader: Queryable, t: Target, signal?: AbortSignal): Promise<number[]> {
  if (t.kind === 'head') return writeScope(pool, t.state_abbr, t.signature, headRecords(reader, t), signal, HEAD_BLOCK);
  const ids: number[] = [];
  const memberVotes = await MemberVoteText.load(reader, t.state_id);
  for (const b of await cutBlocks(reader, t.session, t.from, t.to, t.blockBills)) {
    const records = billRecords(reader, b.session, b.from, b.n, memberVotes);
    ids.push(...(await writeScope(pool, t.state_abbr, b.signature, records, signal, b)));
  }
  return ids;
}

/** Messages between a lane's thread (build-thread.ts) and the builder. */
export type ThreadMessage = { type: 'next' } | ({ type: 'built' } & Built) | { type: 'done' };
export interface ThreadInput {
  databaseUrl: string;
  snapshotId: string;
}

export interface LaneOptions {
  /** the database's URL (threads open their own connections); none: lanes in this thread */
  databaseUrl?: string;
  /** how many lanes (default LANES) */
  lanes?: number;
  signal?: AbortSignal;
}

/**
 * Writes the targets' files in lanes reading the exported snapshot `snapshotId` (which the
 * caller's transaction keeps valid until this resolves). Calls `built` as each unit is
 * done. On a failure (or abort) every lane stops and the promise rejects; files left unfinished
 * stay in status building, which the next build's cleanup removes.
 */
export async function writeJurisdictions(
  pool: Pool,
  snapshotId: string,
  targets: Target[],
  built: (b: Built) => void,
  opts: LaneOptions = {},
): Promise<void> {
  // in the order given (the builder puts the largest first); each lane pulls the next
  const queue = [...targets];
  const next = async () => queue.shift();
  const lanes = Math.max(1, Math.min(opts.lanes ?? LANES, targets.length));
  if (targets.length === 0) return;
  if (!opts.databaseUrl || import.meta.url.endsWith('.ts')) {
    // in this thread: a failing lane stops the others at their next batch
    const stop = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    await Promise.all(
      Array.from({ length: lanes }, () =>
        runLane(pool, snapshotId, next, built, signal).catch((err) => {
          stop.abort(err);
          throw err;
        }),
      ),
    );
    return;
  }
  const threads: Worker[] = [];
  const stopAll = () => Promise.all(threads.map((w) => w.terminate()));
  // the role's signal outlives every build: its listener goes when this build does
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let running = lanes;
      const fail = (err: unknown) => {
        reject(err);
        void stopAll();
      };
      opts.signal?.throwIfAborted();
      onAbort = () => fail(opts.signal!.reason);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      for (let i = 0; i < lanes; i++) {
        const w = new Worker(new URL('./build-thread.js', import.meta.url), {
          workerData: { databaseUrl: opts.databaseUrl!, snapshotId } satisfies ThreadInput,
          resourceLimits: THREAD_LIMITS,
        });
        threads.push(w);
        let done = false;
        w.on('message', (m: ThreadMessage) => {
          if (m.type === 'next') w.postMessage(queue.shift() ?? null);
          else if (m.type === 'built') built({ scope: m.scope, fileIds: m.fileIds });
          else done = true;
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (!done) return fail(new Error(`bulk build thread exited with code ${code} before it finished`));
          if (--running === 0) resolve();
        });
      }
    });
  } finally {
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    await stopAll();
  }
}
