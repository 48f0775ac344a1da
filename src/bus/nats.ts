// NATS bus. Core subjects `<ns>.changes.<STATE>.<reason>` fan every change out to each gateway
// replica (at-most-once: the hub fills holes from the change log by seq). The JetStream stream
// `<NS>_CHANGES` on `<ns>.js.changes.>` keeps seven days of changes, with the change id as
// Nats-Msg-Id so a republish after an outage or a relay failover is deduplicated; publish() resolves
// only once JetStream acknowledged every event, so the relay's published cursor never runs ahead of
// what the bus really holds. No process of ours consumes it durably: the dispatcher and the stream
// hub read the change log by cursor and use the bus only as a wake-up and live fan-out.
//
// The stream is re-created whenever it may be gone: after every reconnection, and when a publish
// fails (a NATS server restarted with an empty JetStream store answers every publish with "no
// responders" until the stream exists again; before, only a restart of our process re-created it).
import { connect, nanos, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';
import type { Bus, BusMessage, Unsubscribe } from './types.js';
import { reconnects } from '../metrics/registry.js';

const DUPLICATE_WINDOW_MS = 10 * 60_000;
const MAX_AGE_MS = 7 * 24 * 3600_000;

export interface NatsBusOptions {
  /** subject prefix and stream name base; lets several deployments (or test runs) share one server */
  namespace?: string;
}

type StreamConfig = Parameters<JetStreamManager['streams']['add']>[0] & { name: string };

/** Creates the stream, or keeps the one there (possibly with other limits set by an operator). */
async function ensureStream(jsm: JetStreamManager, config: StreamConfig): Promise<'created' | 'exists'> {
  try {
    await jsm.streams.info(config.name);
    return 'exists';
  } catch {
    // missing (or JetStream not answering): add it; a failure here is the caller's to retry
  }
  try {
    await jsm.streams.add(config);
    return 'created';
  } catch (err) {
    // created meanwhile by another process, or there with another configuration: keep it
    await jsm.streams.info(config.name).catch(() => Promise.reject(err));
    return 'exists';
  }
}

export class NatsBus<E extends BusMessage = BusMessage> implements Bus<E> {
  readonly kind = 'nats' as const;
  private connected = true;
  private readonly subs = new Set<Subscription>();
  private closed = false;
  private ensuring: Promise<void> | undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly ns: string,
    private readonly stream: string,
    private readonly streamConfig: StreamConfig,
    private readonly log: Logger,
  ) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') {
          this.connected = false;
          log.warn({ server: s.server }, 'NATS disconnected');
        } else if (s.type === 'reconnect') {
          this.connected = true;
          reconnects.inc({ component: 'nats' });
          log.info({ server: s.server }, 'NATS reconnected');
          // a server that restarted with an empty store has no stream: put it back before the relay asks
          void this.ensureStream();
        }
      }
    })().catch(() => undefined);
  }

  static async connect<E extends BusMessage = BusMessage>(
    url: string,
    log: Logger,
    opts: NatsBusOptions = {},
  ): Promise<NatsBus<E>> {
    const ns = (opts.namespace ?? 'lds').replace(/[^A-Za-z0-9_-]/g, '_');
    const nc = await connect({
      servers: url.split(','),
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      name: 'lds',
    });
    const jsm = await jetstreamManager(nc);
    const stream = `${ns.toUpperCase()}_CHANGES`;
    const config: StreamConfig = {
      name: stream,
      subjects: [`${ns}.js.changes.>`],
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      max_age: nanos(MAX_AGE_MS),
    };
    await ensureStream(jsm, config);
    return new NatsBus<E>(nc, jetstream(nc), jsm, ns, stream, config, log);
  }

  /** Re-creates the stream if it is gone; one attempt at a time, failures left to the next call. */
  private ensureStream(): Promise<void> {
    this.ensuring ??= ensureStream(this.jsm, this.streamConfig)
      .then(
        (outcome) => {
          if (outcome === 'created')
            this.log.warn(
              { stream: this.stream },
              'JetStream stream was missing (NATS lost its store?); re-created it',
            );
        },
        (err: Error) =>
          this.log.debug(
            { err: err.message, stream: this.stream },
            'JetStream stream could not be checked or created yet',
          ),
      )
      .finally(() => (this.ensuring = undefined));
    return this.ensuring;
  }

  private subject(kind: 'changes' | 'js.changes', e: E) {
    return `${this.ns}.${kind}.${e.state.trim() || 'XX'}.${e.reason}`;
  }

  async publish(events: E[]): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    const acks: Promise<unknown>[] = [];
    for (const e of events) {
      const data = JSON.stringify(e);
      this.nc.publish(this.subject('changes', e), data);
      acks.push(this.js.publish(this.subject('js.changes', e), data, { msgID: String(e.change_id), timeout: 5000 }));
    }
    try {
      await Promise.all(acks);
    } catch (err) {
      // The stream may be gone (an empty store after a restart): re-create it before the caller's
      // retry, which republishes from its cursor (duplicates are dropped by message id).
      if (!this.closed) await this.ensureStream();
      throw err;
    }
  }

  subscribe(handler: (e: E) => void): Unsubscribe {
    const sub = this.nc.subscribe(`${this.ns}.changes.>`, {
      callback: (err, msg) => {
        if (err) return;
        let e: E;
        try {
          e = msg.json<E>();
        } catch {
          return; // not ours: ignore
        }
        try {
          handler(e);
        } catch (error) {
          this.log.warn({ err: error }, 'bus subscriber failed');
        }
      },
    });
    this.subs.add(sub);
    return () => {
      this.subs.delete(sub);
      sub.unsubscribe();
    };
  }

  healthy(): boolean {
    return !this.closed && this.connected && !this.nc.isClosed();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.subs) s.unsubscribe();
    await this.nc.drain().catch(() => this.nc.close());
  }

  /** Removes this namespace's stream (tests). */
  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.stream).catch(() => undefined);
  }
}
