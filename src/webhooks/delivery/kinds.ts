// Subscription kinds register how a change becomes their deliveries, how those are rendered and
// judged, and what secret a subscription of theirs holds; the delivery core (dispatcher, attempt,
// routes) looks them up by the subscription's kind and knows none of them by name. Plain webhooks
// are built in; the process root adds the push-mirror's handler (src/delivery-kinds.ts), which it
// builds through webhooks/kit.ts, so webhooks/ never imports mirror/.
import type { ChangeEvent } from '../../changes/events.js';
import type { Config } from '../../config.js';
import type { Pool } from '../../db/pool.js';
import type { ClaimedDelivery } from '../queue/claims.js';
import type { NewDelivery } from '../queue/enqueue.js';
import { buildPayload } from '../queue/events.js';
import type { OutboundResult } from './outbound.js';
import { generateSecret } from './signing.js';

export interface Rendered {
  body: string;
  headers?: Record<string, string>;
  /** queued deliveries this body delivers as well (a push of a bill as it is now serves its later pushes) */
  carries?: number[];
}

/** A stamped change as the dispatcher reads it: the public projection plus the bill as it is now. */
export interface DispatchChange extends ChangeEvent {
  status_id: number | null;
  status_date: string | null;
  updated: string | null;
  subjects: string[];
  topics: string[];
}

/** What one dispatcher batch shares between subscriptions: a change's payload per event is built once. */
export interface DispatchContext {
  baseUrl: string;
  kinds: DeliveryKinds;
  payloads: Map<string, string>;
}

/** What a subscription kind changes in the delivery path. */
export interface KindHandler {
  /**
   * The delivery rows one change makes for one subscription of this kind; `events` are the
   * subscription's events the change produces, never empty (filters already passed).
   */
  dispatch(subscriptionId: number, change: DispatchChange, events: string[], ctx: DispatchContext): NewDelivery[];
  /** A new secret for a subscription of this kind (a signing secret, a mirror's token), shown once. */
  newSecret(): string;
  /** The target of a test delivery, rendered by the kind; null when the stored payload is the body. */
  testTarget: Record<string, unknown> | null;
  render(db: Pool, d: ClaimedDelivery, config: Config): Promise<Rendered>;
  /** undefined = success; otherwise the failure message */
  judge(res: OutboundResult): string | undefined;
  afterDelivered?(db: Pool, d: ClaimedDelivery, res: OutboundResult): Promise<void>;
}

export const webhookHandler: KindHandler = {
  dispatch(subscriptionId, c, events, ctx) {
    const bill = {
      bill_id: c.bill_id,
      state: c.state,
      bill_number: c.bill_number,
      title: c.title,
      status_id: c.status_id ?? c.new_status ?? 1,
      status_date: c.status_date,
      updated: c.updated ?? c.changed_at,
    };
    return events.map((type) => {
      const key = `${c.change_id}:${type}`;
      let payload = ctx.payloads.get(key);
      if (payload === undefined)
        ctx.payloads.set(key, (payload = JSON.stringify(buildPayload(type, c, bill, ctx.baseUrl))));
      return {
        subscription_id: subscriptionId,
        change_id: c.change_id,
        bill_id: c.bill_id,
        event_type: type,
        payload,
        target: null,
      };
    });
  },
  newSecret: generateSecret,
  testTarget: null,
  async render(_db, d) {
    return { body: d.payload_text };
  },
  judge(res) {
    if (res.error) return res.error;
    if (res.status !== null && res.status >= 200 && res.status < 300) return undefined;
    return `HTTP ${res.status}`;
  },
};

/**
 * The kinds a process sends, looked up by a subscription's kind. Built once at the process root
 * (src/delivery-kinds.ts) and handed to the dispatcher, the worker and the app; plain webhooks are
 * always there.
 */
export class DeliveryKinds {
  private readonly handlers: Map<string, KindHandler>;

  constructor(others: Record<string, KindHandler> = {}) {
    this.handlers = new Map([['webhook', webhookHandler], ...Object.entries(others)]);
  }

  /** The kind's handler, or undefined when this process does not send that kind. */
  get(kind: string): KindHandler | undefined {
    return this.handlers.get(kind);
  }

  /**
   * The kind's handler where the caller cannot go on without it. A subscription whose kind this
   * process does not know is never skipped (its deliveries would be lost): the dispatcher's batch
   * fails and is retried, a route answers 500 (the envelope shows no internals).
   */
  require(kind: string): KindHandler {
    const h = this.handlers.get(kind);
    if (!h) throw new Error(`delivery kind '${kind}' is not known to this process`);
    return h;
  }
}
