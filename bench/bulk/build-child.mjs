// One bulk build in a process of its own, so its RSS is the builder's alone (run.mjs samples it).
// `all`: the bulk role's build (buildSnapshots, every jurisdiction and the nationwide scope,
// forced). A comma list of codes: those jurisdictions in one snapshot, written and published as
// the role writes them (with an empty signature, so a later real build rebuilds them).
// Prints one JSON line: { ms, bytes, scopes, cpu, memory }; memory holds the peak of each part of
// process.memoryUsage() sampled every 50 ms (V8 heap used and committed, external memory and
// ArrayBuffers such as zlib's and pg's Buffers), to tell what the RSS run.mjs samples is made of.
import pino from 'pino';
import { createPool } from '../../dist/db/pool.js';
import { buildSnapshots, writeScope } from '../../dist/bulk/build.js';
import { withSnapshot } from '../../dist/bulk/snapshot.js';
import { jurisdictionRecords } from '../../dist/bulk/records.js';
import { cleanup, publish } from '../../dist/bulk/store.js';
import { backendCpu, ownCpu } from './cpu.mjs';

const [url, which] = process.argv.slice(2);
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
const started = process.hrtime.bigint();
let scopes;
if (which === 'all') {
  scopes = (await buildSnapshots(pool, pino({ level: 'silent' }), { force: true })).built;
} else {
  const codes = which.split(',');
  const client = await pool.connect();
  try {
    await withSnapshot(client, async (snap) => {
      const states = (
        await client.query(
          'SELECT state_id, state_abbr::text AS state_abbr FROM states WHERE state_abbr = ANY($1::text[]) ORDER BY state_abbr',
          [codes],
        )
      ).rows;
      const fresh = [];
      for (const j of states) fresh.push(...(await writeScope(pool, j.state_abbr, '', jurisdictionRecords(client, j))));
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
const cpu = { node: ownCpu(), postgres: await backendCpu(pool, APP) };
process.stdout.write(JSON.stringify({ ms, bytes: Number(bytes), scopes, cpu, memory }) + '\n');
await pool.end();
