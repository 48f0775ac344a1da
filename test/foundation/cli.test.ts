// The `lds` command against a fresh database: keys are printed once, listed without the key,
// revoked; bad configuration stops with a message naming the variable.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/lds.js');

let db: TestDatabase;
const env = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: db.url });

async function lds(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...env(), ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  db = await freshDatabase(2);
});

afterAll(async () => {
  await db?.drop();
});

describe('lds keys', () => {
  it('create --json prints one JSON object with the key and its id; list never shows the key; revoke marks it', async () => {
    const created = await lds(['keys', 'create', '--org', 'newsroom', '--json']);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const k = JSON.parse(lines[0]) as { api_key: string; api_key_id: string; org_name: string };
    expect(typeof k.api_key).toBe('string');
    expect(k.api_key.length).toBeGreaterThan(20);
    expect(typeof k.api_key_id).toBe('string');
    expect(k.org_name).toBe('newsroom');

    const listed = await lds(['keys', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(k.api_key_id);
    expect(listed.stdout).not.toContain(k.api_key);
    const listedJson = await lds(['keys', 'list', '--json']);
    expect(listedJson.stdout).not.toContain(k.api_key);
    expect(listedJson.stdout).toContain(k.api_key_id);

    const revoked = await lds(['keys', 'revoke', k.api_key_id]);
    expect(revoked.code).toBe(0);
    const { rows } = await db.pool.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM api_keys WHERE api_key_id = $1',
      [k.api_key_id],
    );
    expect(rows[0].revoked_at).not.toBeNull();
    expect((await lds(['keys', 'list'])).stdout).toMatch(new RegExp(`${k.api_key_id}.*revoked`));
  }, 120_000);

  it('revoking an unknown id fails with a message', async () => {
    const r = await lds(['keys', 'revoke', 'key_doesnotexist']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('key_doesnotexist');
  }, 60_000);
});

describe('lds simulate', () => {
  it('refuses a database holding imported data unless --force', async () => {
    await db.pool.query(
      `INSERT INTO sessions (session_id, state_id, year_start, year_end, session_name, source) VALUES (777001, 5, 2026, 2026, 'Imported', 'legiscan')`,
    );
    const refused = await lds(['simulate', '--count', '1']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('imported data');
    expect(refused.stderr).toContain('--force');
    expect((await db.pool.query('SELECT count(*)::int AS n FROM changes')).rows[0].n).toBe(0);
    const forced = await lds(['simulate', '--count', '1', '--force']);
    expect(forced.stderr).not.toContain('imported data');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/simulated 1 actions/);
  }, 120_000);
});

describe('bad configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
  ])(
    '%s=%s exits non-zero naming the variable',
    async (name, value) => {
      const r = await lds(['keys', 'list'], { [name]: value });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(name);
    },
    60_000,
  );
});
