// The deliveries' SQL for the API: the attempt log, replay of one delivery, recover since a time,
// and the bill a test delivery shows. Queueing is enqueue.ts's; claiming and outcomes the workers'.
import type { Queryable } from '../../db/pool.js';
import { ApiError } from '../../http/errors.js';
import type { BillSnapshot } from './events.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

interface Row {
  id: number;
  public_id: string;
  event_type: string;
  payload: { id?: string };
  bill_id: number | null;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  attempt_log: {
    attempt: number;
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    next_attempt_at: string | null;
  }[];
}

const SELECT = `SELECT d.id, d.public_id, d.event_type, d.payload, d.bill_id, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error,
   d.created_at, d.delivered_at,
   coalesce((SELECT json_agg(json_build_object('attempt', a.attempt,
       'started_at', to_char(a.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'duration_ms', a.duration_ms,
       'status_code', a.status_code, 'error', a.error,
       'next_attempt_at', to_char(a.next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY a.attempt)
     FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
 FROM deliveries d`;

function shape(r: Row) {
  return {
    id: r.public_id,
    event_type: r.event_type,
    event_id: typeof r.payload?.id === 'string' ? r.payload.id : null,
    bill_id: r.bill_id,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' || r.status === 'in_flight' ? iso(r.next_attempt_at) : null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: r.created_at.toISOString(),
    delivered_at: iso(r.delivered_at),
    attempt_log: r.attempt_log,
  };
}

export async function listDeliveries(
  db: Queryable,
  subscriptionId: number,
  status: string | undefined,
  limit: number,
  offset: number,
) {
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE d.subscription_id = $1 AND ($2::text IS NULL OR d.status = $2) ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
    [subscriptionId, status ?? null, limit, offset],
  );
  return rows.map(shape);
}

/** Queues one delivery again (same webhook-id); its retry schedule restarts. An in-flight one is left alone. */
export async function replayDelivery(db: Queryable, subscriptionId: number, publicId: string) {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE deliveries SET status = CASE WHEN status = 'in_flight' THEN status ELSE 'pending' END,
       attempt_base = CASE WHEN status = 'in_flight' THEN attempt_base ELSE attempts END,
       next_attempt_at = CASE WHEN status = 'in_flight' THEN next_attempt_at ELSE now() END,
       is_test = false
     WHERE subscription_id = $1 AND public_id = $2 RETURNING id`,
    [subscriptionId, publicId],
  );
  if (!rows[0]) throw new ApiError('not_found', `No delivery ${publicId} for this subscription.`);
  const { rows: out } = await db.query<Row>(`${SELECT} WHERE d.id = $1`, [rows[0].id]);
  return shape(out[0]);
}

export async function recoverFailed(
  db: Queryable,
  subscriptionId: number,
  since: string,
  until: string | undefined,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE deliveries SET status = 'pending', attempt_base = attempts, next_attempt_at = now()
     WHERE subscription_id = $1 AND status = 'failed' AND created_at >= $2::timestamptz AND ($3::timestamptz IS NULL OR created_at < $3::timestamptz)`,
    [subscriptionId, since, until ?? null],
  );
  return rowCount ?? 0;
}

/** The most recently updated bill, as a test delivery's sample (undefined on an empty database). */
export async function latestBill(db: Queryable): Promise<BillSnapshot | undefined> {
  const { rows } = await db.query<BillSnapshot>(
    `SELECT b.bill_id, s.state_abbr AS state, b.bill_number, b.title, b.status_id, b.status_date::text AS status_date,
            to_char(b.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated
     FROM bills b JOIN states s USING (state_id) ORDER BY b.updated DESC, b.bill_id DESC LIMIT 1`,
  );
  return rows[0];
}
