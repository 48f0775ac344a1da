// API keys: random, high-entropy, recognisable prefix `lds_`; only the SHA-256 hash is stored, so a
// lost key cannot be recovered, only re-issued. A fast hash is right here: keys carry 256 bits of
// entropy, so there is nothing to brute-force, and lookups stay on the hot path of every request.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';

export const KEY_PREFIX = 'lds_';

/** Monthly request caps per tier (requests per UTC calendar month). */
export const TIER_CAPS: Record<string, number> = {
  free: 10_000,
  standard: 100_000,
  pro: 1_000_000,
  enterprise: 10_000_000,
};

export interface KeyRecord {
  api_key_id: string;
  key_prefix: string;
  org_name: string;
  tier: string;
  monthly_cap: number;
  burst_limit: number;
  created_at: string;
  revoked_at: string | null;
}

export interface CreatedKey extends KeyRecord {
  /** the full key, shown once */
  api_key: string;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export interface CreateKeyInput {
  org: string;
  tier?: string;
  monthlyCap?: number;
  burst?: number;
}

const COLS = `api_key_id, key_prefix, org_name, tier, monthly_cap, burst_limit,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS revoked_at`;

export async function createKey(db: Queryable, input: CreateKeyInput, defaultBurst = 10): Promise<CreatedKey> {
  const tier = input.tier ?? 'standard';
  const cap = input.monthlyCap ?? TIER_CAPS[tier] ?? TIER_CAPS.standard;
  const key = generateKey();
  const id = 'key_' + randomBytes(8).toString('hex');
  const { rows } = await db.query<KeyRecord>(
    `INSERT INTO api_keys (api_key_id, key_prefix, key_hash, org_name, tier, monthly_cap, burst_limit)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLS}`,
    [id, key.slice(0, 10), hashKey(key), input.org, tier, cap, input.burst ?? defaultBurst],
  );
  return { ...rows[0], api_key: key };
}

export async function listKeys(db: Queryable): Promise<KeyRecord[]> {
  const { rows } = await db.query<KeyRecord>(`SELECT ${COLS} FROM api_keys ORDER BY org_name, created_at`);
  return rows;
}

/** Marks a key revoked; returns false when no such key exists. Idempotent. */
export async function revokeKey(db: Queryable, apiKeyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE api_key_id = $1`,
    [apiKeyId],
  );
  return (rowCount ?? 0) > 0;
}

export interface KeyLookup extends KeyRecord {
  revoked: boolean;
}

export async function findKey(db: Queryable, key: string): Promise<KeyLookup | undefined> {
  const { rows } = await db.query<KeyRecord>(`SELECT ${COLS} FROM api_keys WHERE key_hash = $1`, [hashKey(key)]);
  return rows[0] ? { ...rows[0], revoked: rows[0].revoked_at !== null } : undefined;
}
