// The caller's key for subscription routes. The global auth hook sets request.apiKey; until it runs
// for a route (or where it is absent), the key is looked up here so subscriptions can never be
// created or read without an issued, unrevoked key.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { findKey, type KeyLookup } from '../../keys/store.js';

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
