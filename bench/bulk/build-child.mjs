// One bulk build in a process of its own, so its RSS is the builder's alone (run.mjs samples it).
// `all`: the bulk role's build (buildSnapshots, every jurisdiction and the nationwide scope,
// forced); `changed`: the role's build as it runs every BULK_INTERVAL (what changed since the
// current files). A comma list of codes: those jurisdictions in one snapshot, written by the role's lanes
// (writeInSnapshot: worker threads sharing the snapshot) and published as the role publishes them
// (with an empty signature, so a later real build rebuilds them). A third argument sets the number
// of lanes (default: the role's).
// Prints one JSON line: { ms, bytes, scopes, blocks, cpu, memory }; memory holds the peak of each part of
// process.memoryUsage() sampled every 50 ms (V8 heap used and committed, external memory and
// ArrayBuffers such as zlib's and pg's Buffers), to tell what the RSS run.mjs samples is made of.
import pino from 'pino';
import { createPool } from '../../dist/db/pool.js';
import { buildSnapshots, wholeJurisdiction, writeInSnapshot } from '../../dist/bulk/build.js';
import { SESSION_BILLS_SQL } from '../../dist/bulk/blocks.js';
import { withSnapshot } from '../../dist/bulk/snapshot.js';
import { cleanup, currentFiles, publish } from '../../dist/bulk/store.js';
import { ownCpu, sampleBackendCpu } from './cpu.mjs';

const [url, which, lanesArg] = process.argv.slice(2);
const silent = pino({ level: 'silent' });
const lanes = lanesArg ? Number(lanesArg) : undefined;
const APP = 'lds-bench-bulk-build';
const pool = createPool(url, 6, APP);
// files superseded by earlier runs: the bench database keeps only the current set
await cleanup(pool, 0);
const memory = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
const sampleMemory = () => {
  const m = process.memoryUsage();
  for (const k of Object.keys(memory)) memory[k] = Math.max(memory[k], m[k]);
};
const sampler = setInterval(sampleMemory, 50);
// this process's connections and its lanes' (worker threads name theirs lds-bulk-build)
const backends = sampleBackendCpu(pool, [APP, 'lds-bulk-build']);
const started = process.hrtime.bigint();
let scopes;
let blocks;
let written;
if (which === 'all' || which === 'changed') {
  const r = await buildSnapshots(pool, silent, { force: which === 'all', databaseUrl: url, lanes });
  scopes = r.built;
  blocks = r.blocks;
  written = r.bytes;
} else {
  const codes = which.split(',');
  const client = await pool.connect();
  try {
    await withSnapshot(client, async (snap) => {
      const states = (
        await client.query(
          `SELECT state_id, state_abbr::text AS state_abbr, '' AS signature FROM states WHERE state_abbr = ANY($1::text[])`,
          [codes],
        )
      ).rows;
      const sessions = (await client.query(SESSION_BILLS_SQL)).rows;
      const units = states.flatMap((s) => wholeJurisdiction(s, sessions)).sort((a, b) => b.size - a.size);
      const fresh = await writeInSnapshot(pool, client, units, silent, { databaseUrl: url, lanes });
      const replaced = (await currentFiles(pool)).filter((f) => codes.includes(f.scope)).map((f) => f.file_id);
      await publish(pool, fresh, replaced, snap.cursor, snap.takenAt);
    });
  } finally {
    client.release();
  }
  scopes = codes;
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
clearInterval(sampler);
sampleMemory();
const { bytes } = (
  await pool.query(
    `SELECT coalesce(sum(size), 0)::bigint AS bytes FROM bulk_files WHERE status = 'current' AND scope = ANY($1::text[])`,
    [scopes],
  )
).rows[0];
const cpu = { node: ownCpu(), postgres: await backends.stop() };
// the bytes this build wrote (a build of what changed keeps the other blocks' files)
process.stdout.write(JSON.stringify({ ms, bytes: Number(written ?? bytes), scopes, blocks, cpu, memory }) + '\n');
await pool.end();
