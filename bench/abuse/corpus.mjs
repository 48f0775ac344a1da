// The corpus the abuse benchmark reads: a database of N seeded demo bills, created (and migrated and
// seeded) only when it does not exist yet, so repeated runs reuse it.
import pg from 'pg';
import { createPool } from '../../dist/db/pool.js';
import { migrate } from '../../dist/db/migrate.js';
import { seed } from '../../dist/demo/seed.js';

export function urlFor(adminUrl, db) {
  const u = new URL(adminUrl);
  u.pathname = '/' + db;
  return u.toString();
}

export async function ensureCorpus(adminUrl, name, bills) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  const url = urlFor(adminUrl, name);
  if (rowCount === 0) {
    await admin.query(`CREATE DATABASE ${name}`);
    const pool = createPool(url, 4, 'lds-bench');
    await migrate(pool);
    const t0 = performance.now();
    await seed(pool, { bills, seed: 1, progress: false, log: (m) => process.stderr.write(m + '\n') });
    process.stderr.write(`seeded ${bills} bills into ${name} in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    await pool.end();
  }
  await admin.end();
  return url;
}

/**
 * Gives the corpus a change log of at least `changes` rows (the seed records a few hundred), so a
 * stream asking for the whole log has a long replay, as in the issue (60,200 events). The rows are
 * left unstamped: the relay of the first server stamps them (waitStamped) as it would an import's.
 */
export async function ensureChangeLog(url, changes) {
  const pool = createPool(url, 1, 'lds-bench');
  const {
    rows: [{ n }],
  } = await pool.query('SELECT count(*)::int AS n FROM changes');
  if (n < changes) {
    await pool.query(
      `INSERT INTO changes (bill_id, state_id, reason_id, detail)
       SELECT bill_id, state_id, 2, '{}'::jsonb FROM bills ORDER BY bill_id LIMIT $1`,
      [changes - n],
    );
    await pool.query(`SELECT pg_notify('lds_changes', '')`);
  }
  await pool.end();
}

/** Waits until a relay has stamped every change of the log. */
export async function waitStamped(url) {
  const pool = createPool(url, 1, 'lds-bench');
  for (;;) {
    const {
      rows: [{ n }],
    } = await pool.query('SELECT count(*)::int AS n FROM changes WHERE seq IS NULL');
    if (n === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await pool.end();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log(await ensureCorpus(adminUrl, process.argv[2] ?? 'lds_abuse_bench', Number(process.argv[3] ?? 200_000)));
}
