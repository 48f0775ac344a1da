// A real `lds serve` holding a queue of text diffs stops promptly on SIGTERM and resumes the work
// on its next start, nothing lost. Before, a server holding imported data sat out the whole 45 s
// shutdown deadline in its diff worker: every text of an import shares one created time, the
// discovery cursor (a JS Date, milliseconds) could not pass more than a batch of them, and a batch
// of large diffs was computed on the event loop, seconds each.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';
import { insertBill } from '../webhooks/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BILL = 990_001;
const LARGE = 24; // versions of 800 lines each, unrelated to each other: seconds of CPU per pair
const SMALL = 1_100; // more than a discovery batch (1,000), all with the same created time
const PAIRS = LARGE + SMALL - 1;
// Generous next to the 45 s deadline, short of it: the wait is a bound, not a timing.
const PROMPT_MS = 15_000;

let db: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  db = await freshDatabase();
  await insertBill(db.pool, { bill_id: BILL });
  // One statement, as an import writes them: every text gets the same microsecond `created`.
  await db.pool.query(
    `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, content)
     SELECT 700000 + g, $1, 1, date '2025-01-01' + g,
            CASE WHEN g <= $2 THEN (SELECT string_agg('SECTION ' || l || '. Version ' || g || ', clause ' || md5(g || ':' || l), E'\\n')
                                    FROM generate_series(1, 800) l)
                 ELSE 'SECTION 1. Version ' || g || '.' END
     FROM generate_series(1, $3::int) g`,
    [BILL, LARGE, LARGE + SMALL],
  );
}, 180_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await db?.drop();
});

function serve(): { child: ChildProcess; output: () => string } {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/lds.js'), 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  return { child, output: () => out };
}

const count = async (sql: string) => Number((await db.pool.query(sql)).rows[0].n);
const computed = () => count(`SELECT count(*) AS n FROM text_changes WHERE bill_id = ${BILL}`);
const queued = () => count(`SELECT count(*) AS n FROM text_diff_queue WHERE bill_id = ${BILL}`);
// Pairs a worker has claimed: rows locked by its transaction, which SKIP LOCKED does not see.
const claimed = async () =>
  (await queued()) -
  (await count(
    `SELECT count(*) AS n FROM (SELECT 1 FROM text_diff_queue WHERE bill_id = ${BILL} FOR UPDATE SKIP LOCKED) x`,
  ));

/** Sends SIGTERM and waits at most PROMPT_MS for the exit; returns the exit code (null if still running). */
async function terminate(child: ChildProcess): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), PROMPT_MS)));
  const first = await Promise.race([exit, bound]);
  clearTimeout(timer);
  return first === 'running' ? null : first;
}

/** Every consecutive pair is either computed or still queued, and none is blamed for the stop. */
async function nothingLost(): Promise<void> {
  expect((await computed()) + (await queued())).toBe(PAIRS);
  expect(
    await count(
      `SELECT count(*) AS n FROM text_diff_queue WHERE bill_id = ${BILL} AND (attempts > 0 OR last_error IS NOT NULL)`,
    ),
  ).toBe(0);
}

describe('lds serve with a queue of text diffs', () => {
  it('stops within seconds on SIGTERM while a diff is in progress, then resumes on the next start', async () => {
    const first = serve();
    await waitFor('every pair to be discovered', async () => (await queued()) + (await computed()) === PAIRS, 120_000);
    await waitFor('the diff worker to hold a pair', async () => (await claimed()) > 0, 60_000);
    const code = await terminate(first.child);
    expect(code, first.output().slice(-3000)).toBe(0);
    expect(first.output()).toContain('shutdown complete');
    expect(first.output()).not.toContain('shutdown did not finish in time');
    await nothingLost();
    const before = await computed();
    expect(await queued()).toBeGreaterThan(0);

    // The next start picks the queue up where it was and keeps what it computes.
    const second = serve();
    await waitFor('the next start to compute more pairs', async () => (await computed()) > before, 120_000);
    await waitFor('the diff worker to hold a pair again', async () => (await claimed()) > 0, 60_000);
    expect(await terminate(second.child), second.output().slice(-3000)).toBe(0);
    await nothingLost();
  }, 400_000);
});
