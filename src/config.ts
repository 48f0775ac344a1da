// Every setting comes from the environment and is validated once, at start. A bad value stops the
// process with a message naming the variable and what it accepts (see ConfigError). The table below
// is also the source of the README's configuration table (`lds config` prints it).

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly accepts: string,
    readonly value: string,
  ) {
    super(`${variable}=${JSON.stringify(value)} is invalid: ${variable} accepts ${accepts}`);
    this.name = 'ConfigError';
  }
}

type Parser<T> = { accepts: string; parse: (raw: string) => T | undefined };

const int = (min: number, max: number): Parser<number> => ({
  accepts: `an integer from ${min} to ${max}`,
  parse: (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  },
});

const str: Parser<string> = { accepts: 'any non-empty string', parse: (raw) => (raw.length > 0 ? raw : undefined) };

const oneOf = <T extends string>(...values: T[]): Parser<T> => ({
  accepts: `one of ${values.join(', ')}`,
  parse: (raw) => ((values as string[]).includes(raw) ? (raw as T) : undefined),
});

const url = (...protocols: string[]): Parser<string> => ({
  accepts: `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  parse: (raw) => {
    try {
      const u = new URL(raw);
      return protocols.includes(u.protocol) ? raw : undefined;
    } catch {
      return undefined;
    }
  },
});

const csv = (item: RegExp, what: string): Parser<string[]> => ({
  accepts: `a comma-separated list of ${what}`,
  parse: (raw) => {
    const parts = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return parts.every((p) => item.test(p)) ? parts : undefined;
  },
});

const perTier: Parser<Record<string, number>> = {
  accepts: 'a comma-separated list of tier:count (e.g. free:5,standard:25)',
  parse: (raw) => {
    const out: Record<string, number> = {};
    for (const part of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^([a-z][a-z0-9_-]*):(\d{1,7})$/.exec(part);
      if (!m || Number(m[2]) < 1) return undefined;
      out[m[1]] = Number(m[2]);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  },
};

const bool: Parser<boolean> = {
  accepts: 'true, false, 1 or 0',
  parse: (raw) => (['true', '1'].includes(raw) ? true : ['false', '0'].includes(raw) ? false : undefined),
};

export const ROLES = ['api', 'stream', 'relay', 'dispatcher', 'worker', 'bulk'] as const;
export type Role = (typeof ROLES)[number];

interface Setting<T> {
  env: string;
  parser: Parser<T>;
  default?: T;
  description: string;
}

function setting<T>(env: string, parser: Parser<T>, def: T | undefined, description: string): Setting<T> {
  return { env, parser, default: def, description };
}

/** The settings table: one row per environment variable. */
export const SETTINGS = {
  port: setting('PORT', int(0, 65535), 8080, 'HTTP port to listen on (0 picks a free port)'),
  host: setting('HOST', str, '127.0.0.1', 'Address to bind; use 0.0.0.0 in containers'),
  publicBaseUrl: setting(
    'PUBLIC_BASE_URL',
    url('http:', 'https:'),
    undefined,
    'Address clients use to reach the service (links in errors, webhook payloads); default http://HOST:PORT, with localhost for a loopback or wildcard HOST',
  ),
  databaseUrl: setting(
    'DATABASE_URL',
    url('postgres:', 'postgresql:'),
    undefined,
    'PostgreSQL connection string; unset = embedded PostgreSQL under DATA_DIR',
  ),
  databaseReadUrl: setting(
    'DATABASE_READ_URL',
    url('postgres:', 'postgresql:'),
    undefined,
    'Optional read replica for read endpoints and stream resume',
  ),
  dataDir: setting('DATA_DIR', str, './data', 'Directory of the embedded PostgreSQL cluster and other local state'),
  embeddedPgPort: setting(
    'EMBEDDED_PG_PORT',
    int(0, 65535),
    54329,
    'Preferred port of the embedded PostgreSQL; another free port is used when it is taken (0 = any)',
  ),
  dbPoolSize: setting(
    'DB_POOL_SIZE',
    int(1, 200),
    10,
    'Connections in the primary pool and in the read pool of a process (a server also has the small pools of EXPENSIVE_READ_POOL_SIZE and STREAM_REPLAY_POOL_SIZE)',
  ),
  readStatementTimeoutMs: setting(
    'READ_STATEMENT_TIMEOUT_MS',
    int(0, 600000),
    5000,
    'Longest a statement of the read pool (every read endpoint and stream replay) may run before PostgreSQL cancels it; the request answers 422 query_timeout (0 = no limit)',
  ),
  expensiveReadsPerKey: setting(
    'EXPENSIVE_READS_PER_KEY',
    int(0, 1000),
    1,
    'Expensive reads (text search, deep offsets) one key may run at once across all replicas; more answer 429 concurrency_limit_exceeded (0 = no limit)',
  ),
  expensiveReadMsPerSec: setting(
    'EXPENSIVE_READ_MS_PER_SEC',
    int(0, 1000),
    250,
    "Milliseconds of expensive-read statement time one key may use per second on average, across all replicas (250: a quarter of one database core); the time a key's expensive reads ran is a debt draining at this rate, and above EXPENSIVE_READ_BURST_MS its next expensive read answers 429 read_budget_exceeded (0 = no budget)",
  ),
  expensiveReadBurstMs: setting(
    'EXPENSIVE_READ_BURST_MS',
    int(0, 600000),
    2000,
    'Milliseconds of expensive-read debt a key may carry and still start one (a burst of heavy searches before the per-second rate applies)',
  ),
  expensiveReadPoolSize: setting(
    'EXPENSIVE_READ_POOL_SIZE',
    int(0, 200),
    4,
    "Connections of the pool that expensive reads (text search, substring filters, deep offsets) run on, apart from the read pool, so cheap reads never wait behind them; expensive reads beyond it wait their turn. With PostgreSQL on the same machine its backends run at LOW_PRIORITY_NICE and take only the CPU cheap reads leave: about twice the database's cores (4 suits a 2-core one; with only as many as its cores, PostgreSQL idles while this process answers one search and sends the next). With a database elsewhere nothing lowers them: summed over the api processes, at most half its cores, so the other half stays free for cheap reads; 0 = they share the read pool",
  ),
  streamReplayPoolSize: setting(
    'STREAM_REPLAY_POOL_SIZE',
    int(0, 200),
    2,
    'Connections of the pool streams catch up from the change log on, apart from the read pool, so a crowd of streams replaying never holds the connections of the read endpoints (0 = they share the read pool)',
  ),
  lowPriorityNice: setting(
    'LOW_PRIORITY_NICE',
    int(0, 19),
    19,
    "Nice value (CPU priority, 19 lowest) of the database backends of the expensive-read and stream-replay pools when PostgreSQL runs on the same machine: their searches and catch-ups take the CPU that cheap reads leave, so one tenant's heavy reads wait for the others' light ones instead of slowing them; a database elsewhere is not affected (0 = unchanged)",
  ),
  readParallelWorkers: setting(
    'READ_PARALLEL_WORKERS',
    int(0, 64),
    0,
    "PostgreSQL parallel workers one statement of the read pools may use (max_parallel_workers_per_gather): with more, one tenant's search takes every core of the database",
  ),
  dbStartTimeoutMs: setting(
    'DB_START_TIMEOUT_MS',
    int(0, 3600000),
    60000,
    'How long `lds serve` waits for an unreachable PostgreSQL at start before exiting (0 = fail at once)',
  ),
  natsUrl: setting(
    'NATS_URL',
    url('nats:', 'tls:', 'ws:', 'wss:'),
    undefined,
    'NATS server (with JetStream) for the bus; unset = in-process bus',
  ),
  natsNamespace: setting(
    'NATS_NAMESPACE',
    { accepts: 'letters, digits, _ and -', parse: (raw) => (/^[A-Za-z0-9_-]+$/.test(raw) ? raw : undefined) },
    'lds',
    'Prefix of the NATS subjects and JetStream stream, so several deployments can share one NATS',
  ),
  redisUrl: setting(
    'REDIS_URL',
    url('redis:', 'rediss:'),
    undefined,
    'Redis for rate-limit counters shared by replicas; unset = in-process counters',
  ),
  logLevel: setting(
    'LOG_LEVEL',
    oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'info',
    'pino log level',
  ),
  roles: setting(
    'LDS_ROLES',
    csv(/^(api|stream|relay|dispatcher|worker|bulk)$/, 'roles (api, stream, relay, dispatcher, worker, bulk)'),
    [...ROLES],
    'Roles this process runs (also `lds serve --role`)',
  ),
  headersTimeoutMs: setting(
    'HEADERS_TIMEOUT_MS',
    int(500, 120000),
    10000,
    "Time a client has to send a request's headers before the connection is closed (slow-client protection)",
  ),
  requestTimeoutMs: setting(
    'REQUEST_TIMEOUT_MS',
    int(1000, 600000),
    30000,
    'Time a client has to send a whole request, headers and body, before it gets 408 and the connection is closed; streams are not cut (their request has no body)',
  ),
  bodyLimit: setting(
    'BODY_LIMIT_BYTES',
    int(1024, 1024 * 1024),
    64 * 1024,
    'Largest request body accepted (413 beyond). Parsing and validating a body blocks the event loop, about 0.5 s per MB for a large JSON array (measured), so it stays small: the largest real body, a subscription with filters, is a few KB',
  ),
  defaultBurst: setting(
    'DEFAULT_BURST_LIMIT',
    int(1, 100000),
    10,
    'Requests per second per key unless the key overrides it',
  ),
  keyCacheMs: setting(
    'KEY_CACHE_MS',
    int(0, 60000),
    2000,
    'How long a key lookup is cached; bounds how late a revocation takes effect',
  ),
  keyOutageGraceMs: setting(
    'KEY_OUTAGE_GRACE_MS',
    int(0, 3600000),
    600000,
    'While PostgreSQL is unreachable, a key it confirmed within this long is still accepted from memory, so reconnecting streams stay up (0 = never)',
  ),
  streamHeartbeatMs: setting(
    'STREAM_HEARTBEAT_MS',
    int(50, 3600000),
    15000,
    'Interval of `: ping` comments on /v1/stream',
  ),
  streamRotateMs: setting('STREAM_ROTATE_MS', int(100, 86400000), 85000, 'Connection life before `event: rotate`'),
  streamRotateJitter: setting(
    'STREAM_ROTATE_JITTER_PCT',
    int(0, 50),
    10,
    'Spread of the rotation time, percent either side',
  ),
  streamConnectionsPerKey: setting(
    'STREAM_CONNECTIONS_PER_KEY',
    perTier,
    { free: 5, standard: 25, pro: 100, enterprise: 500 },
    "Concurrent streams (SSE and WebSocket together) per key, by tier (a tier not listed gets standard's); across replicas when REDIS_URL is set; beyond it 429 stream_limit",
  ),
  streamOpensPerSec: setting(
    'STREAM_OPENS_PER_SEC',
    int(0, 1_000_000),
    100,
    "Streams one key may open a second in a process, after a burst of a tenth of a second's worth (one stream at least); a stream beyond it is admitted (it holds its slot) and its response waits for its moment, so one key opening its whole cap at once cannot hold the event loop from other tenants (0 = no pacing)",
  ),
  streamReplayMaxEvents: setting(
    'STREAM_REPLAY_MAX_EVENTS',
    int(1, 1_000_000),
    5000,
    'Most changes a stream replays on connect or resume (counted in the whole change log); an older cursor gets `event: reset` and the rest from /v1/changes',
  ),
  streamReplaysPerKey: setting(
    'STREAM_REPLAYS_PER_KEY',
    int(0, 10000),
    2,
    "Streams of one key that catch up (replay) at once in a process; its other streams stay open and wait their turn, so one key's replays cannot fill the event loop and the read pools (0 = no limit)",
  ),
  streamReplayEventsPerSec: setting(
    'STREAM_REPLAY_EVENTS_PER_SEC',
    int(0, 10_000_000),
    1000,
    "Events a second that one key's streams together may replay (catch up) in a process; a stream over it waits and resumes, losing nothing; live events are not counted (0 = no limit)",
  ),
  streamBufferBytes: setting(
    'STREAM_BUFFER_BYTES',
    int(1024, 64 * 1024 * 1024),
    256 * 1024,
    'Bytes queued for one slow stream client before it is rotated out',
  ),
  bulkInterval: setting(
    'BULK_INTERVAL',
    int(1, 7 * 86400),
    900,
    'Seconds between bulk file builds at most (the `bulk` role; only the blocks of bills that changed are rendered again)',
  ),
  relayPollMs: setting('RELAY_POLL_MS', int(50, 600000), 5000, 'Safety poll of the relay when no notification arrives'),
  webhookAllowedHosts: setting(
    'WEBHOOK_ALLOWED_HOSTS',
    csv(/^[A-Za-z0-9.\-:[\]*]+$/, 'host names or addresses'),
    [],
    'Hosts allowed as webhook targets despite the private-address guard, plain http included (off by default)',
  ),
  webhookRetrySchedule: setting(
    'WEBHOOK_RETRY_SCHEDULE',
    csv(/^\d+(\.\d+)?$/, 'seconds'),
    ['0', '5', '300', '1800', '7200', '18000', '36000', '36000'],
    'Delay before each delivery attempt, in seconds',
  ),
  webhookSecretOverlapSeconds: setting(
    'WEBHOOK_SECRET_OVERLAP_SECONDS',
    int(0, 30 * 86400),
    86400,
    'After a webhook secret rotation, how long deliveries are also signed with the previous secret',
  ),
  webhookTimeoutMs: setting(
    'WEBHOOK_TIMEOUT_MS',
    int(100, 120000),
    15000,
    'Total time allowed for one delivery attempt',
  ),
  workerConcurrency: setting('WORKER_CONCURRENCY', int(1, 10000), 256, 'Deliveries in flight per worker process'),
  metricsToken: setting(
    'METRICS_TOKEN',
    {
      accepts: 'a random string of at least 16 characters (e.g. `openssl rand -hex 32`), not a placeholder',
      parse: (raw) => (raw.length >= 16 && !/change.?me|changeit|secret|password|example/i.test(raw) ? raw : undefined),
    },
    undefined,
    'Bearer token required by /metrics. Unset: /metrics answers only direct loopback callers (no proxy headers) of a loopback HOST, and is refused (404) when HOST is not loopback',
  ),
  demo: setting('LDS_DEMO', bool, false, 'Seed the demo corpus on an empty database and print a demo key at start'),
} as const;

type SettingsTable = typeof SETTINGS;
type ValueOf<S> = S extends Setting<infer T> ? T : never;
type Parsed = {
  [K in keyof SettingsTable]: SettingsTable[K] extends Setting<infer T>
    ? SettingsTable[K]['default'] extends undefined
      ? T | undefined
      : T
    : never;
};

export type Config = Mutable<Omit<Parsed, 'roles' | 'webhookRetrySchedule'>> & {
  roles: Role[];
  /** seconds */
  webhookRetrySchedule: number[];
  publicBaseUrl: string;
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Reads and validates the whole configuration; throws ConfigError on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(SETTINGS) as [keyof SettingsTable, Setting<unknown>][]) {
    const raw = env[s.env];
    if (raw === undefined || raw === '') {
      out[key] = s.default;
      continue;
    }
    const value = s.parser.parse(raw);
    if (value === undefined) throw new ConfigError(s.env, s.parser.accepts, raw);
    out[key] = value;
  }
  const cfg = out as unknown as Config;
  cfg.webhookRetrySchedule = (out.webhookRetrySchedule as string[]).map(Number);
  if (!cfg.publicBaseUrl) {
    // Loopback and wildcard binds are reached as localhost, the name the start banner prints, so the
    // docs links in errors and the OpenAPI server URL match what the user sees.
    const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(cfg.host) ? 'localhost' : cfg.host;
    cfg.publicBaseUrl = `http://${host}:${cfg.port}`;
  }
  cfg.publicBaseUrl = cfg.publicBaseUrl.replace(/\/+$/, '');
  return { ...cfg, ...overrides };
}

export type { ValueOf };

/** true when HOST binds loopback only, so no other machine can reach the socket directly. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Rows for the README / `lds config`: variable, default, accepted values, meaning. */
export function settingsTable(): { env: string; default: string; accepts: string; description: string }[] {
  return Object.values(SETTINGS).map((s: Setting<unknown>) => ({
    env: s.env,
    default:
      s.default === undefined
        ? '(unset)'
        : Array.isArray(s.default)
          ? s.default.join(',') || '(empty)'
          : typeof s.default === 'object' && s.default !== null
            ? Object.entries(s.default)
                .map(([k, v]) => `${k}:${v}`)
                .join(',')
            : String(s.default),
    accepts: s.parser.accepts,
    description: s.description,
  }));
}
