// Database availability as the process sees it. A PostgreSQL restart, crash or failover shows up as
// broken connections (idle and checked-out clients emit `error`), refused connections and a few
// SQLSTATEs; those mean "retry later", never "bug", so requests answer 503 service_unavailable and
// background work retries. Each pool gets one status: it goes down on the first such error, probes
// with `SELECT 1` until the database answers again, and tells listeners (open streams) both ways.
import { EventEmitter } from 'node:events';
import type pg from 'pg';

// Node socket errors that mean the server is unreachable or went away.
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
// SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect
// now: starting up, shutting down, in recovery), 53300 (too many connections: a restart storm).
const SQL_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// pg's own messages for a connection that died or never came (they carry no code).
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Client has encountered a connection error',
  'the database system is',
];

/** true when err means the database is unreachable or restarting (retryable), not a bad query. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NET_CODES.has(code) || SQL_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (MESSAGES.some((m) => message.includes(m))) return true;
  // AggregateError (several addresses refused) and wrapped causes
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1);
}

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const PROBE_MS = 500;
const PROBE_TIMEOUT_MS = 3000;

export class DatabaseStatus extends EventEmitter {
  /** true from the first connection failure until a probe succeeds */
  down = false;
  private since = 0;
  private probe: NodeJS.Timeout | undefined;
  private closed = false;
  log: Log | undefined;

  constructor(private readonly pool: pg.Pool) {
    super();
    this.setMaxListeners(0);
  }

  /** Reports an error; a connection-level one marks the database down (once) and starts probing. */
  failed(err: unknown): void {
    if (this.down || this.closed || !isDatabaseUnavailable(err)) return;
    this.down = true;
    this.since = Date.now();
    const reason = err instanceof Error ? err.message : String(err);
    this.log?.warn(
      { reason },
      'database unavailable: requests answer 503 and background work retries until it returns',
    );
    this.emit('down');
    this.schedule();
  }

  /**
   * A new connection to the database succeeded: it is reachable again, whether or not the probe
   * has run yet. Without this, a database that restarted and went away again before the next
   * probe (a few hundred ms; longer on a loaded machine, where the probe also queues for a client)
   * looked like one long outage, and open streams were never told of the second one.
   */
  reachable(): void {
    if (!this.down || this.closed) return;
    clearTimeout(this.probe);
    this.markUp();
  }

  /** Stops probing (the pool is closing). */
  close(): void {
    this.closed = true;
    clearTimeout(this.probe);
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.probe);
    this.probe = setTimeout(() => void this.check(), PROBE_MS);
    this.probe.unref();
  }

  private async check(): Promise<void> {
    // a pool that is being closed cannot answer again: stop probing it
    if (this.closed || !this.down || (this.pool as { ending?: boolean }).ending) return;
    // A probe that never answers (every client held by a statement that hangs on a dead socket)
    // must not leave the status down for good: it counts as a failure after PROBE_TIMEOUT_MS, so
    // the next outage is noticed, and announced, as an outage of its own.
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.pool.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      this.schedule();
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.down) this.markUp();
  }

  private markUp(): void {
    this.down = false;
    this.log?.info({ down_ms: Date.now() - this.since }, 'database available again');
    this.emit('up');
  }
}

interface RetryLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/**
 * Logging for work that retries on its own (relay, dispatcher, workers): the first failure is a
 * warning, repeats are debug until a success, which is logged once with the count. A database
 * outage then costs one warning per component, not one per retry.
 */
export function retryLog(log: RetryLogger, msg: string) {
  let failures = 0;
  return {
    failed(err: unknown, extra: object = {}): void {
      if (failures++ === 0) log.warn({ err, ...extra }, msg);
      else log.debug({ err, ...extra }, msg);
    },
    ok(): void {
      if (failures === 0) return;
      log.info({ failures }, `${msg}: recovered`);
      failures = 0;
    },
  };
}

/**
 * For work a request or a scrape starts (snapshots, metrics gauges): a failure that means the
 * database is unreachable belongs to the pool's outage, which its status logs once when it begins
 * and once when it ends, so here it is debug detail; any other failure is logged at `level`.
 */
export function logFailure(
  pool: { status: DatabaseStatus },
  log: RetryLogger & { error(obj: object, msg: string): void },
  level: 'warn' | 'error',
  err: unknown,
  msg: string,
  extra: object = {},
): void {
  if (isDatabaseUnavailable(err)) {
    pool.status.failed(err);
    log.debug({ err, ...extra }, msg);
  } else log[level]({ err, ...extra }, msg);
}
