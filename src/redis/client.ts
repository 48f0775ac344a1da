// The process's one Redis client (rate-limit counters shared by replicas), created at the process
// root like the bus and handed to the limiter and to readiness, so /v1/ready reports the Redis the
// requests actually use.
//
// Outages: ioredis queues commands while it reconnects and retries each one, so a request made while
// Redis is down used to wait 1.5–2.9 s before its 503. The client below remembers that Redis is known
// to be down (a connection error or a lost connection, until the next `ready`), and callers ask it
// before sending anything: while down, keyed requests fail at once. ioredis keeps reconnecting in
// the background (every second at most), and the first `ready` ends the outage by itself.
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logger.js';

/** Longest pause between reconnection attempts: bounds how late a recovered Redis is noticed. */
const MAX_RECONNECT_DELAY_MS = 1000;
/** How often a continuing outage is logged (ioredis emits an error per reconnection attempt). */
const LOG_EVERY_MS = 10_000;

export class RedisDownError extends Error {
  constructor() {
    super('Redis is unreachable');
    this.name = 'RedisDownError';
  }
}

/**
 * The process's Redis client, which also knows whether Redis is known to be down (kept from its
 * connection events), so every holder of the client can ask it before sending anything.
 */
export class RedisClient extends Redis {
  private knownDown = false;

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    // A client that has not connected yet is not known to be down: its first commands wait in the
    // offline queue for the first connection, as at any start.
    this.on('ready', () => (this.knownDown = false));
    this.on('error', () => (this.knownDown = this.status !== 'ready'));
    this.on('close', () => (this.knownDown = true));
  }

  /** True from a connection failure or loss until the connection is ready again. */
  get down(): boolean {
    return this.knownDown;
  }
}

export function createRedis(url: string, log: Pick<Logger, 'warn' | 'info'>): RedisClient {
  const client = new RedisClient(url, {
    // One retry of a command caught by a connection loss; commands are not sent at all while the
    // client is known down (see RedisClient).
    maxRetriesPerRequest: 1,
    // Automatic pipelining pays when many commands leave in one turn (a crowd of streams opening);
    // the scripts of the read path opt out of it (defineScript).
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 50, MAX_RECONNECT_DELAY_MS),
  });
  let lastLog = 0;
  let outage = false;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLog < LOG_EVERY_MS) return;
    lastLog = now;
    log.warn({ err: err.message }, 'redis unreachable; keyed requests answer 503 until it returns');
    outage = true;
  });
  client.on('ready', () => {
    if (outage) log.info('redis reachable again');
    outage = false;
    lastLog = 0;
  });
  return client;
}

/**
 * Defines a Lua script as a command of this client, once: one client serves every app of a process
 * (tests), and each defines the scripts it uses. A `direct` command skips automatic pipelining: a
 * lone command costs about twice the client CPU through it (113–144 against 63–75 µs a call,
 * measured alone), so the read path's scripts go out directly: the limiter's, which writes one
 * command or one pipeline per drain itself (limits.ts), and the expensive-read gate's two per
 * search, which rarely share a turn with another (each search holds PostgreSQL for milliseconds).
 */
export function defineScript(redis: Redis, name: string, numberOfKeys: number, lua: string, direct = false): void {
  if (Object.hasOwn(redis, name)) return;
  redis.defineCommand(name, { numberOfKeys, lua });
  // read by ioredis at every call, so a command added here goes out directly from now on
  if (direct) redis.options.autoPipeliningIgnoredCommands?.push(name);
}

/** Closes a client: QUIT when connected, otherwise drop the connection attempts. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
