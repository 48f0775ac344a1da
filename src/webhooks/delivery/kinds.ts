// Subscription kinds register how their deliveries are rendered and judged; the delivery core
// (attempt.ts) looks them up by the subscription's kind and knows none of them by name. Plain
// webhooks are built in; the push-mirror registers itself (mirror/handler.ts,
// registerMirrorDelivery) from the process root and the app, so webhooks/ never imports mirror/.
import type { Config } from '../../config.js';
import type { Pool } from '../../db/pool.js';
import type { ClaimedDelivery } from '../queue/claims.js';
import type { OutboundResult } from './outbound.js';

export interface Rendered {
  body: string;
  headers?: Record<string, string>;
  /** queued deliveries this body delivers as well (a push of a bill as it is now serves its later pushes) */
  carries?: number[];
}

/** What a subscription kind changes in the delivery path. */
export interface KindHandler {
  render(db: Pool, d: ClaimedDelivery, config: Config): Promise<Rendered>;
  /** undefined = success; otherwise the failure message */
  judge(res: OutboundResult): string | undefined;
  afterDelivered?(db: Pool, d: ClaimedDelivery, res: OutboundResult): Promise<void>;
}

export const webhookHandler: KindHandler = {
  async render(_db, d) {
    return { body: d.payload_text };
  },
  judge(res) {
    if (res.error) return res.error;
    if (res.status !== null && res.status >= 200 && res.status < 300) return undefined;
    return `HTTP ${res.status}`;
  },
};

const kinds = new Map<string, KindHandler>([['webhook', webhookHandler]]);

/** Registers (or replaces) the handler of a subscription kind; idempotent for the same handler. */
export function registerDeliveryKind(kind: string, handler: KindHandler): void {
  kinds.set(kind, handler);
}

/** The kind's handler, or undefined when no handler is registered in this process. */
export function handlerFor(kind: string): KindHandler | undefined {
  return kinds.get(kind);
}
