// The noisy tenant's streams: opens `count` SSE streams at once (raw HTTP, no client library), each
// asking for the whole change log (`since=0001-01-01`), and reads every byte until `seconds` have
// passed. A stream the server ends (rotate, slow_consumer) is opened again the same way, as a
// hostile client would, not resumed from its cursor. Counts what was admitted (200) and refused
// (429 stream_limit), events, resets and bytes, and reports them to the parent.
//   forked by bench/abuse/run.mjs with { base, key, count, seconds }; says 'ready', starts on 'go'
import http from 'node:http';

const { base, key, count, seconds } = JSON.parse(process.argv[2]);
const { hostname, port } = new URL(base);
const EVENT = Buffer.from('event: bill_change');
const RESET = Buffer.from('event: reset');
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send('ready');
});
const until = Date.now() + seconds * 1000;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

const out = { opened: 0, statuses: {}, reopened: 0, events: 0, resets: 0, bytes: 0, errors: 0, first_event_ms: [] };
const open = new Set();

function countOf(chunk, needle) {
  let n = 0;
  for (let i = chunk.indexOf(needle); i >= 0; i = chunk.indexOf(needle, i + needle.length)) n++;
  return n;
}

function stream(again) {
  if (Date.now() >= until) return;
  out.opened++;
  if (again) out.reopened++;
  const t0 = performance.now();
  const req = http.get(
    {
      hostname,
      port,
      agent,
      path: '/v1/stream?since=0001-01-01',
      headers: { 'x-api-key': key, accept: 'text/event-stream' },
    },
    (res) => {
      out.statuses[res.statusCode] = (out.statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode !== 200) {
        res.resume();
        return;
      }
      open.add(req);
      let first = true;
      res.on('data', (chunk) => {
        out.bytes += chunk.length;
        const n = countOf(chunk, EVENT);
        if (n && first) {
          first = false;
          out.first_event_ms.push(performance.now() - t0);
        }
        out.events += n;
        out.resets += countOf(chunk, RESET);
      });
      res.on('end', () => {
        open.delete(req);
        stream(true);
      });
      res.on('error', () => open.delete(req));
    },
  );
  req.on('error', () => {
    out.errors++;
    open.delete(req);
  });
}

for (let i = 0; i < count; i++) stream(false);
await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
const held = open.size;
for (const req of open) req.destroy();
const firsts = out.first_event_ms.sort((a, b) => a - b);
const cpu = process.cpuUsage();
process.send({
  ...out,
  client_cpu_s: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  first_event_ms: undefined,
  held_at_end: held,
  first_event_p50_ms: Math.round(firsts[Math.floor(firsts.length / 2)] ?? 0),
  first_event_max_ms: Math.round(firsts.at(-1) ?? 0),
});
