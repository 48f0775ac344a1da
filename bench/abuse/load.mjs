// One tenant's load, open loop: `rate` requests a second for `seconds`, each sent on schedule
// whether or not the previous ones have answered (a client that does not slow down when the
// service does). Reports every request's latency and status to the parent.
//   forked by bench/abuse/run.mjs with { base, key, rate, seconds, kind }; it says 'ready' once loaded
//   and starts on 'go', so the phase's clock starts when every process of the phase has started
//   (three Node processes loading at once on 2 cores delayed the first requests by themselves).
//   `key` may be a list: the requests take its keys in turn, several tenants from one process.
import { Agent, request } from 'undici';

const { base, key, rate, seconds, kind, ids, warm = 0 } = JSON.parse(process.argv[2]);
const keys = Array.isArray(key) ? key : [key];
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });

// The cheap reads of a dashboard: one bill, a short state page; and, at a tenth of that rate on
// its own schedule, /v1/health (no database query: it shows the event loop's own delay).
const STATES = ['NY', 'CA', 'TX', 'FL', 'IL', 'PA', 'OH', 'GA'];
function quietPath(i) {
  return i % 2 === 0
    ? `/v1/bills/${ids.min + Math.floor(Math.random() * (ids.max - ids.min))}`
    : `/v1/bills?state=${STATES[i % STATES.length]}&limit=10`;
}
// The most expensive reads that still pass validation: deep pages (alone, under q, under a
// substring filter) and a full-text query whose exclusion PostgreSQL must recheck row by row.
const NOISY = [
  '/v1/bills?offset=99000&limit=500',
  '/v1/bills?q=act&offset=50000&limit=500',
  '/v1/bills?q=act%20-act&limit=500',
  '/v1/bills?title_contains=the&offset=90000&limit=500',
  '/v1/bills?q=state%20or%20act%20or%20public%20or%20bill&offset=99000&limit=500',
];
// with several keys, each key goes through every path in turn
const path = (i) => (kind === 'quiet' ? quietPath(i) : NOISY[Math.floor(i / keys.length) % NOISY.length]);

const results = [];
const pending = [];
// --warm-quiet: connections opened (and kept alive) before the phase, as a running client holds them
await Promise.all(
  Array.from({ length: warm }, () =>
    request(`${base}/v1/health`, { dispatcher: agent }).then((res) => res.body.dump()),
  ),
);
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send('ready');
});
const start = performance.now();

async function schedule(perSecond, pathOf, tag) {
  const interval = 1000 / perSecond;
  const total = Math.round(perSecond * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    pending.push(
      request(base + pathOf(i), {
        dispatcher: agent,
        headers: { 'x-api-key': keys[i % keys.length] },
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      })
        .then(async (res) => {
          await res.body.dump();
          results.push({ tag, status: res.statusCode, ms: performance.now() - t0, at: t0 - start });
        })
        .catch((err) =>
          results.push({ tag, status: 0, ms: performance.now() - t0, at: t0 - start, error: err.code ?? err.message }),
        ),
    );
  }
}
await Promise.all([
  schedule(rate, path, 'read'),
  ...(kind === 'quiet' ? [schedule(rate / 10, () => '/v1/health', 'health')] : []),
]);
await Promise.all(pending);
await agent.close();
process.send({ kind, results });
