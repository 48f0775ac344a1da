// One pino logger for the process. Pretty output only when stdout is a terminal; JSON otherwise.
// Secrets are redacted wherever they may appear (request headers, webhook secrets, tokens).
import { destination as pinoDestination, pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  'req.headers.cookie',
  '*.secret',
  '*.previous_secret',
  '*.webhook_secret',
  '*.key_hash',
  '*.api_key',
  '*.token',
  '*.password',
];

// Query parameters whose values are credentials: a key sent as ?api_key= is ignored for auth but
// would otherwise land verbatim in the access log, and so would tokens and signatures.
const SECRET_PARAM = /key|token|secret|passw|pwd|signature|^sig$|credential|^auth/i;

/** The URL with the value of every secret-looking query parameter replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&').map((pair) => {
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
function requestSerializer(req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return { method: req.method, url: redactUrl(req.url ?? ''), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/**
 * destination 1 = stdout (the server), 2 = stderr (CLI commands, whose stdout carries their
 * output, e.g. `keys create --json`).
 */
export function createLogger(level: string, opts: { pretty?: boolean; destination?: 1 | 2; stream?: NodeJS.WritableStream } = {}): Logger {
  const destination = opts.destination ?? 1;
  const tty = destination === 2 ? process.stderr.isTTY : process.stdout.isTTY;
  const pretty = opts.pretty ?? (tty === true && level !== 'silent');
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, serializers: { req: requestSerializer } };
  // tests read the log lines from a stream of their own
  if (opts.stream) return pino(options, opts.stream);
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination } },
    });
  }
  // The server's stdout is written in blocks of at least 4 KiB, and at least every 100 ms and at
  // exit (pino flushes its destination then): a write per line cost each request about 15 µs of
  // CPU for its two access lines, two system calls per request at any rate.
  const buffered = destination === 1 ? { minLength: 4096, periodicFlush: 100 } : {};
  return pino(options, pinoDestination({ dest: destination, sync: destination === 2, ...buffered }));
}
