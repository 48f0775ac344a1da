// One delivery attempt, the same path for workers, test calls and push-mirror pushes: render the
// body for the subscription's kind, sign it (Standard Webhooks), POST it through the guarded
// Agent, judge the response, schedule the next attempt or finish, and log the attempt.
import type { Config } from '../../config.js';
import type { Pool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import type { DeliveryKinds, Rendered } from './kinds.js';
import type { Outbound, OutboundResult } from './outbound.js';
import { logDisabled } from './disable.js';
import type { ClaimedDelivery } from '../queue/claims.js';
import {
  completeAttempt,
  deliverCarried,
  nextDelaySeconds,
  parseRetryAfter,
  type AttemptOutcome,
} from '../queue/outcomes.js';
import { signedHeaders } from './signing.js';
import { liveSecrets } from '../subscriptions.js';
import { deliveryOutcomes } from '../../metrics/registry.js';

export interface DeliveryContext {
  db: Pool;
  config: Config;
  outbound: Outbound;
  kinds: DeliveryKinds;
  log?: Pick<Logger, 'warn'>;
  random?: () => number;
  /** batched completion (workers); a single statement per attempt otherwise */
  complete?: (d: ClaimedDelivery, o: AttemptOutcome) => Promise<boolean>;
  /** called once the HTTP exchange is over, before the outcome is recorded */
  onResponse?: () => void;
  /** the body, when the worker rendered it ahead of the send (a push-mirror lane's run) */
  rendered?: Promise<Rendered>;
}

export interface AttemptReport extends AttemptOutcome {
  delivery_id: string;
  attempt: number;
  fenced: boolean;
  response: OutboundResult;
}

export async function attemptDelivery(ctx: DeliveryContext, d: ClaimedDelivery): Promise<AttemptReport> {
  const handler = ctx.kinds.get(d.kind);
  const startedAt = new Date();
  let res: OutboundResult;
  let rendered: Rendered | undefined;
  try {
    // a process whose root did not register the kind: a failed attempt, retried, never a wrong body
    if (!handler) throw new Error(`no delivery handler for kind ${d.kind}`);
    rendered = await (ctx.rendered ?? handler.render(ctx.db, d, ctx.config));
    const headers = { ...signedHeaders(liveSecrets(d), d.public_id, rendered.body), ...rendered.headers };
    // one connection pool per subscription: a hanging receiver never holds another's sockets
    res = await ctx.outbound.post(d.webhook_url, headers, rendered.body, String(d.subscription_id));
  } catch (err) {
    res = {
      status: null,
      headers: {},
      body: '',
      duration_ms: Date.now() - startedAt.getTime(),
      error: `render failed: ${(err as Error).message}`,
      blocked: false,
    };
  }
  ctx.onResponse?.();
  const failure = handler ? handler.judge(res) : (res.error ?? 'no delivery handler');
  const outcome = decide(ctx, d, res, failure, startedAt);
  deliveryOutcomes.inc({
    outcome:
      outcome.status === 'delivered'
        ? 'delivered'
        : outcome.deactivate
          ? `failed_${outcome.deactivate}`
          : outcome.status === 'pending'
            ? 'retry_scheduled'
            : 'failed',
  });
  if (outcome.status === 'delivered' && rendered?.carries?.length)
    await deliverCarried(ctx.db, rendered.carries, outcome.statusCode);
  const fenced = ctx.complete
    ? await ctx.complete(d, outcome)
    : await completeAttempt(ctx.db, d, outcome, (off) => logDisabled(ctx.log, off));
  if (fenced && outcome.status === 'delivered' && handler?.afterDelivered) {
    await handler
      .afterDelivered(ctx.db, d, res)
      .catch((err) => ctx.log?.warn({ err, delivery: d.public_id }, 'after-delivery step failed'));
  }
  return { ...outcome, delivery_id: d.public_id, attempt: d.attempts, fenced, response: res };
}

function decide(
  ctx: DeliveryContext,
  d: ClaimedDelivery,
  res: OutboundResult,
  failure: string | undefined,
  startedAt: Date,
): AttemptOutcome {
  const base = {
    startedAt,
    durationMs: res.duration_ms,
    statusCode: res.status,
    responseExcerpt: res.body.slice(0, 1024),
  };
  if (failure === undefined) return { ...base, status: 'delivered', error: null, nextAttemptAt: null };
  const isTest = d.is_test;
  if (res.blocked) {
    // Never retry a destination the guard refused: the URL now points inside our network.
    return {
      ...base,
      status: 'failed',
      error: failure,
      nextAttemptAt: null,
      deactivate: isTest ? undefined : 'address_blocked',
    };
  }
  if (res.status === 410)
    return { ...base, status: 'failed', error: failure, nextAttemptAt: null, deactivate: isTest ? undefined : 'gone' };
  const schedule = ctx.config.webhookRetrySchedule;
  const made = d.attempts - d.attempt_base;
  const delay = isTest ? undefined : nextDelaySeconds(schedule, made, ctx.random);
  // Exhausted: the delivery is failed (retry or recover it later); the subscription stays active
  // unless every attempt has failed for the disable window (queue/outcomes.ts, DISABLE_AFTER_FAILING_MS).
  if (delay === undefined) return { ...base, status: 'failed', error: failure, nextAttemptAt: null };
  const retryAfter = parseRetryAfter(res.headers['retry-after']);
  const wait = retryAfter !== undefined && retryAfter > delay ? retryAfter : delay;
  return { ...base, status: 'pending', error: failure, nextAttemptAt: new Date(Date.now() + wait * 1000) };
}
