// Seeds N demo bills (default 30,000) into a fresh database and reports rows/s per table, with a
// baseline measured in the same run: the same bill rows loaded with plain multi-row INSERTs.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/seed.mjs [bills]
// Build first: npx tsc -p tsconfig.build.json. Without DATABASE_URL an embedded cluster under
// data/bench-pg is used.
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createPool } from '../dist/db/pool.js';
import { migrate } from '../dist/db/migrate.js';
import { startEmbedded } from '../dist/db/embedded.js';
import { createLogger } from '../dist/logger.js';
import { seed } from '../dist/ingest/seed.js';

const bills = Number(process.argv[2] ?? 30_000);
let embedded;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  embedded = await startEmbedded({ dataDir: path.resolve('data/bench-pg'), preferredPort: 0, log: createLogger('warn', { pretty: false }), mode: 'server', database: 'postgres' });
  adminUrl = embedded.url;
}
const urlFor = (db) => { const u = new URL(adminUrl); u.pathname = '/' + db; return u.toString(); };
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();

async function freshDb(name) {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = createPool(urlFor(name), 4, 'lds-bench');
  await migrate(pool);
  return pool;
}

const db = await freshDb('lds_bench_seed');
const t0 = performance.now();
const { counts } = await seed(db, { bills, seed: 1, progress: false, log: (m) => process.stderr.write(m + '\n') });
const seconds = (performance.now() - t0) / 1000;
const rowsTotal = Object.values(counts).reduce((a, b) => a + b, 0);

// Baseline: the same bill rows, re-inserted into an empty copy of the schema with multi-row INSERTs.
const base = await freshDb('lds_bench_seed_insert');
const { rows: refSessions } = await db.query('SELECT * FROM sessions ORDER BY session_id');
const cols = ['bill_id', 'state_id', 'session_id', 'bill_number', 'bill_number_key', 'bill_type_id', 'body_id', 'current_body_id', 'status_id', 'status_date',
  'title', 'description', 'state_url', 'url', 'updated', 'created', 'change_hash', 'content_hash', 'summary', 'last_action', 'last_action_date', 'completed',
  'pending_committee_id', 'subject_names', 'external_ids', 'source'];
const scols = Object.keys(refSessions[0]);
await base.query(`INSERT INTO sessions (${scols.join(',')}) SELECT * FROM json_populate_recordset(null::sessions, $1)`, [JSON.stringify(refSessions)]);
const { rows: billRows } = await db.query(`SELECT ${cols.join(', ')} FROM bills ORDER BY bill_id`);
const per = 500;
const t1 = performance.now();
for (let i = 0; i < billRows.length; i += per) {
  const chunk = billRows.slice(i, i + per);
  const params = [];
  const values = chunk.map((r) => '(' + cols.map((c) => { params.push(c === 'external_ids' ? JSON.stringify(r[c]) : r[c]); return '$' + params.length; }).join(',') + ')');
  await base.query(`INSERT INTO bills (${cols.join(',')}) VALUES ${values.join(',')}`, params);
}
const insertSeconds = (performance.now() - t1) / 1000;

// COPY rate for bills alone, measured the same way (the seed's per-table time is not separable).
const { rows: [{ n: copyCheck }] } = await base.query('SELECT count(*)::int AS n FROM bills');
await base.query('TRUNCATE bills CASCADE');
const { from: copyFrom } = await import('pg-copy-streams');
const { Readable } = await import('node:stream');
const { pipeline } = await import('node:stream/promises');
const { encodeCell } = await import('../dist/ingest/seed/copy.js');
const client = await base.connect();
const t2 = performance.now();
await pipeline(Readable.from((function* () {
  for (const r of billRows) yield cols.map((c) => encodeCell(c === 'status_date' || c === 'last_action_date' ? r[c] : r[c] instanceof Date ? r[c].toISOString() : r[c])).join('\t') + '\n';
})()), client.query(copyFrom(`COPY bills (${cols.join(', ')}) FROM STDIN`)));
const copySeconds = (performance.now() - t2) / 1000;
client.release();

const table = Object.entries(counts).map(([t, n]) => ({ table: t, rows: n }));
console.log(`\nseed of ${bills.toLocaleString('en-US')} bills: ${seconds.toFixed(1)} s, ${rowsTotal.toLocaleString('en-US')} rows, ${Math.round(rowsTotal / seconds).toLocaleString('en-US')} rows/s overall\n`);
console.log('table                 rows');
for (const r of table) console.log(`${r.table.padEnd(20)} ${String(r.rows).padStart(10)}`);
console.log(`\nbills only (${billRows.length} rows, same data):`);
console.log(`  multi-row INSERT (${per}/statement)  ${insertSeconds.toFixed(2)} s  ${Math.round(billRows.length / insertSeconds).toLocaleString('en-US')} rows/s`);
console.log(`  COPY FROM STDIN                   ${copySeconds.toFixed(2)} s  ${Math.round(billRows.length / copySeconds).toLocaleString('en-US')} rows/s  (${(insertSeconds / copySeconds).toFixed(1)}x)`);

const result = {
  bills, seconds, rows_total: rowsTotal, rows_per_second: rowsTotal / seconds, counts,
  baseline: { table: 'bills', rows: billRows.length, insert_seconds: insertSeconds, insert_rows_per_second: billRows.length / insertSeconds, copy_seconds: copySeconds, copy_rows_per_second: billRows.length / copySeconds, insert_rows_checked: copyCheck },
  machine: { node: process.version, cpus: (await import('node:os')).cpus().length }, measured_at: new Date().toISOString(),
};
await fs.mkdir('bench/results', { recursive: true });
await fs.writeFile(`bench/results/seed${bills === 30_000 ? '' : '-' + bills}.json`, JSON.stringify(result, null, 2) + '\n');
await db.end();
await base.end();
await admin.query('DROP DATABASE IF EXISTS lds_bench_seed WITH (FORCE)');
await admin.query('DROP DATABASE IF EXISTS lds_bench_seed_insert WITH (FORCE)');
await admin.end();
await embedded?.stop();
