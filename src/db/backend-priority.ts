// The OS scheduling priority of a pool's PostgreSQL backends. Each connection is served by a backend
// process of its own; when the server runs on this machine, a pool can ask the kernel to run its
// backends at a higher nice value, so they take the CPU the other backends leave. On a small
// database a tenant's heavy searches then queue for CPU behind every other tenant's cheap reads
// instead of beside them, while with nothing else to run they go as fast as before (what
// `pg_prioritize` does from inside the server; this needs no extension).
//
// A pid is only reniced when it is provably the backend of this very connection: its process title
// (PostgreSQL's `update_process_title`, on by default) names the client's address and port, which
// must be this socket's. A server in another pid namespace (a container behind a forwarded port),
// on another host or reached over a Unix socket fails that check and is left alone.
//
// Linux's autogroup scheduling (`kernel.sched_autogroup_enabled`, on in most distributions' kernels)
// shares the CPU fairly between sessions first and applies a process's nice value only inside its
// session. Every PostgreSQL backend starts a session of its own (setsid), so there its nice value
// alone changes nothing: measured beside a 2-core database, backends at nice 19 slowed the other
// tenants exactly as much as at 0. The session's own nice value (/proc/PID/autogroup) is what
// counts, and is set too when the backend leads a session of its own.
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type pg from 'pg';

/** What a client of node-postgres knows about its backend and its socket. */
interface ClientInternals {
  processID?: number | null;
  connection?: { stream?: { localAddress?: string; localPort?: number } };
}

/** The backend pid of `client` when that process runs on this machine and serves this connection. */
export async function localBackendPid(client: pg.ClientBase): Promise<number | undefined> {
  const c = client as unknown as ClientInternals;
  const pid = c.processID;
  const address = c.connection?.stream?.localAddress;
  const port = c.connection?.stream?.localPort;
  if (!pid || !address || !port) return undefined;
  let title: string;
  try {
    title = await readFile(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  // "postgres: [cluster: ]user database 127.0.0.1(51234) idle"
  const host = address.startsWith('::ffff:') ? address.slice(7) : address;
  return title.startsWith('postgres:') && title.includes(` ${host}(${port}) `) ? pid : undefined;
}

/**
 * Sets the nice value of `client`'s backend when it runs here (localBackendPid), else leaves it.
 * Raising nice needs no privilege, so this works for a server of the same user or, as root, for
 * any.
 */
export async function lowerBackendPriority(client: pg.ClientBase, nice: number): Promise<void> {
  const pid = await localBackendPid(client);
  if (pid === undefined) return;
  try {
    os.setPriority(pid, nice);
  } catch {
    return;
  }
  await setAutogroupNice(pid, nice);
}

/** Whether the kernel schedules by autogroup: read once, it is a boot-time setting in practice. */
let autogroupsOn: Promise<boolean> | undefined;
export function autogroupScheduling(): Promise<boolean> {
  autogroupsOn ??= readFile('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').then(
    (v) => v.trim() === '1',
    () => false,
  );
  return autogroupsOn;
}

/** The autogroup of a process ("/autogroup-17 nice 0"), undefined without autogroup scheduling. */
async function autogroupOf(pid: number): Promise<{ group: string; nice: number } | undefined> {
  try {
    const [group, , nice] = (await readFile(`/proc/${pid}/autogroup`, 'utf8')).trim().split(' ');
    return { group, nice: Number(nice) };
  } catch {
    return undefined;
  }
}

/**
 * Field `n` (1-based, as proc(5) numbers them) of /proc/PID/stat, from field 3 on; undefined when
 * the process is gone. The command name (field 2) is in parentheses and may hold spaces, so the
 * fields are counted from after its closing one.
 */
async function statField(pid: number, n: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3]);
  } catch {
    return undefined;
  }
}

/**
 * Sets the nice value of `pid`'s autogroup when autogroup scheduling is on and the group is the
 * backend's alone (not its postmaster's, which would lower the whole server). Without privilege the
 * kernel takes one such write per 100 ms on the whole machine (EAGAIN otherwise): a few retries.
 */
async function setAutogroupNice(pid: number, nice: number): Promise<void> {
  if (!(await autogroupScheduling())) return;
  const own = await autogroupOf(pid);
  const parent = await statField(pid, 4);
  if (!own || parent === undefined || own.nice === nice) return;
  const parents = await autogroupOf(parent);
  if (!parents || parents.group === own.group) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(`/proc/${pid}/autogroup`, String(nice));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      await new Promise((r) => setTimeout(r, 110));
    }
  }
}

/** The nice value of a process's autogroup, undefined without autogroup scheduling. */
export async function autogroupNiceOf(pid: number): Promise<number | undefined> {
  return (await autogroupOf(pid))?.nice;
}

/** The nice value of a process of this machine (field 19 of /proc/PID/stat), undefined when it is gone. */
export function niceOf(pid: number): Promise<number | undefined> {
  return statField(pid, 19);
}
