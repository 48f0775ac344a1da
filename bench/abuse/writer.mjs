// The writer of the abuse benchmark: `rate` StatusChange changes a second on random existing bills,
// through the same recordChanges path as the importers (one transaction each), so the server's
// relay stamps them and its stream hub delivers them live while the tenants' load runs. Runs until
// the parent sends 'stop', then reports how many it wrote.
//   forked by bench/abuse/run.mjs with { url, rate }
import { recordChanges } from '../../dist/changes/record.js';
import { createPool } from '../../dist/db/pool.js';

const { url, rate } = JSON.parse(process.argv[2]);
const pool = createPool(url, 1, 'lds-bench-writer');
const { rows: bills } = await pool.query('SELECT bill_id, state_id FROM bills ORDER BY random() LIMIT 2000');
let stop = false;
let written = 0;
process.on('message', (m) => {
  if (m === 'stop') stop = true;
});
process.send('ready');
const start = performance.now();
for (let i = 0; !stop; i++) {
  const wait = start + (i * 1000) / rate - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const b = bills[i % bills.length];
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await recordChanges(c, [{ bill_id: b.bill_id, state_id: b.state_id, reason: 'StatusChange' }]);
    await c.query('COMMIT');
    written++;
  } finally {
    c.release();
  }
}
await pool.end();
// the 'message' listener keeps the IPC channel (and this process) alive: exit once the parent has it
process.send({ written }, () => process.exit(0));
