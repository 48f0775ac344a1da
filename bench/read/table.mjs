// Prints the README's read benchmark table from bench/results/read.json: one row per endpoint and
// corpus, app beside the baseline of the same run, and how far each is from the targets.
//   node bench/read/table.mjs [bench/results/read.json]
import { readFileSync } from 'node:fs';
import { perfTable } from './perf-split.mjs';

const file = process.argv[2] ?? new URL('../results/read.json', import.meta.url).pathname;
const { corpora } = JSON.parse(readFileSync(file, 'utf8'));
const la = (l) => l.map((x) => x.toFixed(1)).join(' ');
const n = (x) => Math.round(x).toLocaleString('en-US');
const lat = (o) => `${o.p50_ms} / ${o.p99_ms} / ${o.max_ms}`;
// The open-loop generator could not send on schedule: the latencies include its own lag.
const behind = (o) => o.max_send_lag_ms > 50 || o.achieved_rps < 0.95 * o.rate;

const withBefore = Object.values(corpora).some((c) => c.results.some((r) => r.before));
// runs whose open loop had a warm-up (load.mjs warmupSeconds): its p99, a server just back from idle
const withWarmup = Object.values(corpora).some((c) => c.open_warmup_seconds > 0);
const warmup = (r) =>
  r.open.app.warmup_p99_ms === undefined ? '—' : `${r.open.app.warmup_p99_ms} / ${r.open.baseline.warmup_p99_ms}`;
console.log(
  '| corpus | endpoint | app / baseline req/s | ratio (≥ 0.9) | fixed rate | app p50 / p99 / max ms | baseline p50 / p99 / max ms | p99 ratio (≤ 1.5) |' +
    `${withWarmup ? ' warm-up second p99 app / baseline ms |' : ''} CPU µs/req app / baseline |` +
    `${withBefore ? ' before this round: ratio, p99 ratio, CPU µs/req |' : ''} load avg |`,
);
console.log(`|---|---|---|---|---|---|---|---|${withWarmup ? '---|' : ''}---|${withBefore ? '---|' : ''}---|`);
for (const [corpus, c] of Object.entries(corpora)) {
  for (const r of c.results) {
    const o = r.open;
    const cpu = `${n(o.app.cpu_ms_per_req * 1000)} / ${n(o.baseline.cpu_ms_per_req * 1000)}`;
    const ok = (v, good) => (good ? `**${v}**` : `${v}`);
    const late = [o.app, o.baseline].some(behind);
    const note = `${r.rows === undefined ? '' : ` (${r.rows} row${r.rows === 1 ? '' : 's'})`}${late ? ' (generator behind)' : ''}`;
    console.log(
      `| ${corpus} | ${r.endpoint}${note} | ${n(r.closed.app.rps)} / ${n(r.closed.baseline.rps)} | ${ok(r.closed.ratio, r.closed.ratio >= 0.9)} | ${o.rate}/s | ` +
        `${lat(o.app)} | ${lat(o.baseline)} | ${ok(o.p99_ratio, !late && o.p99_ratio <= 1.5)} |${withWarmup ? ` ${warmup(r)} |` : ''} ${cpu} |` +
        `${withBefore ? (r.before ? ` ${r.before.ratio}, ${r.before.p99_ratio}, ${n(r.before.open.cpu_ms_per_req * 1000)} |` : ' |') : ''} ${la(r.loadavg)}${r.steal_pct === undefined ? '' : `, steal ${r.steal_pct} %`} |`,
    );
  }
}

// Runs with --perf: each server's CPU per request by part (perf-split.mjs).
const perfRows = Object.entries(corpora).flatMap(([corpus, c]) =>
  c.results
    .filter((r) => r.perf_us_per_req)
    .flatMap((r) =>
      Object.entries(r.perf_us_per_req).map(([server, us]) => ({ endpoint: `${corpus} ${r.endpoint}`, server, us })),
    ),
);
if (perfRows.length > 0) {
  console.log('\nCPU µs per request by part (perf):\n');
  console.log(perfTable(perfRows));
}
