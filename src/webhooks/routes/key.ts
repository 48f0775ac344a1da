// The caller's key and subscriptions for subscription routes. The global auth hook sets
// request.apiKey; until it runs for a route (or where it is absent), the key is looked up here so
// subscriptions can never be created or read without an issued, unrevoked key.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { findKey, type KeyLookup } from '../../keys/store.js';
import { getSubscription, requireActive, type SubscriptionRow } from '../subscriptions.js';

export async function callerKey(req: FastifyRequest): Promise<KeyLookup> {
  if (req.apiKey) return req.apiKey;
  const raw = req.headers['x-api-key'];
  if (typeof raw !== 'string' || raw === '') throw new ApiError('unauthorized');
  const key = await findKey(req.server.db, raw);
  if (!key) throw new ApiError('invalid_api_key');
  if (key.revoked) throw new ApiError('revoked_api_key');
  req.apiKey = key;
  return key;
}

/**
 * The caller's subscription `id`: 404 when it is unknown or another organisation's; with
 * `active`, 409 subscription_inactive unless it is active (routes that would send or queue).
 */
export async function callerSubscription(req: FastifyRequest, id: string, opts: { active?: boolean } = {}): Promise<SubscriptionRow> {
  const key = await callerKey(req);
  const sub = await getSubscription(req.server.db, key.org_name, id);
  if (opts.active) requireActive(sub);
  return sub;
}
