// Subscriptions (webhooks and push-mirrors): one table, two kinds. Visibility is per organisation
// (old and new keys of an org overlap during key rotation and must see the same subscriptions);
// the cap of 25 active subscriptions is counted per key, as the spec states it.
import { randomBytes } from 'node:crypto';
import type { Pool, Queryable } from '../db/pool.js';
import { withTransaction } from '../db/pool.js';
import { ApiError } from '../http/errors.js';
import { parseInt64 } from '../http/params.js';

export const MAX_ACTIVE_PER_KEY = 25;

/** The kinds the API's schema lists (routes/schemas.ts); each one's behaviour is its registered handler (delivery/kinds.ts). */
export type SubscriptionKind = 'webhook' | 'push_mirror';

export interface SubscriptionRow {
  id: number;
  public_id: string;
  api_key_id: string;
  org_name: string;
  kind: SubscriptionKind;
  webhook_url: string;
  events: string[];
  filter_states: string[];
  filter_subjects: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires: Date | null;
  active: boolean;
  deactivated_reason: string | null;
  deactivated_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_delivery_at: Date | null;
  last_delivery_status: string | null;
  last_status_code: number | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The public shape; never carries a secret. */
export function publicSubscription(s: SubscriptionRow) {
  return {
    id: s.id,
    kind: s.kind,
    webhook_url: s.webhook_url,
    events: s.events,
    filters: { states: s.filter_states, subjects: s.filter_subjects },
    active: s.active,
    deactivated_reason: s.deactivated_reason,
    deactivated_at: iso(s.deactivated_at),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
    previous_secret_expires_at:
      s.previous_secret && s.previous_secret_expires && s.previous_secret_expires > new Date()
        ? s.previous_secret_expires.toISOString()
        : null,
    last_delivery: s.last_delivery_at
      ? {
          at: s.last_delivery_at.toISOString(),
          status: s.last_delivery_status ?? 'unknown',
          status_code: s.last_status_code,
        }
      : null,
  };
}

export interface NewSubscription {
  apiKeyId: string;
  orgName: string;
  kind: SubscriptionKind;
  url: string;
  events: string[];
  states: string[];
  subjects: string[];
  secret: string;
}

/** The legacy public_id column (unique, not null) still gets a value; the public id is the integer id. */
export function newPublicId(prefix = 'wh'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** Serialises cap checks of one key so concurrent creates can never exceed the cap. */
async function lockKeyAndCount(c: Queryable, apiKeyId: string): Promise<number> {
  await c.query('SELECT pg_advisory_xact_lock(7310040, hashtext($1))', [apiKeyId]);
  const { rows } = await c.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM subscriptions WHERE api_key_id = $1 AND active AND deleted_at IS NULL',
    [apiKeyId],
  );
  return rows[0].n;
}

/**
 * Every 429 carries Retry-After (spec, Errors rule 1). Nothing frees a slot by itself except a
 * subscription being deactivated (410, exhausted retries), so the value is a polite minute between
 * retries, not a promise: deleting a subscription frees a slot at once.
 */
export const SUBSCRIPTION_LIMIT_RETRY_AFTER = 60;

function limitError() {
  return new ApiError(
    'subscription_limit',
    `This key already holds ${MAX_ACTIVE_PER_KEY} active subscriptions (webhooks and push-mirrors together); delete one first.`,
    { limit: MAX_ACTIVE_PER_KEY },
    { 'Retry-After': SUBSCRIPTION_LIMIT_RETRY_AFTER },
  );
}

export async function createSubscription(db: Pool, input: NewSubscription): Promise<SubscriptionRow> {
  return withTransaction(db, async (c) => {
    if ((await lockKeyAndCount(c, input.apiKeyId)) >= MAX_ACTIVE_PER_KEY) throw limitError();
    const { rows } = await c.query<SubscriptionRow>(
      `INSERT INTO subscriptions (public_id, api_key_id, org_name, kind, webhook_url, events, filter_states, filter_subjects, secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        newPublicId(),
        input.apiKeyId,
        input.orgName,
        input.kind,
        input.url,
        input.events,
        input.states,
        input.subjects,
        input.secret,
      ],
    );
    return rows[0];
  });
}

export async function listSubscriptions(db: Queryable, org: string): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE org_name = $1 AND deleted_at IS NULL ORDER BY created_at, id',
    [org],
  );
  return rows;
}

/** The org's subscription by its integer id (path text); 404 for unknown, deleted or another org's. */
export async function getSubscription(db: Queryable, org: string, rawId: string): Promise<SubscriptionRow> {
  const id = parseInt64(rawId);
  const { rows } =
    id === undefined
      ? { rows: [] }
      : await db.query<SubscriptionRow>(
          'SELECT * FROM subscriptions WHERE id = $1::bigint AND org_name = $2 AND deleted_at IS NULL',
          [id, org],
        );
  if (!rows[0]) throw new ApiError('not_found', `No subscription ${rawId}.`);
  return rows[0];
}

export function requireActive(s: SubscriptionRow): void {
  if (!s.active) {
    throw new ApiError(
      'subscription_inactive',
      `Subscription ${s.id} is inactive (${s.deactivated_reason ?? 'deactivated'}); reactivate it with POST /v1/webhooks/${s.id}/reactivate.`,
      {
        deactivated_reason: s.deactivated_reason,
      },
    );
  }
}

/** Soft delete: the row stays for the attempt log's foreign keys; open deliveries are cancelled. */
export async function deleteSubscription(db: Pool, s: SubscriptionRow): Promise<void> {
  await withTransaction(db, async (c) => {
    await c.query(
      `UPDATE subscriptions SET deleted_at = now(), active = false, updated_at = now(), deactivated_reason = coalesce(deactivated_reason, 'deleted') WHERE id = $1`,
      [s.id],
    );
    await c.query(
      `UPDATE deliveries SET status = 'cancelled', locked_until = NULL WHERE subscription_id = $1 AND status IN ('pending', 'in_flight')`,
      [s.id],
    );
  });
}

export async function rotateSecret(
  db: Queryable,
  s: SubscriptionRow,
  newSecret: string,
  overlapSeconds: number,
): Promise<SubscriptionRow> {
  const { rows } = await db.query<SubscriptionRow>(
    `UPDATE subscriptions SET previous_secret = secret, previous_secret_expires = now() + make_interval(secs => $3),
       secret = $2, updated_at = now() WHERE id = $1 RETURNING *`,
    [s.id, newSecret, overlapSeconds],
  );
  return rows[0];
}

/** Reactivation counts toward the cap like a create. Failed deliveries stay failed (use recover). */
export async function reactivate(db: Pool, s: SubscriptionRow): Promise<SubscriptionRow> {
  return withTransaction(db, async (c) => {
    if (s.active) return s;
    if ((await lockKeyAndCount(c, s.api_key_id)) >= MAX_ACTIVE_PER_KEY) throw limitError();
    const { rows } = await c.query<SubscriptionRow>(
      `UPDATE subscriptions SET active = true, deactivated_reason = NULL, deactivated_at = NULL, updated_at = now() WHERE id = $1 RETURNING *`,
      [s.id],
    );
    return rows[0];
  });
}

/** Secrets a delivery is signed with now: the current one, plus the previous one during overlap. */
export function liveSecrets(
  s: Pick<SubscriptionRow, 'secret' | 'previous_secret' | 'previous_secret_expires'>,
  now = new Date(),
): string[] {
  return s.previous_secret && s.previous_secret_expires && s.previous_secret_expires > now
    ? [s.secret, s.previous_secret]
    : [s.secret];
}
