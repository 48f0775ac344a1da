// The one function every writer (seed, importers, simulator) records changes through, inside the
// same transaction as the data it describes. NOTIFY is only a wake-up for the relay: it carries no
// payload to trust, and a lost notification loses nothing (the relay reads rows by cursor).
import type { Queryable } from '../db/pool.js';

/**
 * Change reasons and their ids: LegiScan's ls_reason ids, so mirror receivers see familiar codes,
 * and TextDiff, ours alone (a bill's text change computed by the diff worker after the text
 * arrived), at 100, far from LegiScan's range so no receiver mistakes it for one of theirs; it is
 * never pushed to a mirror nor sent to webhooks (src/domain/events.ts), only listed in the feed and
 * the stream, so a copy re-fetches the bill.
 */
export const REASONS = {
  NewBill: 1,
  StatusChange: 2,
  Text: 20,
  Amendment: 21,
  Vote: 23,
  TextDiff: 100,
} as const;

export type ReasonName = keyof typeof REASONS;

export const REASON_NAMES: Record<number, ReasonName> = Object.fromEntries(
  Object.entries(REASONS).map(([k, v]) => [v, k]),
) as Record<number, ReasonName>;

export const NOTIFY_CHANNEL = 'lds_changes';

export interface ChangeInput {
  bill_id: number;
  state_id: number;
  reason: ReasonName;
  old_status?: number | null;
  new_status?: number | null;
  /** what changed, e.g. { text_id }, { roll_call_id }, { amendment_id }, { from_text_id, to_text_id } */
  detail?: Record<string, unknown>;
}

/** Inserts change-log rows and wakes the relay. Call inside the writer's transaction. */
export async function recordChanges(db: Queryable, changes: ChangeInput[]): Promise<number> {
  if (changes.length === 0) return 0;
  await db.query(
    `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, detail)
     SELECT * FROM unnest($1::int[], $2::smallint[], $3::smallint[], $4::smallint[], $5::smallint[], $6::jsonb[])`,
    [
      changes.map((c) => c.bill_id),
      changes.map((c) => c.state_id),
      changes.map((c) => REASONS[c.reason]),
      changes.map((c) => c.old_status ?? null),
      changes.map((c) => c.new_status ?? null),
      changes.map((c) => JSON.stringify(c.detail ?? {})),
    ],
  );
  await db.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`);
  return changes.length;
}
