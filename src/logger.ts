// One pino logger for the process. Pretty output only when stdout is a terminal; JSON otherwise.
// Secrets are redacted wherever they may appear (request headers, webhook secrets, tokens).
import { pino, type Logger as PinoLogger } from 'pino';

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

export function createLogger(level: string, opts: { pretty?: boolean; destination?: number } = {}): Logger {
  const pretty = opts.pretty ?? (process.stdout.isTTY === true && level !== 'silent');
  return pino({
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    transport: pretty ? { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
  });
}
