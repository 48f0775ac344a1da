// Import throughput on the shared real data, against a parse-only baseline measured in the same
// run (the same files read and parsed, no writes). Each importer runs on a fresh database: first
// import, then a re-import of the same files (nothing changed: the no-op path).
//
//   node bench/import.mjs [case ...] [--runs N]   (cases: legiscan-xml legiscan-json legiscan-json-zip congress-legislators congress-116 openstates-people; default all)
//
// Each case runs N times (default 3), each time in a new Node process on a new database, as a user's
// `lds import` runs (code not yet compiled, workers not yet started), and reports the median of
// every number with the spread of the import time: on a shared 2-core machine one run can be 15 % off.
// Builds dist/ first (tsc), uses DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres, prints a
// table and writes bench/results/import.json with the machine's load average before and after.
// "legiscan-json" is the MS 2014 dataset rewritten as LegiScan JSON files (same element names,
// lists as arrays) in a temporary folder: the only real JSON sample (AK, 6 bills) is too small to time.
// "legiscan-json-zip" is that folder zipped (deflated) as getDataset delivers it, by the system's
// `zip` command (the case is left out, with a message, where there is none).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
if (!process.argv.includes('--no-build') && !process.argv.includes('--child'))
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
const { migrate } = await import('../dist/db/migrate.js');
const { createPool } = await import('../dist/db/pool.js');
const { importLegiscan } = await import('../dist/ingest/legiscan/import.js');
const { FOLDERS, openZipDataset, readFolder, readZipFolder } = await import('../dist/ingest/legiscan/read.js');
const { XML_LISTS } = await import('../dist/ingest/legiscan/parse.js');
const { ParsePool } = await import('../dist/ingest/read/parse-pool.js');
const { importOpenStatesPeople } = await import('../dist/ingest/openstates/import.js');
const { importCongressLegislators } = await import('../dist/ingest/congress/legislators.js');
const { importCongress } = await import('../dist/ingest/congress/bills.js');
const { parseYaml, yamlParser } = await import('../dist/ingest/read/yaml.js');

const DATA = path.resolve(ROOT, '../shared/data');
const MS = path.join(DATA, 'legiscan/xml-ms-2014-regular');
const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function walk(dir, test, out = []) {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(p, test, out);
    else if (test(p)) out.push(p);
  }
  return out;
}

/** XML shape → JSON shape: a wrapper holding one list (<sponsors><sponsor/>…) becomes the array. */
function jsonShape(v) {
  if (Array.isArray(v)) return v.map(jsonShape);
  if (!v || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && XML_LISTS.has(keys[0]) && Array.isArray(v[keys[0]])) return v[keys[0]].map(jsonShape);
  return Object.fromEntries(keys.map((k) => [k, jsonShape(v[k])]));
}

async function msAsJson() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-bench-json-'));
  const root = { people: 'person', bill: 'bill', vote: 'roll_call' };
  for (const folder of ['people', 'bill', 'vote']) {
    await fs.mkdir(path.join(dir, folder));
    for await (const p of readFolder(MS, folder)) {
      await fs.writeFile(
        path.join(dir, folder, path.basename(p.file).replace(/\.xml$/, '.json')),
        JSON.stringify({ status: 'OK', [root[folder]]: jsonShape(p.data) }),
      );
    }
  }
  return dir;
}

async function parseLegiscan(dir) {
  const pool = new ParsePool();
  let n = 0;
  try {
    for (const f of FOLDERS) for await (const p of readFolder(dir, f, pool)) n += p.data ? 1 : 0;
  } finally {
    await pool.close();
  }
  return n;
}

async function parseLegiscanZip(file) {
  const pool = new ParsePool();
  let n = 0;
  try {
    const zip = await openZipDataset(file);
    for (const f of FOLDERS) for await (const p of readZipFolder(zip, f, pool)) n += p.data ? 1 : 0;
  } finally {
    await pool.close();
  }
  return n;
}

/** The JSON folder as a getDataset zip: MS/2014-2014_Regular_Session/{people,bill,vote}/… */
async function msAsZip() {
  const json = (jsonDir ??= process.env.LDS_BENCH_JSON_DIR ?? (await msAsJson()));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-bench-zip-'));
  const session = path.join(dir, 'MS/2014-2014_Regular_Session');
  await fs.mkdir(path.dirname(session), { recursive: true });
  await fs.symlink(json, session);
  execFileSync('zip', ['-qr', path.join(dir, 'MS_2014_Regular_Session.zip'), 'MS'], { cwd: dir });
  return path.join(dir, 'MS_2014_Regular_Session.zip');
}

/** YAML files parsed the way the Open States importer does it: worker threads, in chunks. */
async function parseYamlFiles(files) {
  const pool = new ParsePool();
  let n = 0;
  try {
    for await (const p of pool.files(yamlParser, files)) n += p.data ? 1 : 0;
  } finally {
    await pool.close();
  }
  return n;
}

const legiscanCase = (name, dir) => ({
  name,
  bills: async () => (await fs.readdir(path.join(await dir(), 'bill'))).length,
  run: async (pool) => importLegiscan(pool, await dir()),
  parse: async () => parseLegiscan(await dir()),
});
let jsonDir;
let zipFile;
const haveZip = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!haveZip && !process.argv.includes('--child'))
  console.warn('legiscan-json-zip left out: no zip command on this machine (apt-get install zip)');
const CASES = [
  legiscanCase('legiscan-xml', async () => MS),
  legiscanCase('legiscan-json', async () => (jsonDir ??= process.env.LDS_BENCH_JSON_DIR ?? (await msAsJson()))),
  ...(haveZip
    ? [
        {
          name: 'legiscan-json-zip',
          bills: async () => (await fs.readdir(path.join(MS, 'bill'))).length,
          run: async (pool) => importLegiscan(pool, (zipFile ??= process.env.LDS_BENCH_ZIP ?? (await msAsZip()))),
          parse: async () => parseLegiscanZip((zipFile ??= process.env.LDS_BENCH_ZIP ?? (await msAsZip()))),
        },
      ]
    : []),
  {
    name: 'congress-legislators',
    run: (pool) => importCongressLegislators(pool, path.join(DATA, 'congress-legislators')),
    parse: async () =>
      parseYaml(await fs.readFile(path.join(DATA, 'congress-legislators/legislators-current.yaml'), 'utf8')).length,
  },
  {
    name: 'congress-116',
    bills: async () =>
      (await walk(path.join(DATA, 'congress-116/data/116/bills'), (p) => p.endsWith('data.json'))).length,
    run: (pool) => importCongress(pool, path.join(DATA, 'congress-116/data/116')),
    parse: async () => {
      const fl = await walk(path.join(DATA, 'congress-116/data/116'), (p) => p.endsWith('data.json'));
      for (const f of fl) JSON.parse(await fs.readFile(f, 'utf8'));
      return fl.length;
    },
  },
  {
    name: 'openstates-people',
    run: (pool) => importOpenStatesPeople(pool, path.join(DATA, 'openstates-people/data')),
    parse: async () => parseYamlFiles(await walk(path.join(DATA, 'openstates-people/data'), (p) => p.endsWith('.yml'))),
  },
];
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a whole number of at least 1');
const childAt = args.indexOf('--child');
const wanted = args.filter(
  (a, i) => !a.startsWith('--') && !(runsAt >= 0 && i === runsAt + 1) && !(childAt >= 0 && i > childAt),
);
const cases = wanted.length ? CASES.filter((c) => wanted.includes(c.name)) : CASES;

/**
 * CPU seconds the database's backends for this bench database have used so far (Linux, server on
 * this machine: /proc/<pid>/stat; null when unreadable). With other work on the machine, CPU
 * seconds compare better across runs than wall time.
 */
async function dbCpu(pool, dbName) {
  const { rows } = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName]);
  let t = 0;
  for (const { pid } of rows) {
    try {
      const f = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      t += (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return null;
    }
  }
  return t;
}

const c = new pg.Client({ connectionString: admin });
await c.connect();
const loadBefore = os.loadavg().map((x) => +x.toFixed(2));
const results = [];
const s = (t) => (performance.now() - t) / 1000;

/** One run of a case on a database of its own: parse-only, first import, re-import. */
async function once(k, run) {
  const dbName = `lds_bench_import_${process.pid}_${results.length}_${run}`;
  await c.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(admin);
  u.pathname = '/' + dbName;
  const pool = createPool(u.toString(), 4, 'lds-bench');
  try {
    await migrate(pool);
    const bills = k.bills ? await k.bills() : 0;
    const loadavg = os.loadavg().map((x) => +x.toFixed(2));
    let t = performance.now();
    const files = await k.parse();
    const parseS = s(t);
    // Connections opened first, so the backends' CPU counters cover the whole import.
    await Promise.all(Array.from({ length: 4 }, () => pool.query('SELECT 1')));
    const db0 = await dbCpu(pool, dbName);
    const cpu0 = process.cpuUsage();
    t = performance.now();
    const report = await k.run(pool);
    const importS = s(t);
    const cpu = process.cpuUsage(cpu0);
    const db1 = await dbCpu(pool, dbName);
    const records = [...report.counts.values()].reduce((a, x) => a + x.inserted + x.updated + x.unchanged, 0);
    t = performance.now();
    const again = await k.run(pool);
    const rerunS = s(t);
    const billPhase = report.phases.get('bills');
    return {
      importer: k.name,
      files,
      records,
      bills,
      parse_only_s: parseS,
      import_s: importS,
      bill_phase_s: billPhase ?? null,
      phases_s: Object.fromEntries(report.phases),
      import_node_cpu_s: (cpu.user + cpu.system) / 1e6,
      import_db_cpu_s: db0 === null || db1 === null ? null : db1 - db0,
      reimport_s: rerunS,
      errors: report.problems.length + again.problems.length,
      loadavg_at_start: loadavg,
    };
  } finally {
    await pool.end();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const r2 = (x) => (x === null ? null : +x.toFixed(2));

/** One run in a child process of its own; it prints its result as the last line of its output. */
async function inChild(k, run) {
  const env = {
    ...process.env,
    ...(jsonDir ? { LDS_BENCH_JSON_DIR: jsonDir } : {}),
    ...(zipFile ? { LDS_BENCH_ZIP: zipFile } : {}),
  };
  const out = await new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [import.meta.filename, '--child', k.name, String(run)],
      { env, maxBuffer: 1 << 24 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${k.name} run ${run} failed: ${stderr || err.message}`)) : resolve(stdout),
    ),
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

if (childAt >= 0) {
  const k = CASES.find((x) => x.name === args[childAt + 1]);
  try {
    console.log(JSON.stringify(await once(k, Number(args[childAt + 2]))));
  } finally {
    await c.end();
  }
  process.exit(0);
}

try {
  for (const k of cases) {
    if (k.name === 'legiscan-json') jsonDir ??= await msAsJson();
    if (k.name === 'legiscan-json-zip') zipFile ??= await msAsZip();
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await inChild(k, i));
    const m = (key) => median(runs.map((x) => x[key]));
    const { importer, files, records, bills } = runs[0];
    const importS = m('import_s');
    const parseS = m('parse_only_s');
    const rerunS = m('reimport_s');
    const billPhase = m('bill_phase_s');
    const phases = [...new Set(runs.flatMap((x) => Object.keys(x.phases_s)))]
      .map((p) => [p, median(runs.map((x) => x.phases_s[p] ?? null))])
      .filter(([, v]) => v >= 0.005);
    results.push({
      importer,
      files,
      records,
      bills,
      runs: RUNS,
      parse_only_s: r2(parseS),
      parse_files_per_s: Math.round(files / parseS),
      import_s: r2(importS),
      import_s_range: [r2(Math.min(...runs.map((x) => x.import_s))), r2(Math.max(...runs.map((x) => x.import_s)))],
      records_per_s: Math.round(records / importS),
      ...(bills ? { bills_per_s: Math.round(bills / importS) } : {}),
      ...(billPhase ? { bill_phase_s: r2(billPhase), bill_phase_bills_per_s: Math.round(bills / billPhase) } : {}),
      phases_s: Object.fromEntries(phases.map(([p, v]) => [p, r2(v)])),
      import_node_cpu_s: r2(m('import_node_cpu_s')),
      import_db_cpu_s: r2(m('import_db_cpu_s')),
      reimport_s: r2(rerunS),
      reimport_records_per_s: Math.round(records / rerunS),
      reimport_vs_parse: r2(rerunS / parseS),
      errors: runs.reduce((a, x) => a + x.errors, 0),
      loadavg_at_start: runs[0].loadavg_at_start,
      measured_at: new Date().toISOString(),
    });
  }
} finally {
  await c.end();
  if (jsonDir) await fs.rm(jsonDir, { recursive: true, force: true });
  if (zipFile) await fs.rm(path.dirname(zipFile), { recursive: true, force: true });
}
const loadAfter = os.loadavg().map((x) => +x.toFixed(2));
console.table(
  results.map(({ phases_s: _p, measured_at: _m, import_s_range: range, ...r }) => ({
    ...r,
    import_s_range: range.join('–'),
  })),
);
for (const r of results) console.log(r.importer, 'phases (s)', JSON.stringify(r.phases_s));
console.log(
  `load average (1, 5, 15 min) before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')} on ${os.availableParallelism()} CPUs`,
);
await fs.mkdir(path.join(import.meta.dirname, 'results'), { recursive: true });
const out = path.join(import.meta.dirname, 'results/import.json');
// Cases not run this time keep their last result.
const previous = await fs
  .readFile(out, 'utf8')
  .then((x) => JSON.parse(x).results ?? [])
  .catch(() => []);
const merged = [
  ...results,
  ...previous.filter(
    (p) => !results.some((r) => r.importer === p.importer) && CASES.some((c) => c.name === p.importer),
  ),
];
await fs.writeFile(
  out,
  JSON.stringify(
    {
      measured_at: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      loadavg: {
        before: loadBefore,
        after: loadAfter,
        note: 'other processes on the machine share these CPUs; compare runs at similar load (each result carries the load average when it started; results of cases not run this time are kept from their own run)',
      },
      definitions: {
        runs: 'each case ran this many times, each on a new database; every number is the median of the runs, import_s_range the fastest and slowest',
        bills_per_s:
          'bill files / wall time of the whole import (people, bills with every part, roll calls with member votes)',
        bill_phase_bills_per_s:
          'bill files / wall time of the bill phase alone (bills with sponsors, history, texts, vote headers, subjects, committees)',
        import_node_cpu_s:
          'CPU seconds of the importing process during the first import (main thread and parse workers)',
        import_db_cpu_s:
          'CPU seconds of the PostgreSQL backends serving the import during the first import (null when not readable)',
        parse_only_s:
          'the same files read and parsed (worker threads for LegiScan and Open States, as the importers do), nothing written',
      },
      results: merged,
    },
    null,
    2,
  ) + '\n',
);
