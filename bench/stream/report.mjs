// Reporting helpers of the stream benchmark: machine-wide CPU from /proc/stat (to show when the
// 2 cores are saturated, and how much of it is kernel time: syscalls and loopback TCP) and the
// printed tables.
import fs from 'node:fs';

/** Aggregate CPU counters (jiffies) of the machine; minus() gives percentages of all cores. */
export function machineCpu() {
  const [, ...f] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f.map(Number);
  const v = { user: user + nice, system, idle: idle + iowait, softirq: irq + softirq, steal: steal ?? 0 };
  return {
    ...v,
    minus(o) {
      const d = Object.fromEntries(Object.keys(v).map((k) => [k, v[k] - o[k]]));
      const total = Object.values(d).reduce((a, b) => a + b, 0) || 1;
      const p = (x) => +((100 * x) / total).toFixed(1);
      return {
        busy_pct: p(total - d.idle),
        user_pct: p(d.user),
        system_pct: p(d.system),
        softirq_pct: p(d.softirq),
        steal_pct: p(d.steal),
      };
    },
  };
}

export function summary(r) {
  const s = r.storm ? ` storm: ${r.storm.resumed} back by ${r.storm.all_back_ms} ms` : '';
  return `${r.scenario} [${r.mode}]: ${r.delivered}/${r.expected} (lost ${r.lost}, dup ${r.duplicates}) p50 ${r.latency_ms.p50} p99 ${r.latency_ms.p99} max ${r.latency_ms.max} ms; ${r.rss_per_conn_kib} KiB/conn; gateway ${r.gateway_cpu_pct}% (sys ${r.gateway_cpu_system_pct}%), machine busy ${r.machine_cpu.busy_pct}%${s}`;
}

export function report(results) {
  console.table(
    results.map((r) => ({
      scenario: r.key,
      mode: r.mode,
      clients: r.clients,
      expected: r.expected,
      delivered: r.delivered,
      dup: r.duplicates,
      p50: r.latency_ms.p50,
      p99: r.latency_ms.p99,
      max: r.latency_ms.max,
      'KiB/conn': r.rss_per_conn_kib,
      'gw cpu%': r.gateway_cpu_pct,
      'gw sys%': r.gateway_cpu_system_pct,
      'us/deliv': r.gateway_cpu_us_per_delivery,
      'machine busy%': r.machine_cpu.busy_pct,
      'storm back ms': r.storm?.all_back_ms ?? '',
    })),
  );
  for (const key of new Set(results.map((r) => r.key))) {
    const hub = results.find((r) => r.key === key && r.mode === 'hub');
    const bare = results.find((r) => r.key === key && r.mode === 'bare');
    if (hub && bare)
      console.log(`${key}: hub p99 / bare p99 = ${(hub.latency_ms.p99 / bare.latency_ms.p99).toFixed(2)}`);
  }
}

const WRITE_SYSCALLS = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

/**
 * Where the gateway's CPU went while changes flowed, from its V8 profile: samples between fromUs
 * and toUs (CLOCK_MONOTONIC microseconds, the clock of both process.hrtime and V8's profiler),
 * by self time: socket write syscalls, other native calls, garbage collection, JavaScript.
 */
export function profileShare(file, fromUs, toUs) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8'));
  const kind = new Map();
  const label = new Map();
  const self = new Map();
  for (const n of p.nodes) {
    label.set(
      n.id,
      `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`,
    );
    const { functionName: f, url } = n.callFrame;
    kind.set(
      n.id,
      f === '(idle)'
        ? 'idle'
        : f === '(garbage collector)'
          ? 'gc'
          : WRITE_SYSCALLS.has(f) && !url
            ? 'write_syscalls'
            : !url && f !== '(program)' && f !== '(root)'
              ? 'other_native'
              : 'javascript',
    );
  }
  const ms = { idle: 0, write_syscalls: 0, other_native: 0, gc: 0, javascript: 0 };
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    const d = (p.timeDeltas[i + 1] ?? 0) / 1000;
    ms[kind.get(p.samples[i])] += d;
    const l = label.get(p.samples[i]);
    if (kind.get(p.samples[i]) !== 'idle') self.set(l, (self.get(l) ?? 0) + d);
  }
  const busy = ms.write_syscalls + ms.other_native + ms.gc + ms.javascript;
  const share = (x) => +((100 * x) / (busy || 1)).toFixed(1);
  return {
    busy_ms: +busy.toFixed(0),
    idle_ms: +ms.idle.toFixed(0),
    pct_of_busy: {
      write_syscalls: share(ms.write_syscalls),
      other_native: share(ms.other_native),
      gc: share(ms.gc),
      javascript: share(ms.javascript),
    },
    top_self_pct_of_busy: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([k, v]) => `${share(v)} ${k}`),
  };
}
