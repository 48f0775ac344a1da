// The caller's key and subscriptions for subscription routes. The global auth hook (http/auth.ts)
// has already checked, counted and attached the key of every route that is neither public nor a
// probe, which these routes are not; this only reads what it attached.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import type { KeyLookup } from '../../keys/store.js';
import { getSubscription, requireActive, type SubscriptionRow } from '../subscriptions.js';

export function callerKey(req: FastifyRequest): KeyLookup {
  // unreachable while the auth hook runs first: fail closed rather than serve without a key
  if (!req.apiKey) throw new ApiError('unauthorized');
  return req.apiKey;
}

/**
 * The caller's subscription `id`: 404 when it is unknown or another organisation's; with
 * `active`, 409 subscription_inactive unless it is active (routes that would send or queue).
 */
export async function callerSubscription(
  req: FastifyRequest,
  id: string,
  opts: { active?: boolean } = {},
): Promise<SubscriptionRow> {
  const key = callerKey(req);
  const sub = await getSubscription(req.server.db, key.org_name, id);
  if (opts.active) requireActive(sub);
  return sub;
}
