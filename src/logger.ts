// One pino logger for the process. Pretty output only when stdout is a terminal; JSON otherwise.
// Secrets are redacted wherever they may appear (request headers, webhook secrets, tokens).
import { destination as pinoDestination, pino, symbols, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export type Logger = PinoLogger;

const CENSOR = '[redacted]';
/** Keys censored in any object logged under a top-level key (`log.info({ subscription })`). */
export const SECRET_KEYS = ['secret', 'previous_secret', 'webhook_secret', 'key_hash', 'api_key', 'token', 'password'];
/** Header names censored in a logged `headers` object (the access log's `req` carries no headers: requestSerializer). */
export const SECRET_HEADERS = ['x-api-key', 'authorization', 'cookie'];
const HEADER_KEYS = [...SECRET_KEYS, ...SECRET_HEADERS];

/** A copy of `value` with the given keys censored, or undefined when it holds none of them. */
function censored(value: object, keys: readonly string[]): object | undefined {
  let copy: Record<string, unknown> | undefined;
  for (const k of keys) {
    if (!Object.hasOwn(value, k) || (value as Record<string, unknown>)[k] === undefined) continue;
    // An error keeps its prototype, message and stack for the err serializer; a list stays a list.
    copy ??= Array.isArray(value)
      ? (value.slice() as unknown as Record<string, unknown>)
      : Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value));
    copy![k] = CENSOR;
  }
  return copy;
}

/**
 * The log call's object with secrets censored, copied only when it holds one. This is what pino's
 * `redact` did with the paths `*.secret`, `*.token`, ..., `headers.authorization`, but a
 * wildcard path made pino clone and re-serialise every object-valued key of every line, each
 * request's access line included: about half the CPU a request spent on logging.
 */
function withoutSecrets(obj: object): object {
  if (obj instanceof Error) return censored(obj, SECRET_KEYS) ?? obj;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    const v = (obj as Record<string, unknown>)[key];
    if (typeof v !== 'object' || v === null) continue;
    const c = censored(v, key === 'headers' ? HEADER_KEYS : SECRET_KEYS);
    if (c) (out ??= { ...obj })[key] = c;
  }
  return out ?? obj;
}

// Query parameters whose values are credentials: a key sent as ?api_key= is ignored for auth but
// would otherwise land verbatim in the access log, and so would tokens and signatures.
const SECRET_PARAM = /key|token|secret|passw|pwd|signature|^sig$|credential|^auth/i;

/** The URL with the value of every secret-looking query parameter replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // malformed escapes: match the raw name
      }
      return SECRET_PARAM.test(name) && eq >= 0 ? `${rawName}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/** Fastify's request serializer (the access log's `req`), with secrets redacted from the URL. */
function requestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** What the access line reads of a request (a FastifyRequest). */
export interface AccessRequest {
  id: string;
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Writes a completed request's access line; see accessLineWriter. */
export type AccessLineWriter = (req: AccessRequest, statusCode: number, responseTime: number) => void;

/** Loggers whose lines go to a stream this module made or was given: the access line may be written to it directly. */
const destinations = new WeakMap<Logger, { write(line: string): unknown }>();

const str = (v: string | undefined) => (v === undefined ? undefined : JSON.stringify(v));

/**
 * A writer of the access line that builds it in one template instead of through pino's generic
 * path (the level check aside, the same bytes as `log.info({ req, res, responseTime },
 * 'request completed')` on a child logger bound to the request id, test/http/logs.test.ts). Every
 * request writes one: through pino's per-key serialisers, stringifying and hooks, logging was
 * 38–84 µs of a read's CPU, and 12–32 µs with this line (bench/read --perf, the same run). Undefined
 * for a logger whose lines go elsewhere (a transport, pretty printing): those take the generic path.
 */
export function accessLineWriter(logger: Logger): AccessLineWriter | undefined {
  const stream = destinations.get(logger);
  if (!stream) return undefined;
  // The logger's own bindings (pid, hostname) as pino serialised them once for every line: the
  // string pino.symbols names for integrations (bindings() leaves pid and hostname out).
  const bound = (logger as unknown as Record<symbol, string>)[symbols.chindingsSym] ?? '';
  return (req, statusCode, responseTime) => {
    const url = JSON.stringify(redactUrl(req.url));
    const host = str(req.host);
    const ip = str(req.ip);
    const port = req.socket?.remotePort;
    // Keys whose value is undefined are left out, as JSON.stringify leaves them out of pino's line.
    stream.write(
      `{"level":30,"time":${Date.now()}${bound},"reqId":${JSON.stringify(req.id)},"req":{"method":${JSON.stringify(req.method)},"url":${url}` +
        `${host === undefined ? '' : `,"host":${host}`}${ip === undefined ? '' : `,"remoteAddress":${ip}`}` +
        `${port === undefined ? '' : `,"remotePort":${port}`}},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`,
    );
  };
}

/**
 * destination 1 = stdout (the server), 2 = stderr (CLI commands, whose stdout carries their
 * output, e.g. `keys create --json`).
 */
export function createLogger(
  level: string,
  opts: { pretty?: boolean; destination?: 1 | 2; stream?: NodeJS.WritableStream } = {},
): Logger {
  const destination = opts.destination ?? 1;
  const tty = destination === 2 ? process.stderr.isTTY : process.stdout.isTTY;
  const pretty = opts.pretty ?? (tty === true && level !== 'silent');
  const options: LoggerOptions = {
    level,
    serializers: { req: requestSerializer },
    hooks: {
      logMethod(args, method) {
        if (typeof args[0] === 'object' && args[0] !== null) args[0] = withoutSecrets(args[0]);
        return method.apply(this, args);
      },
    },
  };
  // tests read the log lines from a stream of their own
  if (opts.stream) return direct(pino(options, opts.stream), opts.stream);
  if (pretty) {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination },
      },
    });
  }
  // The server's stdout is written in blocks of at least 4 KiB, and at least every 100 ms and at
  // exit (pino flushes its destination then): a write per line cost each request about 15 µs of
  // CPU when it had two access lines, two system calls per request at any rate.
  const buffered = destination === 1 ? { minLength: 4096, periodicFlush: 100 } : {};
  const stream = pinoDestination({ dest: destination, sync: destination === 2, ...buffered });
  return direct(pino(options, stream), stream);
}

function direct(logger: Logger, stream: { write(line: string): unknown }): Logger {
  destinations.set(logger, stream);
  return logger;
}
