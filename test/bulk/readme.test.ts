// The README's walkthrough as a new user follows it: the service started as `npm start` starts it
// (`lds serve --demo` on a fresh DATA_DIR: the embedded PostgreSQL, the demo corpus, the demo key
// printed), then the README's second command, `npx lds sync --from … --key … --follow`, in a
// process of its own while `npx lds simulate` writes. The copy (the database lds_copy beside the
// service's own) ends equal to the service, bill by bill with every part, the text changes the
// diff worker computes for the whole demo corpus in its first minutes included (TextDiff changes).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startEmbedded } from '../../src/db/embedded.js';
import { createPool, type Pool } from '../../src/db/pool.js';
import { ensureBuilt, root } from '../helpers/build.js';
import { lockTable } from '../helpers/locks.js';
import { waitFor } from '../helpers/wait.js';
import { copyCursor, exited, expectCopyEqualsService, latestChange } from './copy.js';

// Under the repository (the `postgres` user must reach it when the tests run as root).
const DATA_DIR = path.join(root, 'data', `test-readme-${process.pid}`);
// No DATABASE_URL, NATS or Redis: what a new user has.
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  DATA_DIR,
  PORT: '0',
  EMBEDDED_PG_PORT: '0',
  HOST: '127.0.0.1',
  npm_config_update_notifier: 'false',
};

/** The README's commands, read from the README itself, so the test fails when they change. */
function readmeCommands() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = /```sh\n(npm ci && npm start)\n```/.exec(readme)?.[1];
  const sync = /```sh\n(npx lds sync --from http:\/\/localhost:8080 --key lds_… --follow)\n```/.exec(readme)?.[1];
  const simulate = /```sh\n(npx lds simulate [^\n]*)\n/.exec(readme)?.[1];
  return { start, sync, simulate };
}

/** A command in a process group of its own, as a terminal runs it (npx runs lds in a child of its own). */
function run(cmd: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

/** Ctrl-C (SIGINT) or a stop (SIGTERM) to the whole group, as a terminal sends it. */
const signal = (p: ReturnType<typeof run>, sig: NodeJS.Signals) => {
  try {
    process.kill(-p.child.pid!, sig);
  } catch {
    /* gone */
  }
};

let serve: ReturnType<typeof run> | undefined;
let sync: ReturnType<typeof run> | undefined;
let service: Pool;
/** ends the pause of the service's diff worker */
let resumeDiffs: (() => Promise<void>) | undefined;
let copy: Pool;
let url: string;
let key: string;

beforeAll(async () => {
  ensureBuilt();
  await fs.rm(DATA_DIR, { recursive: true, force: true });
}, 300_000);

const running = () =>
  [sync, serve].filter((p) => p && p.child.exitCode === null && p.child.signalCode === null) as Array<
    ReturnType<typeof run>
  >;
// however this process ends, the service it started (and the PostgreSQL that stops with it) goes too
process.once('exit', () => running().forEach((p) => signal(p, 'SIGTERM')));

afterAll(async () => {
  await resumeDiffs?.();
  for (const p of running()) {
    signal(p, 'SIGTERM');
    await exited(p.child);
  }
  await copy?.end();
  await service?.end();
  await fs.rm(DATA_DIR, { recursive: true, force: true });
}, 120_000);

describe('README: npm start, then lds sync', () => {
  it('makes a local copy of everything and keeps it current, in two commands', async () => {
    const commands = readmeCommands();
    expect(commands.start, 'the README starts the service with npm ci && npm start').toBeDefined();
    expect(commands.sync, 'the README keeps a copy with npx lds sync').toBeDefined();
    expect(commands.simulate).toBeDefined();

    // 1. npm start: `npm run build` (done above), then what its script runs
    const startScript = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
    expect(startScript).toBe('node bin/lds.js serve --demo');
    serve = run(process.execPath, ['bin/lds.js', 'serve', '--demo']);
    await waitFor(
      'the service to print its address and demo key',
      () => /demo API key:\s+lds_\S+/.test(serve!.output()) || serve!.child.exitCode !== null,
      600_000,
    );
    url = /listening on (http:\/\/\S+)/.exec(serve.output())![1].replace('localhost', '127.0.0.1');
    key = /demo API key:\s+(lds_\S+)/.exec(serve.output())![1];

    // the demo's activity, as the README's second terminal runs it (shorter)
    const simulateArgs = commands
      .simulate!.split(' ')
      .slice(1)
      .map((a) => (a === '5m' ? '40s' : a));
    const writer = run('npx', simulateArgs);

    // 2. the README's sync command, with the printed address and key
    const syncArgs = commands
      .sync!.split(' ')
      .slice(1)
      .map((a) => (a === 'http://localhost:8080' ? url : a === 'lds_…' ? key : a));
    sync = run('npx', syncArgs);

    const log = pino({ level: 'silent' });
    const db = (database: string) =>
      startEmbedded({ dataDir: DATA_DIR, preferredPort: 0, log, mode: 'client', database }).then((e) =>
        createPool(e.url, 2, 'lds-test'),
      );
    service = await db('lds');
    await waitFor(
      'the copy database',
      async () => (await service.query(`SELECT 1 FROM pg_database WHERE datname = 'lds_copy'`)).rowCount === 1,
      600_000,
    );
    copy = await db('lds_copy');
    await waitFor(
      'the snapshot loaded and the feed followed',
      async () => (await copyCursor(copy)) !== undefined || sync!.child.exitCode !== null,
      600_000,
    );
    expect(sync.child.exitCode, sync.output()).toBeNull();
    const loaded = (await copyCursor(copy))!;

    // more writes while the copy follows, then the writers stop
    expect(await exited(writer.child), writer.output()).toBe(0);
    const more = run('npx', [
      ...simulateArgs.filter((a, i, all) => a !== '--duration' && all[i - 1] !== '--duration'),
      '--count',
      '30',
    ]);
    expect(await exited(more.child), more.output()).toBe(0);
    // The diff worker is still computing the demo corpus's text changes (some 23,000 pairs, half an
    // hour on a loaded machine), each a TextDiff change the copy follows like any other. To compare
    // the copy with a service that holds still, the worker is paused here: its queue held locked,
    // so it waits before its next pair (a pair in progress commits first). Every diff stored before
    // the pause is in the feed below and must be in the copy.
    resumeDiffs = await lockTable(service, 'text_diff_queue');
    await waitFor(
      'the relay to stamp every change',
      async () => (await service.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
      60_000,
    );
    const last = await latestChange(service);
    await waitFor('the copy to catch up', async () => ((await copyCursor(copy)) ?? '') >= last, 300_000);
    // Ctrl-C, as the README says: npm (npx) dies of it, lds finishes its work and says where it stopped
    signal(sync, 'SIGINT');
    await exited(sync.child);
    await waitFor(
      'lds sync to finish',
      () => /applied \d+ changes; cursor \S+ \(into lds_copy\)\n/.test(sync!.output()),
      60_000,
    );

    // the demo key's burst is 10 requests/s: wait as 429 says. A deep page of whole bills can
    // outrun the statement timeout on a machine busy with other suites (422 query_timeout, as
    // documented): retried a few times, as a client would, since this compares content, not speed.
    const get = async (u: string, timeouts = 0): Promise<any> => {
      const res = await fetch(url + u, { headers: { 'x-api-key': key } });
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers.get('retry-after')) || 1)));
        return get(u, timeouts);
      }
      if (res.status === 422 && timeouts < 5) {
        const body = (await res.json()) as { error?: { code?: string } };
        expect(body.error?.code, u).toBe('query_timeout');
        await new Promise((r) => setTimeout(r, 1000));
        return get(u, timeouts + 1);
      }
      expect(res.status, u).toBe(200);
      return res.json();
    };
    await expectCopyEqualsService(copy, service, get);
    // the copy followed text changes computed after the file it loaded, not only writers' changes
    const lateDiffs = await service.query(
      `SELECT 1 FROM changes c JOIN change_reasons r USING (reason_id) WHERE r.reason_name = 'TextDiff' AND c.changed_at > $1::timestamptz`,
      [loaded],
    );
    expect(lateDiffs.rowCount).toBeGreaterThan(100);
    expect(existsSync(path.join(DATA_DIR, 'pg'))).toBe(true);
  }, 1_500_000);
});
