// One gateway process for the stream benchmark: relay + in-process bus + either the real app
// (mode "hub") or the bare baseline (mode "bare": a plain node:http server that serializes each
// event once into a pre-built frame and writes it with res.write to every client whose state filter
// matches, indexed by state like the hub; resume with Last-Event-ID replays from an in-memory list
// of every frame since start). Both get the same commits through the same relay. Reports its port
// and, on request, its RSS, CPU time (user and system apart) and open connections.
import http from 'node:http';
import { pino } from 'pino';
import { buildApp } from '../../dist/app.js';
import { deliveryKinds } from '../../dist/delivery-kinds.js';
import { Outbound } from '../../dist/webhooks/delivery/outbound.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { startRelay } from '../../dist/changes/relay.js';
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';

const [mode, dbUrl] = process.argv.slice(2);
const config = loadConfig({
  LOG_LEVEL: 'silent',
  STREAM_ROTATE_MS: '3600000',
  // one key holds every client of this fan-out benchmark: neither its cap nor its opening pace applies
  STREAM_CONNECTIONS_PER_KEY: 'enterprise:1000000',
  STREAM_OPENS_PER_SEC: '0',
  RELAY_POLL_MS: '1000',
  PUBLIC_BASE_URL: 'http://bench',
});
const log = pino({ level: 'silent' });
const pool = createPool(dbUrl, 8, 'lds-bench-gateway');
const bus = new MemoryBus();
const relay = await startRelay({ config, db: pool, dbRead: pool, databaseUrl: dbUrl, bus, log });

let port;
let connections = () => 0;
if (mode === 'hub') {
  const outbound = new Outbound({ allowedHosts: [], timeoutMs: config.webhookTimeoutMs });
  const app = await buildApp(config, { db: pool, bus, databaseUrl: dbUrl, outbound, kinds: deliveryKinds() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = app.server.address().port;
  connections = () => app.streamHub?.size ?? 0;
} else {
  const byState = new Map();
  const all = new Set();
  const log = []; // { at, state, frame } of every event since start, for resume
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const states = url.searchParams.get('states')?.split(',') ?? [];
    const cursor =
      req.headers['last-event-id'] ??
      (url.searchParams.get('since') ? new Date(url.searchParams.get('since')).toISOString().replace('Z', '000Z') : '');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('retry: 5000\n: lds-stream v1\n\n');
    for (const e of log) if (e.at > cursor && (states.length === 0 || states.includes(e.state))) res.write(e.frame);
    const sets = states.length ? states.map((s) => byState.get(s) ?? byState.set(s, new Set()).get(s)) : [all];
    for (const set of sets) set.add(res);
    res.on('close', () => {
      for (const set of sets) set.delete(res);
    });
  });
  bus.subscribe((e) => {
    const data = {
      bill_id: e.bill_id,
      bill_number: e.bill_number,
      state: e.state,
      title: e.title,
      reason: e.reason,
      reason_id: e.reason_id,
      changed_at: e.changed_at,
    };
    const frame = Buffer.from(`event: bill_change\nid: ${e.changed_at}\ndata: ${JSON.stringify(data)}\n\n`);
    log.push({ at: e.changed_at, state: e.state, frame });
    const set = byState.get(e.state);
    if (set) for (const res of set) res.write(frame);
    for (const res of all) res.write(frame);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
  connections = () => [...byState.values()].reduce((a, s) => a + s.size, all.size);
}
process.on('message', (m) => {
  if (m === 'stats')
    process.send({
      rss: process.memoryUsage().rss,
      cpu: process.cpuUsage(),
      connections: connections(),
      hrUs: Number(process.hrtime.bigint() / 1000n),
    });
  if (m === 'exit') relay.stop().finally(() => process.exit(0));
});
process.send({ port });
