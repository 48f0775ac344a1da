// Outbound HTTP to subscriber URLs, on a dedicated undici Agent (never the global dispatcher:
// user-supplied URLs must not share connections or settings with internal calls). The address
// guard runs inside connect.lookup on every dial; IP literals skip lookup, so they are checked
// here before dispatch, and so is the port policy. Redirects are never followed (undici 7 does
// not by default): a 3xx is a failed attempt. The response is read up to a bound and then dropped.
//
// Connections belong to a subscription, not to an origin: every subscription (the `pool` a caller
// names) gets an Agent of its own, so receivers that hang hold only their own sockets and a healthy
// subscription on the same host:port never queues behind them (one shared per-origin pool of 16
// let two hanging subscriptions starve a third). How many requests a subscription has in flight is
// bounded by the delivery claim (PER_SUBSCRIPTION); an Agent idle for a minute is closed.
import { Agent } from 'undici';
import {
  blockedAddressReason,
  blockedPortReason,
  guardedLookup,
  isAllowedHost,
  type Resolver,
  systemResolver,
} from './guard.js';
import net from 'node:net';

export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface OutboundResult {
  status: number | null;
  headers: Record<string, string>;
  /** first bytes of the response body (bounded) */
  body: string;
  duration_ms: number;
  error: string | null;
  /** true when the guard refused the address (no request was sent) */
  blocked: boolean;
}

export interface OutboundOptions {
  allowedHosts: readonly string[];
  timeoutMs: number;
  resolver?: Resolver;
  /** sockets per origin of one pool (unset: as many as the caller has requests in flight) */
  connectionsPerPool?: number;
}

/** A pool's Agent is closed once it has been idle this long. */
const POOL_IDLE_MS = 60_000;
/** Sockets per origin of the shared Agent used by calls that name no pool (test deliveries). */
const SHARED_CONNECTIONS = 16;

interface NamedPool {
  agent: Agent;
  inFlight: number;
  lastUsed: number;
}

export class Outbound {
  /** the Agent of calls that name no pool */
  readonly agent: Agent;
  private readonly pools = new Map<string, NamedPool>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: OutboundOptions) {
    this.agent = this.newAgent(SHARED_CONNECTIONS);
    this.sweeper = setInterval(() => this.sweep(), POOL_IDLE_MS / 2);
    this.sweeper.unref();
  }

  private newAgent(connections: number | undefined): Agent {
    const { opts } = this;
    return new Agent({
      connect: {
        lookup: guardedLookup(opts.allowedHosts, opts.resolver ?? systemResolver),
        timeout: Math.min(opts.timeoutMs, 10_000),
      },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connections: connections ?? null,
      keepAliveTimeout: 4_000,
      allowH2: false,
    });
  }

  /** Agents open now, one per pool that sent recently (tests, metrics). */
  get poolCount(): number {
    return this.pools.size;
  }

  private sweep(now = Date.now()): void {
    for (const [name, p] of this.pools) {
      if (p.inFlight > 0 || now - p.lastUsed < POOL_IDLE_MS) continue;
      this.pools.delete(name);
      void p.agent.close().catch(() => undefined);
    }
  }

  /**
   * POSTs body to rawUrl. `pool` names the connection pool (a subscription id): requests of one
   * pool never wait for the sockets of another.
   */
  async post(rawUrl: string, headers: Record<string, string>, body: string, pool?: string): Promise<OutboundResult> {
    const started = performance.now();
    const done = (r: Omit<OutboundResult, 'duration_ms'>): OutboundResult => ({
      ...r,
      duration_ms: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return done({ status: null, headers: {}, body: '', error: 'invalid URL', blocked: true });
    }
    const allowed = isAllowedHost(url, this.opts.allowedHosts);
    if (!allowed) {
      if (url.protocol !== 'https:')
        return done({
          status: null,
          headers: {},
          body: '',
          error: 'refused: only https:// targets are allowed',
          blocked: true,
        });
      // Checked again at send time: a subscription stored before the port policy keeps its URL.
      const badPort = blockedPortReason(url);
      if (badPort) return done({ status: null, headers: {}, body: '', error: `refused: ${badPort}`, blocked: true });
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const why = net.isIP(host) ? blockedAddressReason(host) : undefined;
      if (why) return done({ status: null, headers: {}, body: '', error: `refused: ${host} ${why}`, blocked: true });
    }
    let named: NamedPool | undefined;
    if (pool !== undefined) {
      named = this.pools.get(pool);
      if (!named)
        this.pools.set(
          pool,
          (named = { agent: this.newAgent(this.opts.connectionsPerPool), inFlight: 0, lastUsed: 0 }),
        );
      named.inFlight++;
    }
    try {
      const res = await (named?.agent ?? this.agent).request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'LegislativeDataService-Webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        if (size < MAX_RESPONSE_BYTES) chunks.push(buf.subarray(0, MAX_RESPONSE_BYTES - size));
        size += buf.length;
        if (size >= MAX_RESPONSE_BYTES) {
          res.body.destroy();
          break;
        }
      }
      const outHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) outHeaders[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return done({
        status: res.statusCode,
        headers: outHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        error: null,
        blocked: false,
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = e.code ?? e.cause?.code;
      const blocked = code === 'EBLOCKED';
      const message =
        e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
          ? `timeout after ${this.opts.timeoutMs} ms`
          : blocked
            ? `refused: ${e.message}`
            : `${code ?? e.name}: ${e.message}`;
      return done({ status: null, headers: {}, body: '', error: message, blocked });
    } finally {
      if (named) {
        named.inFlight--;
        named.lastUsed = Date.now();
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const agents = [this.agent, ...[...this.pools.values()].map((p) => p.agent)];
    this.pools.clear();
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
  }
}
