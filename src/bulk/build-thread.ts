// A lane of a bulk build on a worker thread (lanes.ts): its own connections, the build's exported
// snapshot, units asked of the builder one at a time, file ids reported back.
import { parentPort, workerData } from 'node:worker_threads';
import { createPool } from '../db/pool.js';
import { runLane, type Target, type ThreadInput, type ThreadMessage } from './lanes.js';

const port = parentPort!;
const { databaseUrl, snapshotId } = workerData as ThreadInput;
const send = (m: ThreadMessage) => port.postMessage(m);

/** The next unit (null from the builder: none left). */
const next = () =>
  new Promise<Target | undefined>((resolve) => {
    port.once('message', (t: Target | null) => resolve(t ?? undefined));
    send({ type: 'next' });
  });

// the reading client and a few writers (a scope's files store their chunks concurrently)
const pool = createPool(databaseUrl, 4, 'lds-bulk-build');
try {
  await runLane(pool, snapshotId, next, (b) => send({ type: 'built', ...b }));
} finally {
  await pool.end();
}
send({ type: 'done' });
