// CPU per request by part of the server, from Linux `perf` (read.mjs --perf): `perf record -e
// cpu-clock` samples a process only while it runs on a CPU, so unlike V8's --cpu-prof (which
// samples wall time and counts a thread descheduled inside a system call as busy there) its
// shares are CPU. The server runs with --perf-basic-prof so JIT-compiled JavaScript has names.
//
// Each sample of the main thread goes to the part owning its innermost frame: the kernel when the
// sample is in it (system calls, network stack, scheduling), else the first JavaScript frame from
// the inside out that belongs to a part below; samples of other threads (garbage collection helpers,
// the compiler, libuv's pool) are counted apart, and split by what their innermost frame is
// (`thread_kinds`): garbage collection, the optimising compiler, the kernel, anything else. V8
// inlines small functions into their callers and perf names only the compiled outer function, so
// work inlined across parts counts for the caller's part (a large answer's row handling can show
// under Fastify): compare totals first.
import { spawn, execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';

export const PERF_HZ = 1999;

/** Parts in the order they are printed; a frame matching none (Node's own JavaScript, V8's builtins) is passed over. */
export const PARTS = [
  ['pg', /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  ['fastify', /node_modules\/(fastify|@fastify\/[^/]+|find-my-way|fast-json-stringify|avvio|fastq|light-my-request)\//],
  ['logging', /node_modules\/(pino|sonic-boom)\/|\/dist\/logger\.js|\/dist\/http\/access-log\.js/],
  ['limits', /node_modules\/(ioredis|redis-parser)\/|\/dist\/http\/limits\.js/],
  ['metrics', /node_modules\/prom-client\/|\/dist\/ops\//],
  ['auth', /\/dist\/http\/auth\.js|\/dist\/keys\//],
  ['etag', /\/dist\/http\/cache\.js/],
  ['handler', /\/dist\/|bench\/read\/(baseline|cases)\.mjs/],
];
const COLUMNS = ['kernel', ...PARTS.map(([p]) => p), 'node', 'threads'];

/** What another thread's sample is doing, by its innermost frame (all of a process's threads may be named node). */
const THREAD_KINDS = [
  [
    'gc',
    /v8::internal::(Scaveng|Mark|Sweep|ConcurrentMarking|Evacuat|Heap::|ArrayBufferSweeper|MemoryAllocator|Page|SemiSpace|Remembered|SlotSet|LocalHeap|FreeList|PretenuringHandler)/,
  ],
  ['jit', /v8::internal::(compiler|maglev|baseline|interpreter|Turbofan|Compil|OptimizingCompileDispatcher)/],
  ['kernel', /\[kernel\.kallsyms\]/],
];
const THREAD_COLUMNS = [...THREAD_KINDS.map(([k]) => k), 'other'];

/** Starts sampling a process; resolves once perf is attached (perf writes nothing before). */
export async function startPerf(pid, file) {
  const proc = spawn(
    'perf',
    ['record', '-q', '-e', 'cpu-clock', '-F', String(PERF_HZ), '-g', '-p', String(pid), '-o', file],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await new Promise((resolve, reject) => {
    proc.once('error', (err) =>
      reject(new Error(`perf could not start (${err.message}): install linux-perf or leave out --perf`)),
    );
    setTimeout(resolve, 300);
  });
  return proc;
}

/** Stops sampling and returns the samples per part: { kernel, pg, ..., node, threads }. */
export async function stopPerf(proc, file, pid) {
  proc.kill('SIGINT');
  await new Promise((r) => proc.once('exit', r));
  const counts = await samplesByPart(file, String(pid));
  rmSync(file, { force: true });
  return counts;
}

/** A perf.data file's samples per part, pid being the process's main thread. */
async function samplesByPart(file, pid) {
  const { stdout } = await promisify(execFile)('perf', ['script', '-i', file, '-F', 'tid,ip,sym,dso'], {
    maxBuffer: 1 << 30,
  });
  return split(stdout, pid);
}

function split(script, mainTid) {
  const counts = Object.fromEntries(COLUMNS.map((c) => [c, 0]));
  const kinds = Object.fromEntries(THREAD_COLUMNS.map((c) => [c, 0]));
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter(Boolean);
    if (lines.length < 2) continue;
    if (lines[0].trim() !== mainTid) {
      counts.threads++;
      kinds[THREAD_KINDS.find(([, re]) => re.test(lines[1]))?.[0] ?? 'other']++;
      continue;
    }
    if (lines[1].includes('[kernel.kallsyms]')) {
      counts.kernel++;
      continue;
    }
    let part = 'node';
    for (const line of lines.slice(1)) {
      const hit = PARTS.find(([, re]) => re.test(line));
      if (hit) {
        part = hit[0];
        break;
      }
    }
    counts[part]++;
  }
  return { ...counts, thread_kinds: kinds };
}

/** Samples per part → µs of CPU per request. */
export function perRequest(counts, requests) {
  const us = (n) => Math.round((n / PERF_HZ / requests) * 1e6);
  const { thread_kinds: kinds = {}, ...parts } = counts;
  return {
    ...Object.fromEntries(Object.entries(parts).map(([k, n]) => [k, us(n)])),
    thread_kinds: Object.fromEntries(Object.entries(kinds).map(([k, n]) => [k, us(n)])),
  };
}

/** The table's header and one row per server: µs per request by part. */
export function perfTable(rows) {
  const head = `| endpoint | server | total | ${COLUMNS.join(' | ')} |`;
  const sep = `|${'---|'.repeat(COLUMNS.length + 3)}`;
  const body = rows.map(
    ({ endpoint, server, us }) =>
      `| ${endpoint} | ${server} | ${COLUMNS.reduce((a, c) => a + (us[c] ?? 0), 0)} | ${COLUMNS.map((c) => us[c] ?? 0).join(' | ')} | ${THREAD_COLUMNS.map((c) => us.thread_kinds?.[c] ?? 0).join(' / ')} |`,
  );
  return [`${head} threads: ${THREAD_COLUMNS.join(' / ')} |`, `${sep}---|`, ...body].join('\n');
}

/** The perf maps --perf-basic-prof left for these processes (they grow with the JIT's output). */
export function removePerfMaps(pids) {
  for (const pid of pids) rmSync(`/tmp/perf-${pid}.map`, { force: true });
}

/** For a quick look at a stacks file: node perf-split.mjs <perf.data> <pid> */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, pid] = process.argv.slice(2);
  console.log(await samplesByPart(file, pid));
}
