// The read benchmark's load generator, in a process of its own (never the server's event loop).
//   node bench/read/load.mjs '{"mode":"closed","url":...,"seconds":10,"connections":50,"headers":{}}'
//   node bench/read/load.mjs '{"mode":"open","url":...,"seconds":10,"rate":400,"headers":{}}'
// Prints one JSON line with the result.
//
// closed: autocannon, `connections` clients each sending its next request when the previous one is
// answered: the maximum throughput.
// open: a fixed schedule (request i is due at start + i / rate) whatever the answers do, and each
// latency runs from the request's due time, not from when it could be sent: a stalled server
// makes every request due meanwhile late, as the users behind them feel it (no coordinated
// omission). autocannon's own rate option is not used: it sends each second's quota as a burst at
// the start of the second and corrects latency by an interval of 1/rate rounded up to one ms.
// `warmupSeconds` (default 0) runs the same schedule first without counting it, as wrk2 calibrates
// before it measures: this process starts cold (its HTTP client not yet compiled, no connection
// open), and so does a server just back from idle; the warm-up's own p99 and max are reported
// beside the measured ones, so the cost of that start stays visible.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Pool } from 'undici';

const opts = JSON.parse(process.argv[2]);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (v) => (v === null ? null : Math.round(v * 10) / 10);

async function closed() {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.seconds,
    headers: opts.headers ?? {},
  });
  return {
    mode: 'closed',
    connections: opts.connections ?? 50,
    seconds: r.duration,
    rps: Math.round(r.requests.total / r.duration),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

async function open() {
  const url = new URL(opts.url);
  const path = url.pathname + url.search;
  // Enough sockets that the pool never holds a due request back while the server has room: at
  // the rates used here, outstanding requests = rate x latency stays far below this.
  const pool = new Pool(url.origin, {
    connections: opts.maxConnections ?? 512,
    pipelining: 1,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const interval = 1000 / opts.rate;
  const warm = Math.round(opts.rate * (opts.warmupSeconds ?? 0));
  const total = warm + Math.round(opts.rate * opts.seconds);
  const latencies = [];
  const warmLatencies = [];
  const status = {};
  let errors = 0;
  let maxSendLag = 0;
  let sent = 0;
  let done = 0;
  let allDone;
  const finished = new Promise((r) => (allDone = r));

  const fire = (due, counted) => {
    if (counted) maxSendLag = Math.max(maxSendLag, performance.now() - due);
    pool
      .request({ path, method: 'GET', headers: opts.headers ?? {} })
      .then(
        async (res) => {
          await res.body.dump({ limit: 1e9 });
          if (!counted) return warmLatencies.push(performance.now() - due);
          status[res.statusCode] = (status[res.statusCode] ?? 0) + 1;
          latencies.push(performance.now() - due);
        },
        () => errors++,
      )
      .finally(() => {
        if (++done === total) allDone();
      });
  };

  const start = performance.now() + 5;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        fire(start + sent * interval, sent >= warm);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - performance.now())));
      else resolve();
    };
    setTimeout(tick, 5);
  });
  // Whatever is still unanswered a minute after the last send counts as an error.
  await Promise.race([finished, new Promise((r) => setTimeout(r, 60_000).unref())]);
  const elapsed = (performance.now() - start - warm * interval) / 1000;
  await pool.destroy();
  latencies.sort((a, b) => a - b);
  warmLatencies.sort((a, b) => a - b);
  const ok = Object.entries(status)
    .filter(([s]) => s.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
  return {
    mode: 'open',
    rate: opts.rate,
    seconds: opts.seconds,
    sent: total - warm,
    answered: latencies.length,
    ok,
    non2xx: latencies.length - ok,
    errors: errors + (total - done),
    achieved_rps: Math.round(latencies.length / elapsed),
    p50_ms: ms(percentile(latencies, 50)),
    p90_ms: ms(percentile(latencies, 90)),
    p99_ms: ms(percentile(latencies, 99)),
    max_ms: ms(latencies.at(-1) ?? null),
    max_send_lag_ms: ms(maxSendLag),
    // every failure counts in errors above, warm-up or not
    ...(warm
      ? {
          warmup_seconds: opts.warmupSeconds,
          warmup_answered: warmLatencies.length,
          warmup_p99_ms: ms(percentile(warmLatencies, 99)),
          warmup_max_ms: ms(warmLatencies.at(-1) ?? null),
        }
      : {}),
  };
}

const result = opts.mode === 'open' ? await open() : await closed();
process.stdout.write(JSON.stringify(result) + '\n');
