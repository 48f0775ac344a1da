// A delivery worker in its own process, so a test can kill it (SIGKILL) mid-delivery as a crash
// would: nothing it holds is recorded or released. Runs the built code (dist/); the test passes
// the connection string and the config as JSON, and waits for "ready" on stdout.
import { createPool } from '../../dist/db/pool.js';
import { createLogger } from '../../dist/logger.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { startDeliveryWorker } from '../../dist/webhooks/delivery/worker.js';
import { Outbound } from '../../dist/webhooks/delivery/outbound.js';
import { deliveryKinds } from '../../dist/delivery-kinds.js';

const url = process.env.DATABASE_URL;
const config = JSON.parse(process.env.WORKER_CONFIG);
const db = createPool(url, 4, 'lds-test-worker');
const ctx = {
  config,
  db,
  dbRead: db,
  databaseUrl: url,
  bus: new MemoryBus(),
  log: createLogger('silent', { pretty: false }),
  kinds: deliveryKinds(),
  outbound: new Outbound({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs }),
};
await startDeliveryWorker(ctx, { pollMs: 50, leaseMarginMs: 60_000 });
process.stdout.write('ready\n');
