// One gateway process for the stream benchmark: relay + in-process bus + either the real app
// (mode "hub") or a naive broadcaster (mode "naive": a plain loop writing each event, serialized
// per response, to every open response). Reports its port and, on request, its RSS and CPU time.
import http from 'node:http';
import { pino } from 'pino';
import { buildApp } from '../../dist/app.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { startRelay } from '../../dist/bus/relay.js';
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';

const [mode, dbUrl] = process.argv.slice(2);
const config = loadConfig({ LOG_LEVEL: 'silent', STREAM_ROTATE_MS: '3600000', RELAY_POLL_MS: '1000', PUBLIC_BASE_URL: 'http://bench' });
const log = pino({ level: 'silent' });
const pool = createPool(dbUrl, 8, 'lds-bench-gateway');
const bus = new MemoryBus();
const relay = await startRelay({ config, db: pool, dbRead: pool, databaseUrl: dbUrl, bus, log });

let port;
if (mode === 'hub') {
  const app = await buildApp(config, { db: pool, bus, databaseUrl: dbUrl });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = app.server.address().port;
} else {
  const clients = new Set();
  const server = http.createServer((req, res) => {
    const states = new URL(req.url, 'http://x').searchParams.get('states');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('retry: 5000\n: lds-stream v1\n\n');
    const c = { res, states: states ? new Set(states.split(',')) : null };
    clients.add(c);
    res.on('close', () => clients.delete(c));
  });
  bus.subscribe((e) => {
    for (const c of clients) {
      if (c.states && !c.states.has(e.state)) continue;
      const data = { bill_id: e.bill_id, bill_number: e.bill_number, state: e.state, title: e.title, reason: e.reason, reason_id: e.reason_id, changed_at: e.changed_at };
      c.res.write(`event: bill_change\nid: ${e.changed_at}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
}
process.on('message', (m) => {
  if (m === 'stats') process.send({ rss: process.memoryUsage().rss, cpu: process.cpuUsage() });
  if (m === 'exit') relay.stop().finally(() => process.exit(0));
});
process.send({ port });
