// Import throughput on the shared real data: records per second for each importer, against a
// parse-only baseline of the same files (what the reading costs without any writes).
// Usage: DATABASE_URL=postgres://… node bench/import.mjs   (after `npx tsc -p tsconfig.build.json`)
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { migrate } from '../dist/db/migrate.js';
import { createPool } from '../dist/db/pool.js';
import { importLegiscan } from '../dist/ingest/legiscan/import.js';
import { FOLDERS, readFolder } from '../dist/ingest/legiscan/read.js';
import { importOpenStatesPeople } from '../dist/ingest/openstates/import.js';
import { importCongressLegislators } from '../dist/ingest/congress/legislators.js';
import { importCongress } from '../dist/ingest/congress/bills.js';

const DATA = path.resolve(import.meta.dirname, '../../shared/data');
const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `lds_bench_import_${process.pid}`;

async function walk(dir, test, out = []) {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(p, test, out);
    else if (test(p)) out.push(p);
  }
  return out;
}

const cases = [
  { name: 'legiscan-xml-ms-2014', run: (pool) => importLegiscan(pool, path.join(DATA, 'legiscan/xml-ms-2014-regular')),
    parse: async () => { let n = 0; for (const f of FOLDERS) for await (const p of readFolder(path.join(DATA, 'legiscan/xml-ms-2014-regular'), f)) n += p.data ? 1 : 0; return n; } },
  { name: 'congress-legislators', run: (pool) => importCongressLegislators(pool, path.join(DATA, 'congress-legislators')),
    parse: async () => parse(await fs.readFile(path.join(DATA, 'congress-legislators/legislators-current.yaml'), 'utf8')).length },
  { name: 'congress-116', run: (pool) => importCongress(pool, path.join(DATA, 'congress-116/data/116')),
    parse: async () => { const fl = await walk(path.join(DATA, 'congress-116/data/116'), (p) => p.endsWith('data.json')); for (const f of fl) JSON.parse(await fs.readFile(f, 'utf8')); return fl.length; } },
  { name: 'openstates-people', run: (pool) => importOpenStatesPeople(pool, path.join(DATA, 'openstates-people/data')),
    parse: async () => { const fl = await walk(path.join(DATA, 'openstates-people/data'), (p) => p.endsWith('.yml')); for (const f of fl) parse(await fs.readFile(f, 'utf8')); return fl.length; } },
];

const c = new pg.Client({ connectionString: admin });
await c.connect();
await c.query(`CREATE DATABASE ${dbName}`);
const u = new URL(admin);
u.pathname = '/' + dbName;
const pool = createPool(u.toString(), 4, 'lds-bench');
const results = [];
try {
  await migrate(pool);
  for (const k of cases) {
    let t = performance.now();
    const parsed = await k.parse();
    const parseS = (performance.now() - t) / 1000;
    t = performance.now();
    const report = await k.run(pool);
    const importS = (performance.now() - t) / 1000;
    const records = [...report.counts.values()].reduce((a, x) => a + x.inserted + x.updated + x.unchanged, 0);
    t = performance.now();
    await k.run(pool);
    const rerunS = (performance.now() - t) / 1000;
    results.push({ importer: k.name, files: parsed, records, parse_only_s: +parseS.toFixed(2), parse_files_per_s: Math.round(parsed / parseS),
      import_s: +importS.toFixed(2), records_per_s: Math.round(records / importS), reimport_s: +rerunS.toFixed(2), reimport_records_per_s: Math.round(records / rerunS) });
  }
} finally {
  await pool.end();
  await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await c.end();
}
console.table(results);
await fs.mkdir(path.join(import.meta.dirname, 'results'), { recursive: true });
await fs.writeFile(path.join(import.meta.dirname, 'results/import.json'), JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, results }, null, 2) + '\n');
