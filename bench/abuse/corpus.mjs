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

if (import.meta.url === `file://${process.argv[1]}`) {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log(await ensureCorpus(adminUrl, process.argv[2] ?? 'lds_abuse_bench', Number(process.argv[3] ?? 200_000)));
}
