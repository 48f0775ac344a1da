// Webhook delivery benchmark: sustained signed deliveries per second from one process (dispatcher
// + worker) to N local receivers answering after a delay, first-attempt commit-to-receiver latency,
// and a receiver hanging 15 s beside them. Baseline in the same run: a bare undici loop posting the
// same bodies to the same receivers at the same concurrency. Besides rates it reports the cost per
// delivery: PostgreSQL round trips (by statement kind), CPU of this process, and CPU of the
// PostgreSQL backends serving it (read from /proc when the server runs on this machine).
// Push-mirror phase: pushes per second of ONE mirror draining a backlog of bill changes over
// --mirror-states states in LegiScan's wire format (rendered from the database at send time, one
// bill push in flight at a time: the mirror's lane) to a receiver answering after the same delay;
// its baselines in the same run are a bare undici loop posting a rendered bill push to the same
// receiver one at a time, and at the mirror's in-flight cap.
//
// Build first: npx tsc -p tsconfig.build.json
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/webhooks/deliveries.mjs [flags]
// Flags (all optional):
//   --receivers N         receivers (subscriptions) in the throughput run      (default 50)
//   --delay MS            receiver answer delay                                 (default 5)
//   --changes N           backlog of changes; each yields one delivery per receiver (default 300)
//   --concurrency N       WORKER_CONCURRENCY for the worker, and the baseline's (default: config default)
//   --latency-seconds S   duration of the steady-load latency phase             (default 8)
//   --tick-changes N      changes stamped every 100 ms in the latency phase      (default 1)
//   --hang-ms MS          how long the hanging receiver holds each request       (default 15000)
//   --mirror-changes N    bill changes in each push-mirror run                  (default 400; at most --mirror-states × 200)
//   --mirror-states N     states the push-mirror changes are spread over         (default 8)
//   --mirror-rate N       changes/s of the push-mirror's steady-load run          (default 25)
//   --mirror-seconds S    duration of that run                                   (default 20)
//   --out FILE            where to save the JSON (default bench/results/webhooks.json)
//   --no-save             print only
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent } from 'undici';
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';
import { migrate } from '../../dist/db/migrate.js';
import { createKey } from '../../dist/keys/store.js';
import { createLogger } from '../../dist/logger.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { startDispatcher } from '../../dist/webhooks/queue/dispatcher.js';
import { startDeliveryWorker } from '../../dist/webhooks/delivery/worker.js';
import { createSubscription } from '../../dist/webhooks/subscriptions.js';
import { generateSecret } from '../../dist/webhooks/delivery/signing.js';
import { renderPush } from '../../dist/mirror/handler.js';
import { deliveryKinds } from '../../dist/delivery-kinds.js';
import { Outbound } from '../../dist/webhooks/delivery/outbound.js';
import { PER_SUBSCRIPTION } from '../../dist/webhooks/delivery/worker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    receivers: { type: 'string', default: '50' },
    delay: { type: 'string', default: '5' },
    changes: { type: 'string', default: process.env.BENCH_CHANGES ?? '300' },
    concurrency: { type: 'string', default: process.env.WORKER_CONCURRENCY },
    'latency-seconds': { type: 'string', default: process.env.BENCH_LATENCY_SECONDS ?? '8' },
    'tick-changes': { type: 'string', default: process.env.BENCH_TICK_CHANGES ?? '1' },
    'hang-ms': { type: 'string', default: '15000' },
    'mirror-changes': { type: 'string', default: '400' },
    'mirror-states': { type: 'string', default: '8' },
    'mirror-rate': { type: 'string', default: '25' },
    'mirror-seconds': { type: 'string', default: '20' },
    out: { type: 'string', default: path.join(here, '../results/webhooks.json') },
    'no-save': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .map((l) => l.slice(3))
      .join('\n'),
  );
  process.exit(0);
}
const RECEIVERS = Number(flags.receivers);
const DELAY_MS = Number(flags.delay);
const BACKLOG_CHANGES = Number(flags.changes);
const LATENCY_SECONDS = Number(flags['latency-seconds']);
const TICK_CHANGES = Number(flags['tick-changes']);
// The mirror runs give each bench bill at most one change: a second change of a bill is carried
// inside the bill's one push, so a run with more changes than bills would wait for pushes that
// never come.
const MIRROR_BILLS_PER_STATE = 200;
if (Number(flags['mirror-changes']) > Number(flags['mirror-states']) * MIRROR_BILLS_PER_STATE) {
  console.error(
    `--mirror-changes may be at most --mirror-states × ${MIRROR_BILLS_PER_STATE} (${Number(flags['mirror-states']) * MIRROR_BILLS_PER_STATE})`,
  );
  process.exit(2);
}
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `lds_bench_wh_${process.pid}`;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

// --- cost meters --------------------------------------------------------------------------------
const trips = new Map();
// wall time per statement kind (includes waiting for the server), to see where the time goes
const tripMs = new Map();
const kindOf = (sql) => {
  const s = String(typeof sql === 'string' ? sql : (sql?.text ?? ''))
    .trim()
    .replace(/\s+/g, ' ');
  if (/^WITH cand|^WITH claimed|deliveries d SET status = 'in_flight'/.test(s)) return 'claim';
  if (/^WITH input/.test(s)) return 'complete';
  if (/^INSERT INTO deliveries/.test(s)) return 'fan-out insert';
  if (/FROM changes c JOIN change_reasons/.test(s)) return 'fan-out read';
  return s.split(' ').slice(0, 2).join(' ').slice(0, 30);
};
const countTrips = (pool) =>
  pool.on('connect', (client) => {
    const query = client.query.bind(client);
    client.query = (...args) => {
      const k = kindOf(args[0]);
      trips.set(k, (trips.get(k) ?? 0) + 1);
      const t = performance.now();
      const took = () => tripMs.set(k, (tripMs.get(k) ?? 0) + performance.now() - t);
      // pg.Pool#query passes a callback; direct client calls get a promise
      const cb = args.length > 1 && typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
      if (cb) return query(...args, (err, res) => (took(), cb(err, res)));
      const r = query(...args);
      if (r?.then) r.then(took, () => undefined);
      return r;
    };
  });
const tripSnapshot = () => ({ n: new Map(trips), ms: new Map(tripMs) });
const tripDelta = (before, n) => {
  const out = {};
  let total = 0;
  for (const [k, v] of trips) {
    const d = v - (before.n.get(k) ?? 0);
    if (d > 0) {
      out[k] = { statements: d, wall_ms: Math.round((tripMs.get(k) ?? 0) - (before.ms.get(k) ?? 0)) };
      total += d;
    }
  }
  return { total, per_1000_deliveries: +((total / n) * 1000).toFixed(1), by_kind: out };
};
// CPU of the PostgreSQL backends connected to the bench database (clock ticks from /proc).
const TICK_MS = 10;
async function pgCpu(admin) {
  try {
    const { rows } = await admin.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [dbName],
    );
    const m = new Map();
    for (const { pid } of rows) {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      m.set(pid, (Number(f[11]) + Number(f[12])) * TICK_MS);
    }
    return m;
  } catch {
    return undefined;
  }
}
const pgCpuDelta = (a, b) => (a && b ? [...b].reduce((s, [pid, ms]) => s + ms - (a.get(pid) ?? 0), 0) : null);
const cpuMs = (u) => (u.user + u.system) / 1000;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const u = new URL(adminUrl);
u.pathname = '/' + dbName;
const db = createPool(u.toString(), 12, 'bench');
countTrips(db);
const child = fork(path.join(here, 'receivers.mjs'), [String(RECEIVERS), String(DELAY_MS), flags['hang-ms']]);
const arrivals = [];
child.on('message', (m) => {
  if (m.arrivals) for (const a of m.arrivals) arrivals.push(a);
});
const { ports, hangPort, mirrorPort } = await new Promise((resolve) => child.once('message', resolve));
let stamper;
const results = {
  receivers: RECEIVERS,
  receiver_delay_ms: DELAY_MS,
  loadavg_start: loadavg().map((x) => +x.toFixed(2)),
};

try {
  await migrate(db);
  // stamping and metering go through their own connection, not counted as the service's round trips
  stamper = new pg.Client({ connectionString: u.toString() });
  await stamper.connect();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://bench.test',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...(flags.concurrency ? { WORKER_CONCURRENCY: flags.concurrency } : {}),
  });
  results.worker_concurrency = config.workerConcurrency;
  console.error(`migrated; baseline (bare undici, ${config.workerConcurrency} in flight)...`);
  // --- baseline: bare undici, same body size, same receivers, same concurrency -----------------
  const body = JSON.stringify({
    type: 'status_change',
    id: 'evt_0_status_change',
    api_version: 'v1',
    occurred_at: new Date().toISOString(),
    data: {
      bill: {
        bill_id: 1,
        state: 'TX',
        bill_number: 'HB1',
        title: 'x'.repeat(80),
        status_id: 2,
        status_date: '2026-11-01',
        updated: new Date().toISOString(),
        url: 'http://x/v1/bills/1',
      },
      change: { reason: 'StatusChange', reason_id: 2, old_status_id: 1, new_status_id: 2 },
    },
  });
  const agent = new Agent({ connections: 16 });
  const total = BACKLOG_CHANGES * RECEIVERS;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: config.workerConcurrency }, async () => {
      while (next < total) {
        const i = next++;
        const res = await agent.request({
          origin: `http://127.0.0.1:${ports[i % RECEIVERS]}`,
          path: '/hook',
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        await res.body.dump();
      }
    }),
  );
  const baseSecs = (performance.now() - t0) / 1000;
  results.baseline = {
    deliveries: total,
    seconds: +baseSecs.toFixed(2),
    per_second: Math.round(total / baseSecs),
    cpu_us_per_delivery: Math.round((cpuMs(process.cpuUsage(cpu0)) * 1000) / total),
  };
  await agent.close();
  arrivals.length = 0;

  // --- service: subscriptions, bills, dispatcher + worker --------------------------------------
  const keys = [
    await createKey(db, { org: 'bench' }),
    await createKey(db, { org: 'bench' }),
    await createKey(db, { org: 'bench' }),
  ];
  for (let i = 0; i < RECEIVERS; i++) {
    await createSubscription(db, {
      apiKeyId: keys[i % 2].api_key_id,
      orgName: 'bench',
      kind: 'webhook',
      url: `http://127.0.0.1:${ports[i]}/hook`,
      events: ['status_change'],
      states: [],
      subjects: [],
      secret: generateSecret(),
    });
  }
  await db.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end) VALUES (19000000, 43, 2026, 2026)`);
  await db.query(`INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
                  SELECT g, 43, 19000000, 'HB' || g, 'HB' || g, 89, 89, 'Bench bill ' || g FROM generate_series(19000000, 19000999) g`);
  let billCursor = 0;
  const stamp = async (n) => {
    billCursor += n;
    const { rows } = await stamper.query(
      `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, seq, changed_at)
       SELECT 19000000 + (($2 + g) % 1000), 43, 2, 1, 2, (SELECT coalesce(max(seq), 0) FROM changes) + g, clock_timestamp() + g * interval '1 microsecond'
       FROM generate_series(1, $1) g RETURNING change_id`,
      [n, billCursor],
    );
    return { at: Date.now(), ids: rows.map((r) => r.change_id) };
  };
  const ctx = {
    config,
    db,
    dbRead: db,
    databaseUrl: u.toString(),
    bus: new MemoryBus(),
    log: createLogger('silent', { pretty: false }),
    kinds: deliveryKinds(),
    outbound: new Outbound({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs }),
  };
  const dispatcher = await startDispatcher(ctx, { pollMs: 20 });
  const worker = await startDeliveryWorker(ctx, { pollMs: 20 });

  console.error('baseline', results.baseline, '; service backlog...');
  // throughput: drain a backlog
  const want = BACKLOG_CHANGES * RECEIVERS;
  const trips0 = tripSnapshot();
  const pg0 = await pgCpu(stamper);
  const cpu1 = process.cpuUsage();
  const t1 = performance.now();
  await stamp(BACKLOG_CHANGES);
  while (arrivals.length < want) await new Promise((r) => setTimeout(r, 20));
  const secs = (performance.now() - t1) / 1000;
  const cpuService = cpuMs(process.cpuUsage(cpu1));
  // completions still being recorded belong to this phase's cost
  await new Promise((r) => setTimeout(r, 500));
  const pgMs = pgCpuDelta(pg0, await pgCpu(stamper));
  results.service = {
    deliveries: want,
    seconds: +secs.toFixed(2),
    per_second: Math.round(want / secs),
    cpu_us_per_delivery: Math.round((cpuService * 1000) / want),
    postgres_cpu_us_per_delivery: pgMs === null ? null : Math.round((pgMs * 1000) / want),
    round_trips: tripDelta(trips0, want),
  };
  results.ratio_to_baseline = +(results.service.per_second / results.baseline.per_second).toFixed(2);
  arrivals.length = 0;

  console.error('service', results.service, '; latency...');
  // latency under steady load, with one receiver hanging on every request
  await createSubscription(db, {
    apiKeyId: keys[2].api_key_id,
    orgName: 'bench',
    kind: 'webhook',
    url: `http://127.0.0.1:${hangPort}/hook`,
    events: ['status_change'],
    states: [],
    subjects: [],
    secret: generateSecret(),
  });
  const commits = new Map();
  const end = Date.now() + LATENCY_SECONDS * 1000;
  while (Date.now() < end) {
    const { at, ids } = await stamp(TICK_CHANGES);
    for (const id of ids) commits.set(`evt_${id}_status_change`, at);
    await new Promise((r) => setTimeout(r, 100));
  }
  const expected = commits.size * RECEIVERS;
  const deadline = Date.now() + 10_000;
  while (arrivals.filter((a) => a[0] !== 'hang').length < expected && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const seen = new Set();
  const lat = [];
  for (const [id, t, msg] of arrivals) {
    if (id === 'hang' || seen.has(msg)) continue;
    seen.add(msg);
    if (commits.has(id)) lat.push(t - commits.get(id));
  }
  results.latency_first_attempt_ms = {
    samples: lat.length,
    expected,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: Math.max(...lat),
  };
  results.hanging_receiver = {
    requests_started: arrivals.filter((a) => a[0] === 'hang').length,
    others_delivered: lat.length,
    others_expected: expected,
  };
  // waits for the hanging receiver's requests to time out (webhook timeout) before the database goes
  await worker.stop();
  await dispatcher.stop();

  // --- push-mirror: one mirror draining bill changes, one state (one lane) then several ----------
  const MIRROR_CHANGES = Number(flags['mirror-changes']);
  const MIRROR_STATES = Number(flags['mirror-states']);
  await db.query('UPDATE subscriptions SET active = false');
  const states = (
    await db.query(
      `SELECT DISTINCT ON (state_id) state_id, body_id FROM bodies WHERE state_id NOT IN (43, 52) ORDER BY state_id, body_id LIMIT $1`,
      [MIRROR_STATES],
    )
  ).rows;
  for (const [i, st] of states.entries()) {
    await db.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end) VALUES ($1, $2, 2026, 2026)`, [
      19100000 + i,
      st.state_id,
    ]);
    await db.query(
      `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, title)
                    SELECT g, $1, $2, 'SB' || g, 'SB' || g, $3, $3, 'Mirror bench bill ' || g FROM generate_series($4::int, $4::int + ${MIRROR_BILLS_PER_STATE - 1}) g`,
      [st.state_id, 19100000 + i, st.body_id, 19100000 + i * 1000],
    );
    await db.query(
      `INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major)
                    SELECT g, 1, '2026-01-09', 'First reading, referred to committee', $2, 1 FROM generate_series($1::int, $1::int + ${MIRROR_BILLS_PER_STATE - 1}) g`,
      [19100000 + i * 1000, st.body_id],
    );
  }
  // baseline: the same receiver, a rendered bill push posted by a bare undici loop at the mirror's in-flight cap
  const pushBody = JSON.stringify(
    await renderPush(db, 0, { root: 'bill', bill_id: 19100000 }, null, [2], 'http://bench.test'),
  );
  const mtotal = MIRROR_CHANGES;
  const bare = async (inFlight) => {
    const magent = new Agent({ connections: inFlight });
    let mnext = 0;
    const tb = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (mnext < mtotal) {
          mnext++;
          const res = await magent.request({
            origin: `http://127.0.0.1:${mirrorPort}`,
            path: '/push',
            method: 'POST',
            body: pushBody,
            headers: { 'content-type': 'application/json' },
          });
          await res.body.dump();
        }
      }),
    );
    await magent.close();
    return { pushes: mtotal, in_flight: inFlight, per_second: Math.round(mtotal / ((performance.now() - tb) / 1000)) };
  };
  results.mirror = {
    receiver_delay_ms: DELAY_MS,
    baseline_serial: await bare(1),
    baseline_cap: await bare(PER_SUBSCRIPTION),
    runs: [],
  };
  const mctx = { ...ctx };
  const mdispatcher = await startDispatcher(mctx, { pollMs: 20 });
  const mworker = await startDeliveryWorker(mctx, { pollMs: 20 });
  for (const nStates of [states.length]) {
    const sub = await createSubscription(db, {
      apiKeyId: keys[0].api_key_id,
      orgName: 'bench',
      kind: 'push_mirror',
      url: `http://127.0.0.1:${mirrorPort}/push`,
      events: ['status_change'],
      states: [],
      subjects: [],
      secret: generateSecret(),
    });
    await new Promise((r) => setTimeout(r, 20)); // changes are stamped after the mirror's creation time
    arrivals.length = 0;
    const tm = performance.now();
    await stamper.query(
      `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, seq, changed_at)
       SELECT b.bill_id, b.state_id, 2, 1, 2, (SELECT coalesce(max(seq), 0) FROM changes) + g, clock_timestamp() + g * interval '1 microsecond'
       FROM generate_series(1, $1) g JOIN LATERAL (SELECT bill_id, state_id FROM bills WHERE bill_id = 19100000 + ((g - 1) % $2) * 1000 + ((g - 1) / $2) % ${MIRROR_BILLS_PER_STATE}) b ON true`,
      [mtotal, nStates],
    );
    while (arrivals.filter((a) => a[0] === 'mirror').length < mtotal) await new Promise((r) => setTimeout(r, 20));
    const msecs = (performance.now() - tm) / 1000;
    results.mirror.runs.push({
      states: nStates,
      pushes: mtotal,
      seconds: +msecs.toFixed(2),
      per_second: Math.round(mtotal / msecs),
    });
    await db.query('UPDATE subscriptions SET active = false WHERE id = $1', [sub.id]);
  }
  // steady load: changes arrive at --mirror-rate per second for --mirror-seconds on random bench
  // bills (one in six as a pair on the same bill, as a passed vote makes a Vote and a StatusChange);
  // the mirror keeps up when its oldest waiting push stays young and it drains as soon as the
  // changes stop
  {
    const RATE = Number(flags['mirror-rate']);
    const SECS = Number(flags['mirror-seconds']);
    const nBills = states.length * 200;
    const sub = await createSubscription(db, {
      apiKeyId: keys[0].api_key_id,
      orgName: 'bench',
      kind: 'push_mirror',
      url: `http://127.0.0.1:${mirrorPort}/push`,
      events: ['status_change'],
      states: [],
      subjects: [],
      secret: generateSecret(),
    });
    await new Promise((r) => setTimeout(r, 20));
    arrivals.length = 0;
    let changes = 0;
    let maxLagMs = 0;
    const lag = async () =>
      Number(
        (
          await db.query(
            `SELECT coalesce(extract(epoch FROM now() - min(created_at)) * 1000, 0) AS ms FROM deliveries WHERE subscription_id = $1 AND status IN ('pending', 'in_flight')`,
            [sub.id],
          )
        ).rows[0].ms,
      );
    const t0 = performance.now();
    for (let tick = 0; performance.now() - t0 < SECS * 1000; tick++) {
      const due = Math.round(((tick + 1) * RATE) / 10) - Math.round((tick * RATE) / 10);
      const bills = [];
      for (let i = 0; i < due; i++) {
        const g = Math.floor(Math.random() * nBills);
        const bill = 19100000 + Math.floor(g / 200) * 1000 + (g % 200);
        bills.push(bill);
        if (Math.random() < 1 / 6 && i + 1 < due) {
          bills.push(bill);
          i++;
        }
      }
      if (bills.length > 0) {
        await stamper.query(
          `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, seq, changed_at)
           SELECT b.bill_id, b.state_id, 2, 1, 2, (SELECT coalesce(max(seq), 0) FROM changes) + g.n, clock_timestamp() + g.n * interval '1 microsecond'
           FROM unnest($1::int[]) WITH ORDINALITY AS g(bill_id, n) JOIN bills b ON b.bill_id = g.bill_id`,
          [bills],
        );
        changes += bills.length;
      }
      if (tick % 5 === 0) maxLagMs = Math.max(maxLagMs, await lag());
      const next = t0 + (tick + 1) * 100;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    const stopped = performance.now();
    maxLagMs = Math.max(maxLagMs, await lag());
    while ((await lag()) > 0) await new Promise((r) => setTimeout(r, 20));
    const drainMs = performance.now() - stopped;
    const {
      rows: [d],
    } = await db.query(
      `SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE status = 'delivered' AND attempts = 0)::int AS carried, count(*) FILTER (WHERE status <> 'delivered')::int AS undelivered
       FROM deliveries WHERE subscription_id = $1`,
      [sub.id],
    );
    results.mirror.steady = {
      rate: RATE,
      seconds: SECS,
      changes,
      deliveries: d.deliveries,
      carried: d.carried,
      undelivered: d.undelivered,
      pushes_received: arrivals.filter((a) => a[0] === 'mirror').length,
      max_lag_ms: Math.round(maxLagMs),
      drain_ms: Math.round(drainMs),
    };
    await db.query('UPDATE subscriptions SET active = false WHERE id = $1', [sub.id]);
  }
  await mworker.stop();
  await mdispatcher.stop();
  results.loadavg_end = loadavg().map((x) => +x.toFixed(2));
} finally {
  child.kill();
  await stamper?.end();
  await db.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}

const s = results.service;
console.table({
  'bare undici (baseline)': {
    'deliveries/s': results.baseline.per_second,
    deliveries: results.baseline.deliveries,
    'CPU µs/delivery': results.baseline.cpu_us_per_delivery,
    'PG µs/delivery': '-',
    'PG trips/1000': '-',
  },
  'service (signed, queued)': {
    'deliveries/s': s.per_second,
    deliveries: s.deliveries,
    'CPU µs/delivery': s.cpu_us_per_delivery,
    'PG µs/delivery': s.postgres_cpu_us_per_delivery,
    'PG trips/1000': s.round_trips.per_1000_deliveries,
  },
});
console.table({ 'first attempt, commit to receiver (ms)': results.latency_first_attempt_ms });
const m = results.mirror;
console.table({
  'bare undici, 1 in flight (baseline)': {
    'pushes/s': m.baseline_serial.per_second,
    pushes: m.baseline_serial.pushes,
    states: '-',
  },
  [`bare undici, ${m.baseline_cap.in_flight} in flight (baseline)`]: {
    'pushes/s': m.baseline_cap.per_second,
    pushes: m.baseline_cap.pushes,
    states: '-',
  },
  ...Object.fromEntries(
    m.runs.map((r) => [
      `push-mirror (one mirror, bill pushes)`,
      { 'pushes/s': r.per_second, pushes: r.pushes, states: r.states },
    ]),
  ),
});
if (m.steady) console.table({ 'push-mirror, steady changes': m.steady });
console.log('round trips by kind:', s.round_trips.by_kind);
console.log(
  'ratio to baseline:',
  results.ratio_to_baseline,
  ' hanging receiver:',
  results.hanging_receiver,
  ' loadavg:',
  results.loadavg_start,
  '→',
  results.loadavg_end,
);
if (!flags['no-save']) {
  mkdirSync(path.dirname(flags.out), { recursive: true });
  writeFileSync(
    flags.out,
    JSON.stringify({ ...results, at: new Date().toISOString(), node: process.version }, null, 2) + '\n',
  );
}
process.exit(0);
