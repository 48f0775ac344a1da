// One bulk build in a process of its own, so its RSS is the builder's alone (run.mjs samples it).
// `all`: the bulk role's build (buildSnapshots, every jurisdiction and the nationwide scope,
// forced). A comma list of codes: those jurisdictions in one snapshot, written by the role's lanes
// (writeInSnapshot: worker threads sharing the snapshot) and published as the role publishes them
// (with an empty signature, so a later real build rebuilds them). A third argument sets the number
// of lanes (default: the role's).
// Prints one JSON line: { ms, bytes, scopes, cpu, memory }; memory holds the peak of each part of
// process.memoryUsage() sampled every 50 ms (V8 heap used and committed, external memory and
// ArrayBuffers such as zlib's and pg's Buffers), to tell what the RSS run.mjs samples is made of.
import pino from 'pino';
import { createPool } from '../../dist/db/pool.js';
import { buildSnapshots, writeInSnapshot } from '../../dist/bulk/build.js';
import { withSnapshot } from '../../dist/bulk/snapshot.js';
import { cleanup, publish } from '../../dist/bulk/store.js';
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
if (which === 'all') {
  scopes = (await buildSnapshots(pool, silent, { force: true, databaseUrl: url, lanes })).built;
} else {
  const codes = which.split(',');
  const client = await pool.connect();
  try {
    await withSnapshot(client, async (snap) => {
      const states = (
        await client.query(
          `SELECT state_id, state_abbr::text AS state_abbr, '' AS signature FROM states s WHERE state_abbr = ANY($1::text[])
           ORDER BY (SELECT count(*) FROM bills b WHERE b.state_id = s.state_id) DESC`,
          [codes],
        )
      ).rows;
      const fresh = await writeInSnapshot(pool, client, states, silent, { databaseUrl: url, lanes });
      await publish(pool, fresh, snap.cursor, snap.takenAt);
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
process.stdout.write(JSON.stringify({ ms, bytes: Number(bytes), scopes, cpu, memory }) + '\n');
await pool.end();
