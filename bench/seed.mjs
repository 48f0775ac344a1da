// Seeds N demo bills (default 30,000) into a fresh database and reports rows/s per table and the
// time of each phase (COPY, index rebuild, foreign keys, commit, ANALYZE), with a baseline measured
// in the same run: the same bill rows (at most the first 30,000) loaded with plain multi-row
// INSERTs and with a bare COPY, into an empty copy of the schema with its indexes in place.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/seed.mjs [bills] [--keep DBNAME]
// --keep seeds into DBNAME and leaves it there (e.g. the 1M-bill corpus the read benchmark uses).
// Build first: npx tsc -p tsconfig.build.json. Without DATABASE_URL an embedded cluster under
// data/bench-pg is used.
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createPool } from '../dist/db/pool.js';
import { migrate } from '../dist/db/migrate.js';
import { startEmbedded } from '../dist/db/embedded.js';
import { createLogger } from '../dist/logger.js';
import { seed } from '../dist/demo/seed.js';

const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? args.splice(keepAt, 2)[1] : undefined;
if (keepAt >= 0 && !/^[a-z_][a-z0-9_]*$/.test(keep ?? '')) throw new Error('--keep needs a database name');
const bills = Number(args[0] ?? 30_000);
const BASELINE_MAX = 30_000;
let embedded;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  embedded = await startEmbedded({
    dataDir: path.resolve('data/bench-pg'),
    preferredPort: 0,
    log: createLogger('warn', { pretty: false }),
    mode: 'server',
    database: 'postgres',
  });
  adminUrl = embedded.url;
}
const urlFor = (db) => {
  const u = new URL(adminUrl);
  u.pathname = '/' + db;
  return u.toString();
};
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();

async function freshDb(name) {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = createPool(urlFor(name), 4, 'lds-bench');
  await migrate(pool);
  return pool;
}

const dbName = keep ?? 'lds_bench_seed';
const db = await freshDb(dbName);
const t0 = performance.now();
const { counts, seconds: phases } = await seed(db, {
  bills,
  seed: 1,
  progress: false,
  log: (m) => process.stderr.write(m + '\n'),
});
const seconds = (performance.now() - t0) / 1000;
const {
  rows: [{ size }],
} = await db.query('SELECT pg_database_size(current_database())::bigint AS size');
const rowsTotal = Object.values(counts).reduce((a, b) => a + b, 0);

// Baseline: the same bill rows, re-inserted into an empty copy of the schema with multi-row INSERTs.
const base = await freshDb('lds_bench_seed_insert');
const { rows: refSessions } = await db.query('SELECT * FROM sessions ORDER BY session_id');
const cols = [
  'bill_id',
  'state_id',
  'session_id',
  'bill_number',
  'bill_number_key',
  'bill_type_id',
  'body_id',
  'current_body_id',
  'status_id',
  'status_date',
  'title',
  'description',
  'state_url',
  'url',
  'updated',
  'created',
  'change_hash',
  'content_hash',
  'summary',
  'last_action',
  'last_action_date',
  'completed',
  'pending_committee_id',
  'subject_names',
  'external_ids',
  'source',
];
const scols = Object.keys(refSessions[0]);
await base.query(
  `INSERT INTO sessions (${scols.join(',')}) SELECT * FROM json_populate_recordset(null::sessions, $1)`,
  [JSON.stringify(refSessions)],
);
const { rows: billRows } = await db.query(
  `SELECT ${cols.join(', ')} FROM bills ORDER BY bill_id LIMIT ${BASELINE_MAX}`,
);
const per = 500;
const t1 = performance.now();
for (let i = 0; i < billRows.length; i += per) {
  const chunk = billRows.slice(i, i + per);
  const params = [];
  const values = chunk.map(
    (r) =>
      '(' +
      cols
        .map((c) => {
          params.push(c === 'external_ids' ? JSON.stringify(r[c]) : r[c]);
          return '$' + params.length;
        })
        .join(',') +
      ')',
  );
  await base.query(`INSERT INTO bills (${cols.join(',')}) VALUES ${values.join(',')}`, params);
}
const insertSeconds = (performance.now() - t1) / 1000;

// COPY rate for bills alone, measured the same way (the seed's per-table time is not separable).
const {
  rows: [{ n: copyCheck }],
} = await base.query('SELECT count(*)::int AS n FROM bills');
await base.query('TRUNCATE bills, roll_call_votes CASCADE');
const { from: copyFrom } = await import('pg-copy-streams');
const { Readable } = await import('node:stream');
const { pipeline } = await import('node:stream/promises');
const { encodeCell } = await import('../dist/demo/seed/copy.js');
const client = await base.connect();
const t2 = performance.now();
await pipeline(
  Readable.from(
    (function* () {
      for (const r of billRows)
        yield (
          cols
            .map((c) =>
              encodeCell(
                c === 'status_date' || c === 'last_action_date'
                  ? r[c]
                  : r[c] instanceof Date
                    ? r[c].toISOString()
                    : r[c],
              ),
            )
            .join('\t') + '\n'
        );
    })(),
  ),
  client.query(copyFrom(`COPY bills (${cols.join(', ')}) FROM STDIN`)),
);
const copySeconds = (performance.now() - t2) / 1000;
client.release();

const copyPhases = Object.keys(counts).filter((t) => phases[t] !== undefined);
const copySum = copyPhases.reduce((a, t) => a + phases[t], 0);
const table = Object.entries(counts).map(([t, n]) => ({
  table: t,
  rows: n,
  copy_seconds: phases[t] ?? null,
  rows_per_second: phases[t] ? n / phases[t] : null,
}));
console.log(
  `\nseed of ${bills.toLocaleString('en-US')} bills: ${seconds.toFixed(1)} s, ${rowsTotal.toLocaleString('en-US')} rows, ${Math.round(rowsTotal / seconds).toLocaleString('en-US')} rows/s overall, database ${(Number(size) / 2 ** 30).toFixed(2)} GiB\n`,
);
console.log('table                      rows   COPY s      rows/s');
for (const r of table)
  console.log(
    `${r.table.padEnd(20)} ${String(r.rows).padStart(10)} ${r.copy_seconds === null ? '        -' : r.copy_seconds.toFixed(2).padStart(8)} ${r.rows_per_second === null ? '          -' : String(Math.round(r.rows_per_second)).padStart(11)}`,
  );
console.log(
  `\nphases: COPY ${copySum.toFixed(1)} s (of it ${phases.generator_wait.toFixed(1)} s waiting for the generator), indexes ${phases.indexes.toFixed(1)} s, foreign keys ${phases.foreign_keys.toFixed(1)} s, commit ${phases.commit.toFixed(1)} s, ANALYZE ${phases.analyze.toFixed(1)} s`,
);
console.log(`\nbaseline, bills only (${billRows.length} rows, same data, indexes in place):`);
console.log(
  `  multi-row INSERT (${per}/statement)  ${insertSeconds.toFixed(2)} s  ${Math.round(billRows.length / insertSeconds).toLocaleString('en-US')} rows/s`,
);
console.log(
  `  COPY FROM STDIN                   ${copySeconds.toFixed(2)} s  ${Math.round(billRows.length / copySeconds).toLocaleString('en-US')} rows/s  (${(insertSeconds / copySeconds).toFixed(1)}x)`,
);
console.log(
  `  the seed's COPY (indexes deferred) ${Math.round(counts.bills / phases.bills).toLocaleString('en-US')} rows/s over all ${counts.bills.toLocaleString('en-US')} bills`,
);

const result = {
  bills,
  seconds,
  rows_total: rowsTotal,
  rows_per_second: rowsTotal / seconds,
  database_bytes: Number(size),
  database: keep ?? null,
  counts,
  tables: table,
  phases: {
    copy: copySum,
    generator_wait: phases.generator_wait,
    indexes: phases.indexes,
    foreign_keys: phases.foreign_keys,
    commit: phases.commit,
    analyze: phases.analyze,
    clear: phases.clear,
  },
  baseline: {
    table: 'bills',
    rows: billRows.length,
    insert_seconds: insertSeconds,
    insert_rows_per_second: billRows.length / insertSeconds,
    copy_seconds: copySeconds,
    copy_rows_per_second: billRows.length / copySeconds,
    insert_rows_checked: copyCheck,
  },
  machine: {
    node: process.version,
    cpus: (await import('node:os')).cpus().length,
    loadavg_after: (await import('node:os')).loadavg(),
  },
  measured_at: new Date().toISOString(),
};
await fs.mkdir('bench/results', { recursive: true });
// One file, the latest run per scale (30,000 for `npm start`, 1,000,000 for the read benchmark).
const file = 'bench/results/seed.json';
const previous = await fs
  .readFile(file, 'utf8')
  .then((t) => JSON.parse(t))
  .catch(() => ({}));
const runs = previous.runs ?? {};
runs[String(bills)] = result;
await fs.writeFile(file, JSON.stringify({ runs }, null, 2) + '\n');
await db.end();
await base.end();
if (!keep) await admin.query('DROP DATABASE IF EXISTS lds_bench_seed WITH (FORCE)');
await admin.query('DROP DATABASE IF EXISTS lds_bench_seed_insert WITH (FORCE)');
await admin.end();
await embedded?.stop();
