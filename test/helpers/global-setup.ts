// One PostgreSQL server for the whole run: DATABASE_URL's server when set (CI), otherwise an
// embedded cluster under data/test-pg. Migrations are applied once into a template database;
// every test file clones it (CREATE DATABASE ... TEMPLATE), so files run in parallel, each on a
// fresh database of its own.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbedded, type EmbeddedHandle } from '../../src/db/embedded.js';
import { listMigrations, migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { createLogger } from '../../src/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

let embedded: EmbeddedHandle | undefined;

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = '/' + db;
  return u.toString();
}

export async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbedded({
      dataDir: path.resolve('data/test-pg'),
      preferredPort: 0,
      log: createLogger('warn', { pretty: false }),
      mode: 'server',
      database: 'postgres',
    });
    adminUrl = embedded.url;
  }
  // The template's name carries a hash of the migrations, so a schema change makes a new one.
  const hash = createHash('sha1');
  for (const m of await listMigrations()) hash.update(m.name + (await fs.readFile(m.file, 'utf8')));
  const template = `lds_tpl_${hash.digest('hex').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(7310002)');
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE ${template}_tmp`).catch(async () => {
        await admin.query(`DROP DATABASE ${template}_tmp`);
        await admin.query(`CREATE DATABASE ${template}_tmp`);
      });
      const pool = createPool(withDatabase(adminUrl, `${template}_tmp`), 2);
      await migrate(pool);
      await pool.end();
      await admin.query(`ALTER DATABASE ${template}_tmp RENAME TO ${template}`);
    }
    // Remove databases left behind by earlier runs that crashed.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'lds_t\\_%' AND datname NOT LIKE 'lds_tpl%'`,
    );
    // Only those of dead processes (names carry the pid): other test runs share this server.
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
      }
    };
    for (const r of rows) {
      const pid = testPid(r.datname);
      if (pid && alive(pid)) continue;
      await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).catch(() => undefined);
    }
    if (process.env.NATS_URL) await removeStaleStreams(process.env.NATS_URL, alive);
    await admin.query('SELECT pg_advisory_unlock(7310002)');
  } finally {
    await admin.end();
  }
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
}

/** The pid in a test database's name (lds_t_<pid>_…) or its namespace's stream's (LDS_T_<PID>_…). */
const testPid = (name: string) => Number(/^lds_t_(\d+)_/i.exec(name)?.[1]);

/**
 * JetStream streams of test namespaces left by earlier runs. Tests that start processes on NATS
 * name their namespace after their database (lds_t_<pid>_…), whose stream is LDS_T_<PID>_…_CHANGES;
 * like the databases, only those of dead processes go. Never fails the run: NATS may be down for a
 * test that stops it.
 */
async function removeStaleStreams(url: string, alive: (pid: number) => boolean): Promise<void> {
  try {
    const nc = await connect({ servers: url.split(','), timeout: 2000 });
    try {
      const jsm = await jetstreamManager(nc);
      for await (const name of jsm.streams.names()) {
        const pid = testPid(name);
        if (pid && !alive(pid)) await jsm.streams.delete(name).catch(() => undefined);
      }
    } finally {
      await nc.close();
    }
  } catch {
    // nothing to clean, or NATS unreachable: the tests that need it report that themselves
  }
}

export async function teardown() {
  await embedded?.stop();
}
