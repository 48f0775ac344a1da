// The bulk role: of several processes running it one builds (advisory lock), the files are built
// once per BULK_INTERVAL, and a standby takes over when the active one stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBulk, BULK_LOCK_KEY } from '../../src/bulk/role.js';
import { TABLES } from '../../src/bulk/tables.js';
import type { Background, BackgroundContext } from '../../src/background.js';
import { testConfig } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, silent, type BulkEnv } from './env.js';

let env: BulkEnv;
beforeAll(async () => {
  env = await bulkEnv(60);
}, 180_000);
afterAll(async () => env?.close());

// this database's builders only: advisory locks are per database, and other test files' builders
// hold the same key in theirs on a shared server
const holders = async () =>
  (
    await env.db.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [BULK_LOCK_KEY],
    )
  ).rows.map((r) => r.pid);
/**
 * Head blocks' NDJSON files (one per jurisdiction and the nationwide one), and the CSV tables
 * beside them (a jurisdiction's tables and the nationwide topics); and every NDJSON file, against
 * the current ones (a block per session with bills besides).
 */
const files = async () =>
  (
    await env.db.pool.query<{ n: number; current: number; heads: number; csv: number }>(
      `SELECT count(*) FILTER (WHERE format = 'ndjson')::int AS n, count(*) FILTER (WHERE status = 'current' AND format = 'ndjson')::int AS current,
     count(*) FILTER (WHERE status = 'current' AND format = 'ndjson' AND bill_from = -1)::int AS heads,
     count(*) FILTER (WHERE format = 'csv' AND bill_from = -1)::int AS csv FROM bulk_files`,
    )
  ).rows[0];
const CSV_FILES = 52 * (TABLES.length - 1) + 1;
/** Built once: every NDJSON file ever written is current, one head per scope. */
const builtOnce = async () => {
  const f = await files();
  expect(f).toEqual({ n: f.current, current: f.current, heads: 53, csv: CSV_FILES });
  expect(f.current).toBeGreaterThan(53);
};

describe('bulk role', () => {
  it('builds once with one active builder, and a standby takes over', async () => {
    const ctx: BackgroundContext = {
      config: testConfig({ bulkInterval: 3600 }),
      db: env.db.pool,
      dbRead: env.db.pool,
      databaseUrl: env.db.url,
      bus: env.bus,
      log: silent,
    };
    const a: Background = await startBulk(ctx);
    const b: Background = await startBulk(ctx);
    try {
      await waitFor('the first build', async () => (await files()).heads === 53, 120_000);
      expect(await holders()).toHaveLength(1);
      const first = await holders();
      // built once: 52 jurisdictions and the nationwide member, no second set from the standby
      await builtOnce();
      const listing = (await env.get('/v1/bulk')).body.data;
      expect(listing[0].scope).toBe('all');
      // the active one stops (whichever it is); the other takes the lock, and, within the interval, builds nothing
      await a.stop();
      await b.stop();
      const c = await startBulk(ctx);
      try {
        await waitFor(
          'a new active builder',
          async () => {
            const h = await holders();
            return h.length === 1 && h[0] !== first[0];
          },
          30_000,
        );
        // its second tick (the lock session's liveness check) comes after the first one finished, build included
        const [pid] = await holders();
        await waitFor(
          "the new builder's second tick",
          async () =>
            (await env.db.pool.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query = 'SELECT 1'`, [pid]))
              .rowCount === 1,
          30_000,
        );
        await builtOnce();
      } finally {
        await c.stop();
      }
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 240_000);
});
