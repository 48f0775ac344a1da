// A fresh database per test file (a clone of the migrated template), on the run's PostgreSQL.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Pool } from '../../src/db/pool.js';

export interface TestDatabase {
  name: string;
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

export function adminUrl(): string {
  return inject('pgAdminUrl');
}

export function urlFor(db: string): string {
  const u = new URL(adminUrl());
  u.pathname = '/' + db;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates an empty migrated database (clone of the template). */
export async function freshDatabase(poolSize = 8): Promise<TestDatabase> {
  const name = `lds_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = inject('pgTemplate');
  await admin(async (c) => {
    // CREATE DATABASE ... TEMPLATE fails while another session is cloning the same template.
    for (let i = 0; ; i++) {
      try {
        await c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (err) {
        if (i > 50 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const url = urlFor(name);
  const pool = createPool(url, poolSize, 'lds-test');
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
    },
  };
}

/** Creates a database with no schema at all (for migration tests). */
export async function emptyDatabase(): Promise<TestDatabase> {
  const name = `lds_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = urlFor(name);
  const pool = createPool(url, 4, 'lds-test');
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
    },
  };
}

/**
 * A pool on `url` that records the text of every statement sent on every connection it opens
 * (COPY included), for tests that assert how many round trips an operation takes.
 */
export function recordingPool(url: string, size = 4): { pool: Pool; statements: string[] } {
  const statements: string[] = [];
  const pool = createPool(url, size, 'lds-test');
  pool.on('connect', (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
      statements.push(typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text ?? 'COPY'));
      return query(...a);
    };
  });
  return { pool, statements };
}
