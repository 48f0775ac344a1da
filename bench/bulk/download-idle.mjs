// Where a download's memory peak starts from: `lds serve --role api` on a database whose bulk files
// are built (the bulk role ran), downloading all.ndjson.gz and all.csv.zip three times each, once
// right after the server starts and once after it idled for --idle-ms, taking turns, each in a
// fresh server. A server just started still holds the young generation its start grew; one idle
// for a while has given it back (bench/run.mjs downloads right after starting, so it shows the first).
// --variants lists Node flags for the server, '|' between variants ('' is the default), each pair
// running every variant in turn, e.g. --variants='|--max-semi-space-size=4' (the young
// generation's size, which decides how long sent Buffers wait for a collection).
//   flock /work/bench.lock node bench/bulk/download-idle.mjs --db URL [--idle-ms 45000] [--pairs 2] [--variants='A|B'] [--out FILE]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '../../dist/keys/store.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    'idle-ms': { type: 'string', default: '45000' },
    pairs: { type: 'string', default: '2' },
    variants: { type: 'string', default: '' },
    out: { type: 'string' },
  },
});
if (!args.db) throw new Error('--db URL: a database whose bulk files are built');
const root = path.resolve(import.meta.dirname, '../..');
const MiB = 1048576;

const pool = new pg.Pool({ connectionString: args.db, max: 1 });
const { api_key: key } = await createKey(pool, { org: 'bench-bulk-idle', tier: 'enterprise' });
await pool.end();

const variants = args.variants.split('|');
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

async function run(waitMs, flags) {
  const nodeFlags = flags.split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, 'bin/lds.js'), 'serve', '--role', 'api'], {
    env: { ...process.env, DATABASE_URL: args.db, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
      });
      child.on('exit', (code) => reject(new Error(`lds serve exited ${code}`)));
    });
    await new Promise((r) => setTimeout(r, waitMs));
    const idle = rssOf(child.pid);
    let peak = idle;
    const timer = setInterval(() => (peak = Math.max(peak, rssOf(child.pid))), 20);
    let bytes = 0;
    for (let i = 0; i < 3; i++)
      for (const file of ['all.ndjson.gz', 'all.csv.zip']) {
        const res = await fetch(`${url}/v1/bulk/${file}`, { headers: { 'x-api-key': key } });
        if (res.status !== 200) throw new Error(`${file}: ${res.status} (are the bulk files built?)`);
        for await (const chunk of res.body) bytes += chunk.length;
      }
    clearInterval(timer);
    return {
      node_flags: flags,
      wait_ms: waitMs,
      idle_mib: Math.round(idle / MiB),
      peak_mib: Math.round(peak / MiB),
      mib_sent: Math.round(bytes / MiB),
    };
  } finally {
    child.kill('SIGTERM');
  }
}

const runs = [];
for (let i = 0; i < Number(args.pairs); i++)
  for (const flags of variants)
    for (const wait of [0, Number(args['idle-ms'])]) {
      const r = await run(wait, flags);
      runs.push(r);
      console.log(
        `${flags || 'default'}, waited ${r.wait_ms} ms: idle ${r.idle_mib} MiB, peak ${r.peak_mib} MiB while sending ${r.mib_sent} MiB`,
      );
    }
// per variant and wait: the least and most peak over the pairs
const summary = [];
for (const flags of variants)
  for (const wait of [0, Number(args['idle-ms'])]) {
    const peaks = runs.filter((r) => r.node_flags === flags && r.wait_ms === wait).map((r) => r.peak_mib);
    summary.push({ node_flags: flags, wait_ms: wait, peak_mib: [Math.min(...peaks), Math.max(...peaks)] });
    console.log(`${flags || 'default'}, waited ${wait} ms: peak ${Math.min(...peaks)}-${Math.max(...peaks)} MiB`);
  }
if (args.out) {
  fs.writeFileSync(
    path.resolve(args.out),
    JSON.stringify({ measured_at: new Date().toISOString(), summary, runs }, null, 2) + '\n',
  );
  console.log(`wrote ${args.out}`);
}
