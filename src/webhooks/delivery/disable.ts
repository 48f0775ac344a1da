// The disable rule for subscriptions (webhooks and push-mirrors), after Svix: a delivery that
// exhausts its retries is marked failed and can be retried or recovered; the subscription is only
// switched off when its endpoint has failed every attempt for a sustained period. completeAttempts
// (queue/outcomes.ts) applies it in the statement that records outcomes; the reason goes to the log here.
import type { Logger } from '../../logger.js';

/**
 * Svix's rule for switching an endpoint off: a delivery that exhausts its retries is only marked
 * failed (retry or recover it later); the subscription is disabled when every attempt to it has
 * failed for this long (no success in between), with reason `endpoint_failing`. Test deliveries never count.
 */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
export const FAILING_REASON = 'endpoint_failing';
/** The rule as the OpenAPI description states it. */
export const DISABLE_RULE_DOC =
  'Retries and disabling (the Svix rule): a failed attempt is retried on the schedule; a delivery that exhausts its retries is ' +
  'marked failed (retry it with POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry or requeue a window with POST /v1/webhooks/{id}/recover) and the ' +
  'subscription stays active. The subscription is disabled (deactivated_reason endpoint_failing, logged with the start of the failing run) only when every ' +
  'attempt to it has failed for 5 days with no success in between, or at once on 410 Gone or an address the guard blocks; reactivate it with ' +
  'POST /v1/webhooks/{id}/reactivate. Test deliveries never count.';

export interface Disabled {
  subscription_id: number;
  reason: string;
  failing_since: Date | null;
}

/** Called with the subscriptions a recorded batch disabled, so the reason reaches the log. */
export type OnDisabled = (disabled: Disabled[]) => void;

export function logDisabled(log: Pick<Logger, 'warn'> | undefined, disabled: Disabled[]): void {
  for (const x of disabled) {
    log?.warn(
      { subscription: x.subscription_id, reason: x.reason, failing_since: x.failing_since },
      x.reason === FAILING_REASON
        ? `subscription ${x.subscription_id} disabled: every delivery attempt has failed since ${x.failing_since?.toISOString()}`
        : `subscription ${x.subscription_id} disabled: ${x.reason}`,
    );
  }
}
