// CPU seconds of this process and of its PostgreSQL backends (read from /proc: the benchmark and
// the server share the machine), so a run shows where the time of a build or a COPY went.
import fs from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds (0 once it has gone). */
export function procCpu(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The backends of connections named `app` (application_name), read before they close. */
export async function backendCpu(db, app) {
  const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app]);
  return rows.reduce((s, r) => s + procCpu(r.pid), 0);
}

export function ownCpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * CPU seconds of the backends of connections named in `apps`, sampled every 100 ms while a build
 * runs (its lanes' connections close before it ends): each backend's last reading counts.
 */
export function sampleBackendCpu(db, apps) {
  const seen = new Map();
  const read = async () => {
    const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1::text[])', [
      apps,
    ]);
    for (const r of rows) seen.set(r.pid, Math.max(seen.get(r.pid) ?? 0, procCpu(r.pid)));
  };
  let busy = Promise.resolve();
  const timer = setInterval(() => {
    busy = busy.then(read).catch(() => undefined);
  }, 100);
  return {
    async stop() {
      clearInterval(timer);
      await busy;
      await read();
      return [...seen.values()].reduce((a, b) => a + b, 0);
    },
  };
}
