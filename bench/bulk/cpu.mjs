// CPU seconds of this process and of its PostgreSQL backends (read from /proc: the benchmark and
// the server share the machine), so a run shows where the time of a build or a COPY went.
import fs from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds (0 once it has gone). */
function procCpu(pid) {
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
