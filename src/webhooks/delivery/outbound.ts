// Outbound HTTP to subscriber URLs, on a dedicated undici Agent (never the global dispatcher:
// user-supplied URLs must not share connections or settings with internal calls). The address
// guard runs inside connect.lookup on every dial; IP literals skip lookup, so they are checked
// here before dispatch, and so is the port policy. Redirects are never followed (undici 7 does
// not by default): a 3xx is a failed attempt. The response is read up to a bound and then dropped.
import { Agent } from 'undici';
import { blockedAddressReason, blockedPortReason, guardedLookup, isAllowedHost, type Resolver, systemResolver } from './guard.js';
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
  /** sockets per origin: bounds what one subscriber can take from the pool */
  connectionsPerOrigin?: number;
}

export class Outbound {
  readonly agent: Agent;
  constructor(private readonly opts: OutboundOptions) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(opts.allowedHosts, opts.resolver ?? systemResolver), timeout: Math.min(opts.timeoutMs, 10_000) },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connections: opts.connectionsPerOrigin ?? 16,
      keepAliveTimeout: 4_000,
      allowH2: false,
    });
  }

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<OutboundResult> {
    const started = performance.now();
    const done = (r: Omit<OutboundResult, 'duration_ms'>): OutboundResult => ({ ...r, duration_ms: Math.round(performance.now() - started) });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return done({ status: null, headers: {}, body: '', error: 'invalid URL', blocked: true });
    }
    const allowed = isAllowedHost(url, this.opts.allowedHosts);
    if (!allowed) {
      if (url.protocol !== 'https:') return done({ status: null, headers: {}, body: '', error: 'refused: only https:// targets are allowed', blocked: true });
      // Checked again at send time: a subscription stored before the port policy keeps its URL.
      const badPort = blockedPortReason(url);
      if (badPort) return done({ status: null, headers: {}, body: '', error: `refused: ${badPort}`, blocked: true });
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const why = net.isIP(host) ? blockedAddressReason(host) : undefined;
      if (why) return done({ status: null, headers: {}, body: '', error: `refused: ${host} ${why}`, blocked: true });
    }
    try {
      const res = await this.agent.request({
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
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) outHeaders[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return done({ status: res.statusCode, headers: outHeaders, body: Buffer.concat(chunks).toString('utf8'), error: null, blocked: false });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = e.code ?? e.cause?.code;
      const blocked = code === 'EBLOCKED';
      const message = e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? `timeout after ${this.opts.timeoutMs} ms` : blocked ? `refused: ${e.message}` : `${code ?? e.name}: ${e.message}`;
      return done({ status: null, headers: {}, body: '', error: message, blocked });
    }
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
