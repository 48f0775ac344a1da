// Bulk benchmark on the 1,000,000-bill corpus (`lds seed --scale 1000000`), each side in a process
// of its own whose RSS is sampled every 50 ms (peak reported):
//   build     the bulk build (build-child.mjs: the NDJSON file and the CSV tables of each scope,
//             from one snapshot) beside its physical limit, COPY (SELECT …) TO STDOUT of the same
//             rows through the same compressors at the same level (copy-child.mjs), in the same run;
//   download  `lds serve` (api role) streaming all.ndjson.gz and all.csv.zip over HTTP to this
//             process, beside COPY … TO STDOUT of the same stored bytes;
//   requests  a full copy through bulk + feed against paging /v1/bills and 16 sub-resources per
//             bill, from the corpus counts.
// A full build of 1,000,000 bills takes many minutes on a shared 2-core machine, longer than one
// locked benchmark run should, so by default it builds a sample of jurisdictions (--states) in
// one snapshot and scales the times by the share of the corpus's rows they hold; --states all
// builds everything as the bulk role does. Run it under the machine's benchmark lock, after
// `npm run build`:
//   flock /work/bench.lock node bench/bulk/run.mjs [--db URL] [--states WA,MN|all] [--runs N] [--build-flags '…'] [--compare-lanes] [--keep] [--out FILE]
// --runs N builds and runs both baselines N times, taking turns, and reports medians (each run's
// numbers and load averages are kept in the JSON); --build-flags passes V8/Node flags to the build
// process (e.g. --max-semi-space-size=32); --compare-lanes also builds each run in one lane (the
// role's build without its second thread). The files it builds are removed at the end (--keep
// leaves them current).
// With --states all, each run then measures the role's next build after --changes N bills changed
// (default 10,000, a hundredth of the corpus; 0: none): first N bills of the jurisdictions' latest
// sessions (where a legislature's activity is, and the simulator's), then N bills of any session.
// A changed bill here is a rewritten row (a new row version, the same content): what a build sees
// of an edit, which costs it the same rendering as any other.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '../../dist/keys/store.js';
import { waitStamped } from '../abuse/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DB ?? 'postgres://postgres@127.0.0.1:5432/lds_bench_1m' },
    states: { type: 'string', default: 'WA,MN' },
    keep: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    'build-flags': { type: 'string', default: '' },
    'compare-lanes': { type: 'boolean', default: false },
    changes: { type: 'string', default: '10000' },
    out: { type: 'string', default: 'bench/results/bulk.json' },
  },
});
const DB = args.db;
const MiB = 1024 * 1024;
const loadBefore = os.loadavg();
const pool = new pg.Pool({ connectionString: DB, max: 2, application_name: 'lds-bench-bulk' });
const one = async (sql, params) => (await pool.query(sql, params)).rows[0];

/** Peak RSS of a process, sampled from /proc every 50 ms while it runs. */
function sampleRss(pid) {
  let peak = 0;
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      /* exited */
    }
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/** Runs a child script; resolves with its JSON line and peak RSS. */
function runChild(script, argv, flags = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, path.join(here, script), ...argv], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const rss = sampleRss(child.pid);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      const peak = rss.stop();
      if (code !== 0) return reject(new Error(`${script} exited ${code}`));
      resolve({ ...JSON.parse(out.trim().split('\n').pop()), peak_rss: peak });
    });
  });
}

/** `lds serve --role <role>` on the corpus; resolves with its address and process. */
function startServer(role = 'api') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/lds.js'), 'serve', '--role', role], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: DB, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1].replace('localhost', '127.0.0.1') });
    });
    child.on('exit', (code) => reject(new Error(`lds serve exited ${code}`)));
  });
}

/** Downloads a file over HTTP in this process, counting bytes; the server's RSS is sampled meanwhile. */
async function download(url, key, serverPid) {
  const rss = sampleRss(serverPid);
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, bytes, peak_rss: rss.stop() };
}

// --- the corpus, and the share of it the sample holds ---
const codes = args.states === 'all' ? 'all' : args.states;
const rowsOf = async (where) =>
  (
    await one(`
  SELECT (SELECT count(*) FROM bills b WHERE ${where})
    + (SELECT count(*) FROM roll_call_votes v JOIN roll_calls r USING (roll_call_id) JOIN bills b ON b.bill_id = r.bill_id WHERE ${where})
    + ${[
      'bill_sponsors',
      'bill_history',
      'bill_texts',
      'bill_subjects',
      'amendments',
      'bill_referrals',
      'bill_calendar',
      'supplements',
      'bill_sasts',
      'bill_citations',
      'bill_analyses',
      'text_changes',
      'roll_calls',
    ]
      .map((t) => `(SELECT count(*) FROM ${t} t JOIN bills b USING (bill_id) WHERE ${where})`)
      .join(' + ')}
    AS n`)
  ).n;
const corpus =
  await one(`SELECT (SELECT count(*) FROM bills)::int AS bills, (SELECT count(*) FROM roll_calls)::int AS roll_calls,
  (SELECT count(*) FROM people)::int AS people, (SELECT count(*) FROM committees)::int AS committees, (SELECT count(*) FROM states)::int AS states`);
const totalRows = Number(await rowsOf('true'));
const sampleWhere =
  codes === 'all' ? 'true' : `b.state_id IN (SELECT state_id FROM states WHERE state_abbr = ANY('{${codes}}'))`;
const sampleRows = Number(await rowsOf(sampleWhere));
const sampleBills = Number((await one(`SELECT count(*) AS n FROM bills b WHERE ${sampleWhere}`)).n);
const scale = totalRows / sampleRows;
console.log(
  `corpus: ${corpus.bills.toLocaleString()} bills, ${totalRows.toLocaleString()} bill rows; sample ${codes}: ${sampleBills.toLocaleString()} bills, ${sampleRows.toLocaleString()} rows (x${scale.toFixed(1)} to the whole)`,
);

// the relay stamps pending changes (a snapshot waits for that); a corpus seeded without a running
// service has some, so a relay runs here until none is left
if (Number((await one('SELECT count(*) AS n FROM changes WHERE seq IS NULL')).n) > 0) {
  const relay = await startServer('relay');
  try {
    await waitStamped(DB);
  } finally {
    const exited = new Promise((r) => relay.child.once('exit', r));
    relay.child.kill('SIGTERM');
    await exited;
  }
}

// --- build and its baseline ---
const changes = Number(args.changes);
/** Rewrites `changes` random bills' rows: of the jurisdictions' latest sessions, or of any session. */
async function touch(where) {
  const from =
    where === 'latest'
      ? `bills WHERE session_id IN (SELECT DISTINCT ON (state_id) session_id FROM sessions ORDER BY state_id, year_start DESC, session_id DESC)`
      : 'bills';
  await pool.query(
    `UPDATE bills SET updated = updated WHERE bill_id IN (SELECT bill_id FROM ${from} ORDER BY random() LIMIT $1)`,
    [changes],
  );
}
const buildFlags = args['build-flags'].split(' ').filter(Boolean);
const runs = [];
for (let i = 0; i < Math.max(1, Number(args.runs)); i++) {
  await pool.query('DELETE FROM bulk_files'); // files of earlier runs would join `all`
  const load = os.loadavg();
  const run = {
    loadavg_before: load,
    build: await runChild('build-child.mjs', [DB, codes], buildFlags),
    // the same build in one lane (one thread writing every jurisdiction), when asked
    build1: args['compare-lanes'] ? await runChild('build-child.mjs', [DB, codes, '1'], buildFlags) : undefined,
    copyBoth: await runChild('copy-child.mjs', [DB, codes]),
    copyOne: await runChild('copy-child.mjs', [DB, codes, '--one']),
  };
  run.ratio = run.build.ms / run.copyBoth.ms;
  if (codes === 'all' && changes > 0) {
    for (const where of ['latest', 'any']) {
      await touch(where);
      run[`rebuild_${where}`] = await runChild('build-child.mjs', [DB, 'changed'], buildFlags);
      const r = run[`rebuild_${where}`];
      console.log(
        `run ${i + 1}: next build after ${changes.toLocaleString()} bills changed (${where === 'latest' ? 'latest sessions' : 'any session'}): ${(r.ms / 1000).toFixed(1)} s, ${r.blocks} blocks, ${(r.peak_rss / MiB).toFixed(0)} MiB: ${(r.ms / run.copyBoth.ms).toFixed(2)}x`,
      );
    }
  }
  runs.push(run);
  if (run.build1)
    console.log(
      `run ${i + 1}: build in one lane ${(run.build1.ms / 1000).toFixed(1)} s, ${(run.build1.peak_rss / MiB).toFixed(0)} MiB: ${(run.build1.ms / run.copyBoth.ms).toFixed(2)}x`,
    );
  console.log(
    `run ${i + 1}: build ${(run.build.ms / 1000).toFixed(1)} s, ${(run.build.peak_rss / MiB).toFixed(0)} MiB; COPY -> gzip + deflate ${(run.copyBoth.ms / 1000).toFixed(1)} s: ${run.ratio.toFixed(2)}x (load ${load.map((l) => l.toFixed(1)).join(' ')})`,
  );
}
/** The run with the median build/baseline ratio (its own numbers, not a mix of runs; of an even count the lower middle, so report every run). */
const median = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor((runs.length - 1) / 2)];
const { build, build1, copyBoth, copyOne, rebuild_latest: rebuildLatest, rebuild_any: rebuildAny } = median;

// --- download over HTTP, and its baseline ---
const keyPool = new pg.Pool({ connectionString: DB, max: 1 });
const { api_key: key } = await createKey(keyPool, { org: 'bench-bulk', tier: 'enterprise' });
await keyPool.end();
const server = await startServer();
let dl;
try {
  const list = await (await fetch(`${server.url}/v1/bulk`, { headers: { 'x-api-key': key } })).json();
  const all = list.data.find((e) => e.scope === 'all');
  dl = {
    ndjson: { ...(await download(`${server.url}/v1/bulk/all.ndjson.gz`, key, server.child.pid)), listed: all.size },
    csv: { ...(await download(`${server.url}/v1/bulk/all.csv.zip`, key, server.child.pid)), listed: all.csv.size },
  };
} finally {
  server.child.kill('SIGTERM');
}
const copyFiles = await runChild('copy-child.mjs', [DB, codes, '--files']);

// --- requests for a full copy ---
const PAGE = 500;
const perState = (await pool.query('SELECT count(*)::int AS n FROM bills GROUP BY state_id')).rows;
const paging =
  perState.reduce((n, s) => n + Math.ceil(s.n / PAGE), 0) +
  corpus.bills * 16 +
  Math.ceil(corpus.people / PAGE) +
  Math.ceil(corpus.committees / PAGE) * 2 +
  corpus.states;
// bulk: the listing, the download, the first feed page from its cursor (changes made meanwhile
// cost the same re-fetches either way)
const bulk = 3;

if (!args.keep) await pool.query(`DELETE FROM bulk_files`);
await pool.end();

// --- report ---
const s = (ms) => (ms / 1000).toFixed(1);
const mib = (b) => (b / MiB).toFixed(0);
const rows = [
  ['build (NDJSON + CSV, one pass)', s(build.ms), s(build.ms * scale), mib(build.peak_rss), mib(build.bytes)],
  ...(build1
    ? [['  the same in one lane', s(build1.ms), s(build1.ms * scale), mib(build1.peak_rss), mib(build1.bytes)]]
    : []),
  [
    '  baseline: COPY -> gzip + deflate',
    s(copyBoth.ms),
    s(copyBoth.ms * scale),
    mib(copyBoth.peak_rss),
    mib(copyBoth.gzip_bytes + copyBoth.deflate_bytes),
  ],
  ['  baseline: COPY -> gzip', s(copyOne.ms), s(copyOne.ms * scale), mib(copyOne.peak_rss), mib(copyOne.gzip_bytes)],
  ...[
    [rebuildLatest, 'latest sessions'],
    [rebuildAny, 'any session'],
  ]
    .filter(([r]) => r)
    .map(([r, where]) => [
      `next build, ${changes.toLocaleString()} bills changed in ${where} (${r.blocks} blocks)`,
      s(r.ms),
      s(r.ms),
      mib(r.peak_rss),
      mib(r.bytes),
    ]),
  [
    'download all.ndjson.gz (HTTP)',
    s(dl.ndjson.ms),
    s(dl.ndjson.ms * scale),
    mib(dl.ndjson.peak_rss),
    mib(dl.ndjson.bytes),
  ],
  ['download all.csv.zip (HTTP)', s(dl.csv.ms), s(dl.csv.ms * scale), mib(dl.csv.peak_rss), mib(dl.csv.bytes)],
  [
    '  baseline: COPY of the stored bytes',
    s(copyFiles.ms),
    s(copyFiles.ms * scale),
    mib(copyFiles.peak_rss),
    mib(copyFiles.text_bytes),
  ],
];
console.log('\n| case | s (sample) | s (1M, scaled) | peak RSS MiB | output MiB |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const ratios = {
  build_vs_copy_same_compression: build.ms / copyBoth.ms,
  build_vs_copy_gzip_only: build.ms / copyOne.ms,
  ...(rebuildLatest && { next_build_latest_vs_copy: rebuildLatest.ms / copyBoth.ms }),
  ...(rebuildAny && { next_build_any_vs_copy: rebuildAny.ms / copyBoth.ms }),
  download_vs_copy: (dl.ndjson.ms + dl.csv.ms) / copyFiles.ms,
};
console.log(
  `\n${runs.length > 1 ? `median of ${runs.length} runs by ratio; ` : ''}build / baseline (same compressors): ${ratios.build_vs_copy_same_compression.toFixed(2)}x; / gzip only: ${ratios.build_vs_copy_gzip_only.toFixed(2)}x`,
);
if (build.memory)
  console.log(
    `build memory at peak (MiB): rss ${mib(build.memory.rss)}, V8 heap ${mib(build.memory.heapUsed)} used / ${mib(build.memory.heapTotal)} committed, external ${mib(build.memory.external)} (ArrayBuffers ${mib(build.memory.arrayBuffers)})`,
  );
console.log(`download (both files) / COPY of their bytes: ${ratios.download_vs_copy.toFixed(2)}x`);
console.log(
  `requests for a full copy: paging ${paging.toLocaleString()} vs bulk + feed ${bulk} (${Math.round(paging / bulk).toLocaleString()}x fewer)`,
);

const result = {
  when: new Date().toISOString(),
  loadavg_before: loadBefore,
  loadavg_after: os.loadavg(),
  cpus: os.cpus().length,
  corpus: { ...corpus, bill_rows: totalRows },
  sample: { states: codes, bills: sampleBills, rows: sampleRows, scale },
  build,
  changes: rebuildLatest ? changes : 0,
  next_build_latest_sessions: rebuildLatest,
  next_build_any_session: rebuildAny,
  baseline_copy_gzip_deflate: copyBoth,
  baseline_copy_gzip: copyOne,
  download: dl,
  baseline_copy_files: copyFiles,
  ratios,
  requests: { paging, bulk_and_feed: bulk, page_size: PAGE, sub_resources_per_bill: 16 },
  build_flags: buildFlags,
  runs: runs.map((r) => ({
    loadavg_before: r.loadavg_before,
    ratio: r.ratio,
    build: r.build,
    rebuild_latest: r.rebuild_latest,
    rebuild_any: r.rebuild_any,
    baseline_copy_gzip_deflate: r.copyBoth,
    baseline_copy_gzip: r.copyOne,
  })),
};
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(path.resolve(root, args.out), JSON.stringify(result, null, 2) + '\n');
