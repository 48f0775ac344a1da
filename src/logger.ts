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

/**
 * destination 1 = stdout (the server), 2 = stderr (CLI commands, whose stdout carries their
 * output, e.g. `keys create --json`).
 */
export function createLogger(level: string, opts: { pretty?: boolean; destination?: 1 | 2 } = {}): Logger {
  const destination = opts.destination ?? 1;
  const tty = destination === 2 ? process.stderr.isTTY : process.stdout.isTTY;
  const pretty = opts.pretty ?? (tty === true && level !== 'silent');
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination } },
    });
  }
  return pino(options, pinoDestination({ dest: destination, sync: destination === 2 }));
}
