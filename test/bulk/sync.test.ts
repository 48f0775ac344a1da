// `lds sync` end to end, as a user runs it: a separate process against the running service while
// the simulator writes, killed with SIGKILL and restarted, then followed until the writers stop:
// the target ends equal to the service, bill by bill and roll call by roll call.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshots } from '../../src/bulk/build.js';
import { simulate } from '../../src/demo/simulate/run.js';
import { emptyDatabase, type TestDatabase } from '../helpers/db.js';
import { ensureBuilt, root } from '../helpers/build.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, silent, type BulkEnv } from './env.js';
import { copyCursor, exited, expectCopyEqualsService, latestChange } from './copy.js';
import { countWaiting, lockTable } from '../helpers/locks.js';
import { runSync } from '../../src/sync/run.js';

let env: BulkEnv;
let target: TestDatabase;
let url: string;
beforeAll(async () => {
  ensureBuilt();
  env = await bulkEnv(150);
  url = await env.app.listen({ port: 0, host: '127.0.0.1' });
  target = await emptyDatabase();
}, 240_000);
afterAll(async () => {
  await target?.drop();
  await env?.close();
});

function startSync(follow: boolean, into = target.url): ChildProcess {
  const args = [
    path.join(root, 'bin/lds.js'),
    'sync',
    '--from',
    url,
    '--key',
    env.key,
    '--into',
    into,
    ...(follow ? ['--follow'] : []),
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  child.stderr!.on('data', () => undefined);
  child.stdout!.on('data', () => undefined);
  return child;
}
const targetCursor = () => copyCursor(target.pool);

describe('lds sync', () => {
  it('copies everything and keeps it current, surviving a kill, while the simulator writes', async () => {
    const { cursor: snapshotCursor } = await buildSnapshots(env.db.pool, silent);
    const ac = new AbortController();
    const writers = ['CA', 'TX'].map((s) => simulate(env.db.pool, { rate: 30, states: [s], signal: ac.signal }));
    let child = startSync(true);
    try {
      // the snapshot is loaded and the feed is being applied: kill it without warning
      await waitFor('the first changes applied', async () => ((await targetCursor()) ?? '') > snapshotCursor, 120_000);
      child.kill('SIGKILL');
      await exited(child);
      const afterKill = await targetCursor();
      child = startSync(true);
      await waitFor('progress after the restart', async () => ((await targetCursor()) ?? '') > afterKill!, 120_000);
    } finally {
      ac.abort();
    }
    await Promise.all(writers);
    await waitFor(
      'the relay to stamp every change',
      async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
      30_000,
    );
    const last = await latestChange(env.db.pool);
    await waitFor('the follower to catch up', async () => ((await targetCursor()) ?? '') >= last, 120_000);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);

    // the target equals the service
    await expectCopyEqualsService(target.pool, env.db.pool, async (u) => (await env.get(u)).body);

    // a rerun without --follow resumes from the stored cursor and has nothing to apply
    const before = await targetCursor();
    const again = startSync(false);
    let out = '';
    again.stdout!.on('data', (d) => {
      out += String(d);
    });
    expect(await exited(again)).toBe(0);
    expect(out).toMatch(/^applied 0 changes; cursor /);
    expect((await targetCursor())! >= before!).toBe(true);
  }, 400_000);

  it('stopped in the middle of a request (Ctrl-C), says where the copy stands instead of failing', async () => {
    const resumed = await targetCursor(); // the copy of the test above, current
    // the service's feed read waits on a lock: the sync is stopped while its request is out
    const release = await lockTable(env.db.pool, 'changes');
    const ac = new AbortController();
    try {
      const run = runSync({ from: url, key: env.key, into: target.url, signal: ac.signal });
      await waitFor(
        'the feed read waiting in PostgreSQL',
        async () => (await countWaiting(env.db.pool, 'changes')) > 0,
      );
      ac.abort();
      const r = await run;
      expect(r).toMatchObject({ loadedSnapshot: false, changes: 0, cursor: resumed });
    } finally {
      await release();
    }
  }, 60_000);

  it('says how far the load of the bulk file is while it loads', async () => {
    await buildSnapshots(env.db.pool, silent);
    const fresh = await emptyDatabase();
    try {
      const lines: string[] = [];
      const r = await runSync({
        from: url,
        key: env.key,
        into: fresh.url,
        progressEveryMs: 0,
        log: (m) => lines.push(m),
      });
      expect(r.loadedSnapshot).toBe(true);
      const progress = lines
        .map((l) => /^loading: (\d+) records, (\d+) % of the file$/.exec(l))
        .filter((m) => m !== null)
        .map((m) => ({ records: Number(m[1]), pct: Number(m[2]) }));
      expect(progress.length).toBeGreaterThan(10);
      // counts only grow, the share of the file too, and the file is (nearly) all read by the last record
      for (let i = 1; i < progress.length; i++) {
        expect(progress[i].records).toBeGreaterThanOrEqual(progress[i - 1].records);
        expect(progress[i].pct).toBeGreaterThanOrEqual(progress[i - 1].pct);
      }
      expect(progress.at(-1)!.pct).toBeGreaterThanOrEqual(50);
      expect(progress.at(-1)!.pct).toBeLessThanOrEqual(100);
      expect(progress.at(-1)!.records).toBeLessThanOrEqual(r.records);
    } finally {
      await fresh.drop();
    }
  }, 120_000);

  it('stopped (Ctrl-C) before its first bulk file is loaded, says nothing was copied and exits 130', async () => {
    const fresh = await emptyDatabase();
    // the service's list of bulk files waits on a lock: the sync is stopped before it has a file
    const release = await lockTable(env.db.pool, 'bulk_files');
    try {
      const child = startSync(false, fresh.url);
      let out = '';
      child.stdout!.on('data', (d) => {
        out += String(d);
      });
      await waitFor(
        'the bulk list waiting in PostgreSQL',
        async () => (await countWaiting(env.db.pool, 'bulk_files')) > 0,
      );
      child.kill('SIGINT');
      expect(await exited(child)).toBe(130);
      expect(out).toBe('stopped before the first bulk file was loaded: nothing copied; run it again to start\n');
      expect(await copyCursor(fresh.pool)).toBeUndefined();
    } finally {
      await release();
      await fresh.drop();
    }
  }, 60_000);
});
