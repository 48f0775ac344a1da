// Wake-ups from PostgreSQL NOTIFY on a dedicated connection (pg-listen). A notification carries no
// data we trust: the payload is never parsed, so a malformed or foreign NOTIFY cannot throw, and a
// notification lost while disconnected costs nothing because every (re)connect also wakes the
// caller, which then reads by cursor.
//
// Outages: a lost connection, pg-listen giving up and every failed fresh start are one condition,
// logged once as a warning when it begins and once (info) when the listener is connected again;
// fresh starts back off from 1 s to 10 s, so a long outage costs a few attempts a minute, not a
// log line a second per listener.
import pgListen, { type Options, type Subscriber } from 'pg-listen';
import type { Logger } from '../logger.js';
import { reconnects } from '../metrics/registry.js';
import { retryLog } from './health.js';

const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 10_000;

// pg-listen is CommonJS with `exports.default`; under ESM the function sits one level down.
type CreateSubscriber = (
  config: { connectionString: string; application_name?: string },
  options: Options,
) => Subscriber;
const mod = pgListen as unknown as { default?: CreateSubscriber };
const createSubscriber: CreateSubscriber = mod.default ?? (pgListen as unknown as CreateSubscriber);

export interface Listener {
  /** Resolves once LISTEN is first in place and the caller has been woken for it. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function listen(databaseUrl: string, channel: string, wake: () => void, log: Logger): Listener {
  let closed = false;
  let sub: Subscriber | undefined;
  let retry: NodeJS.Timeout | undefined;
  let restartDelay = 0;
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const outage = retryLog(log, 'notification listener lost its connection; reconnecting');
  const connected = () => {
    restartDelay = 0;
    outage.ok();
  };

  const start = async () => {
    if (closed) return;
    const s = createSubscriber(
      { connectionString: databaseUrl, application_name: 'lds-listener' },
      // pg-listen retries a lost connection for retryTimeout, then emits a final error and stops;
      // we then start a fresh subscriber (below). A finite timeout, not Infinity, because
      // pg-listen's retry loop ignores close(): closed during an outage, it must end on its own.
      {
        retryTimeout: 10_000,
        retryInterval: (n: number) => Math.min(250 * 2 ** n, 2000),
        paranoidChecking: 10_000,
        parse: (raw: string) => raw,
      },
    );
    sub = s;
    let restarting = false;
    const restart = () => {
      if (restarting || closed) return;
      restarting = true;
      void s.close().catch(() => undefined);
      restartDelay = Math.min(Math.max(restartDelay * 2, RESTART_MIN_MS), RESTART_MAX_MS);
      retry = setTimeout(() => void start(), restartDelay);
    };
    s.events.on('connected', () => {
      // a retry that succeeded after close(): end that connection too
      if (closed) void s.close().catch(() => undefined);
      else {
        connected();
        wake();
      }
    });
    s.events.on('reconnect', (attempt: number) => {
      reconnects.inc({ component: 'pg_listen' });
      outage.failed(new Error('connection lost'), { attempt });
    });
    s.events.on('notification', wake);
    // never rethrow: the safety poll keeps the relay going while the listener is down
    s.events.on('error', (err: Error) => {
      if (closed) return;
      outage.failed(err, { giving_up: true });
      restart();
    });
    try {
      await s.connect();
      await s.listenTo(channel);
      // 'connected' fires before LISTEN is in place: what was written in between announced itself to
      // nobody, so wake once more now that notifications can arrive.
      if (!closed) {
        connected();
        wake();
        listening();
      }
    } catch (err) {
      if (!closed) outage.failed(err);
      restart();
    }
  };
  void start();

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await sub?.close().catch(() => undefined);
    },
  };
}
