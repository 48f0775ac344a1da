// `lds sync` end to end, as a user runs it: a separate process against the running service while
// the simulator writes, killed with SIGKILL and restarted, then followed until the writers stop:
// the target ends equal to the service, bill by bill and roll call by roll call.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshots } from '../../src/bulk/build.js';
import { simulate } from '../../src/ingest/simulate/run.js';
import { emptyDatabase, type TestDatabase } from '../helpers/db.js';
import { ensureBuilt, root } from '../helpers/build.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, silent, type BulkEnv } from './env.js';

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

function startSync(follow: boolean): ChildProcess {
  const args = [path.join(root, 'bin/lds.js'), 'sync', '--from', url, '--key', env.key, '--into', target.url, ...(follow ? ['--follow'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } });
  child.stderr!.on('data', () => undefined);
  child.stdout!.on('data', () => undefined);
  return child;
}
const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

const targetCursor = async () => (await target.pool.query<{ feed_cursor: string }>(
  `SELECT feed_cursor FROM lds_sync_state WHERE id = 1`).catch(() => ({ rows: [] as Array<{ feed_cursor: string }> }))).rows[0]?.feed_cursor;
const latestChange = async () => (await env.db.pool.query<{ c: string }>(
  `SELECT to_char(max(changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS c FROM changes`)).rows[0].c;

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
    await waitFor('the relay to stamp every change', async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0, 30_000);
    const last = await latestChange();
    await waitFor('the follower to catch up', async () => ((await targetCursor()) ?? '') >= last, 120_000);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);

    // the target equals the service
    const copy = new Map((await target.pool.query<{ id: string; data: any }>('SELECT id, data FROM lds_bills')).rows.map((r) => [Number(r.id), r.data]));
    const service = new Map<number, unknown>();
    for (let offset = 0; ; offset += 500) {
      const page = (await env.get(`/v1/bills?include=all&limit=500&offset=${offset}`)).body.data as Array<{ bill_id: number }>;
      for (const b of page) service.set(b.bill_id, b);
      if (page.length < 500) break;
    }
    expect(copy.size).toBe(service.size);
    for (const [id, bill] of service) expect(copy.get(id), `bill ${id}`).toEqual(bill);
    const rollCalls = (await target.pool.query<{ data: any }>('SELECT data FROM lds_roll_calls')).rows.map((r) => r.data);
    const serviceRollCalls = (await env.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM roll_calls')).rows[0].n;
    expect(rollCalls.length).toBe(serviceRollCalls);
    for (const rc of rollCalls.filter((r) => r.roll_call_id >= 50_000_000)) {
      const { member_votes, ...header } = rc;
      expect(header).toEqual((await env.get(`/v1/votes/${rc.roll_call_id}`)).body.data);
      expect(member_votes).toEqual((await env.get(`/v1/votes/${rc.roll_call_id}/details`)).body.data);
    }
    const n = async (table: string) => (await target.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
    // the resources outside the change log are the snapshot's, as listed
    const counts = (await env.get('/v1/bulk')).body.data[0].counts;
    expect(await n('lds_legislators')).toBe(counts.legislators);
    expect(await n('lds_committees')).toBe(counts.committees);
    expect(await n('lds_topics')).toBeGreaterThan(0);

    // a rerun without --follow resumes from the stored cursor and has nothing to apply
    const before = await targetCursor();
    const again = startSync(false);
    let out = '';
    again.stdout!.on('data', (d) => { out += String(d); });
    expect(await exited(again)).toBe(0);
    expect(out).toMatch(/^applied 0 changes; cursor /);
    expect((await targetCursor())! >= before!).toBe(true);
  }, 400_000);
});
