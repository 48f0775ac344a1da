// Numbered SQL migrations (src/db/migrations/NNN_name.sql), applied in order, each in its own
// transaction, recorded in schema_migrations. An advisory lock makes concurrent starts safe.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { inTransaction } from './pool.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// Works from src/ (tests) and from dist/ (the SQL files ship in src/db/migrations, not compiled).
export const MIGRATIONS_DIR = existsSync(path.join(here, 'migrations'))
  ? path.join(here, 'migrations')
  : path.resolve(here, '../../src/db/migrations');

const LOCK_ID = 7_310_001;

export interface Migration {
  version: number;
  name: string;
  file: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  return files.map((f) => ({ version: Number(f.slice(0, 3)), name: f.replace(/\.sql$/, ''), file: path.join(dir, f) }));
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(pool: pg.Pool, log?: { info: (o: object, m: string) => void }): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const m of await listMigrations()) {
      if (done.has(m.version)) continue;
      const sql = await fs.readFile(m.file, 'utf8');
      // one transaction per migration, on the connection that holds the session advisory lock
      await inTransaction(client, async (tx) => {
        await tx.query(sql);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }).catch((err: unknown) => {
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      });
      applied.push(m.name);
      log?.info({ migration: m.name }, 'migration applied');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => undefined);
    client.release();
  }
  return applied;
}
