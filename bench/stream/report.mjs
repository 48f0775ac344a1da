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
      return { busy_pct: p(total - d.idle), user_pct: p(d.user), system_pct: p(d.system), softirq_pct: p(d.softirq), steal_pct: p(d.steal) };
    },
  };
}

export function summary(r) {
  const s = r.storm ? ` storm: ${r.storm.resumed} back by ${r.storm.all_back_ms} ms` : '';
  return `${r.scenario} [${r.mode}]: ${r.delivered}/${r.expected} (lost ${r.lost}, dup ${r.duplicates}) p50 ${r.latency_ms.p50} p99 ${r.latency_ms.p99} max ${r.latency_ms.max} ms; ${r.rss_per_conn_kib} KiB/conn; gateway ${r.gateway_cpu_pct}% (sys ${r.gateway_cpu_system_pct}%), machine busy ${r.machine_cpu.busy_pct}%${s}`;
}

export function report(results) {
  console.table(results.map((r) => ({
    scenario: r.key, mode: r.mode, clients: r.clients, expected: r.expected, delivered: r.delivered, dup: r.duplicates,
    p50: r.latency_ms.p50, p99: r.latency_ms.p99, max: r.latency_ms.max, 'KiB/conn': r.rss_per_conn_kib,
    'gw cpu%': r.gateway_cpu_pct, 'gw sys%': r.gateway_cpu_system_pct, 'us/deliv': r.gateway_cpu_us_per_delivery,
    'machine busy%': r.machine_cpu.busy_pct, 'storm back ms': r.storm?.all_back_ms ?? '',
  })));
  for (const key of new Set(results.map((r) => r.key))) {
    const hub = results.find((r) => r.key === key && r.mode === 'hub');
    const bare = results.find((r) => r.key === key && r.mode === 'bare');
    if (hub && bare) console.log(`${key}: hub p99 / bare p99 = ${(hub.latency_ms.p99 / bare.latency_ms.p99).toFixed(2)}`);
  }
}
