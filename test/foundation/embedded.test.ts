// The embedded default end to end: `lds serve` without DATABASE_URL starts a real PostgreSQL under
// DATA_DIR, stops it on SIGTERM, starts again, survives a kill -9 (the orphaned cluster is adopted
// or its stale lock removed), and CLI commands work while serve runs and when it does not.
// The tests in this file run one after another on one DATA_DIR of their own.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/lds.js');
// Under the repository (not a private temp dir) so the `postgres` user can reach it when run as root.
const DATA_DIR = path.join(ROOT, 'data', `test-embedded-${process.pid}`);
const PID_FILE = path.join(DATA_DIR, 'pg', 'postmaster.pid');
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  DATA_DIR,
  PORT: '0',
  EMBEDDED_PG_PORT: '0',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
};

interface Serve {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function serve(): Promise<Serve> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 120 s:\n${out}`)), 120_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lds serve exited with ${code} before listening:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

async function health(url: string): Promise<{ ok: boolean; version: string }> {
  const res = await fetch(`${url}/v1/health`);
  expect(res.status).toBe(200);
  return (await res.json()) as { ok: boolean; version: string };
}

async function keysCreate(): Promise<{ api_key: string; api_key_id: string }> {
  // CLI logs go to stdout when LOG_LEVEL is set, so the command runs with its default (warn).
  const { LOG_LEVEL: _level, ...cliEnv } = env;
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', '--org', 'x', '--json'], {
    env: cliEnv,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim()) as { api_key: string; api_key_id: string };
}

const postmasterPid = () => (existsSync(PID_FILE) ? Number(readFileSync(PID_FILE, 'utf8').split('\n')[0]) : undefined);
const gone = async (pid: number) => {
  // The lock file goes last in PostgreSQL's shutdown; the process itself may take a moment more.
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let current: Serve | undefined;

afterAll(async () => {
  if (current && current.child.exitCode === null) {
    current.child.kill('SIGTERM');
    await exited(current.child);
  }
  // Stop any cluster left behind (e.g. after the kill -9 case), then remove the data directory.
  const pid = postmasterPid();
  if (pid && alive(pid)) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  }
  await fs.rm(DATA_DIR, { recursive: true, force: true });
}, 120_000);

describe.sequential('embedded PostgreSQL', () => {
  it('starts on an empty DATA_DIR, serves health, and a CLI command works alongside', async () => {
    current = await serve();
    expect(await health(current.url)).toMatchObject({ ok: true, version: 'v1' });
    expect(postmasterPid()).toBeDefined();
    const k = await keysCreate();
    expect(k.api_key_id).toBeTruthy();
    // The key created by the CLI is in the database the server uses.
    const res = await fetch(`${current.url}/v1/_meta/usage`, { headers: { 'X-API-Key': k.api_key } });
    expect(res.status).toBe(200);
  }, 300_000);

  it('SIGTERM exits 0 and stops the embedded cluster', async () => {
    const s = current as Serve;
    const pid = postmasterPid() as number;
    s.child.kill('SIGTERM');
    // the server's output names what went wrong when it did not exit cleanly
    expect(await exited(s.child), `signal ${s.child.signalCode}:\n${s.output().slice(-4000)}`).toBe(0);
    expect(existsSync(PID_FILE)).toBe(false);
    expect(await gone(pid)).toBe(true);
  }, 120_000);

  it('a CLI command works when serve is not running (and leaves no cluster behind)', async () => {
    const k = await keysCreate();
    expect(k.api_key).toBeTruthy();
    expect(existsSync(PID_FILE)).toBe(false);
  }, 180_000);

  it('starts again on the same DATA_DIR', async () => {
    current = await serve();
    expect((await health(current.url)).ok).toBe(true);
  }, 300_000);

  it('starts again after kill -9 of serve', async () => {
    const s = current as Serve;
    s.child.kill('SIGKILL');
    await exited(s.child);
    current = await serve();
    expect((await health(current.url)).ok).toBe(true);
    await keysCreate();
    current.child.kill('SIGTERM');
    expect(await exited(current.child)).toBe(0);
    expect(existsSync(PID_FILE)).toBe(false);
  }, 300_000);

  it('starts after a stale lock file names a process that is gone', async () => {
    // A crash of the whole machine leaves postmaster.pid behind with no process.
    await fs.writeFile(PID_FILE, `999999\n${path.join(DATA_DIR, 'pg')}\n0\n1\n\n`);
    current = await serve();
    expect((await health(current.url)).ok).toBe(true);
    current.child.kill('SIGTERM');
    expect(await exited(current.child)).toBe(0);
  }, 300_000);
});
