// Reading stamped changes as bus events. Shared by the relay (publishing), the stream hub (gap
// fill) and stream resume, so every path formats the public timestamp the same way: in SQL, with
// microseconds (a JS Date would drop them and break cursor equality).
import type { Queryable } from '../db/pool.js';
import type { Bus } from '../bus/types.js';
import type { ChangeEvent } from '../domain/change-event.js';

export type { ChangeEvent } from '../domain/change-event.js';

/** The bus as the change pipeline uses it. */
export type ChangeBus = Bus<ChangeEvent>;

/** ISO 8601 UTC with microseconds, e.g. 2026-11-22T02:10:11.123456Z; fixed width, so it sorts as text. */
// Parenthesised so an expression (e.g. clock_timestamp() - interval '5 minutes') converts as a whole.
export const isoUs = (col: string) => `to_char((${col}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const EVENT_COLUMNS = `c.change_id, c.seq, ${isoUs('c.changed_at')} AS changed_at, c.bill_id,
  coalesce(b.bill_number, '') AS bill_number, s.state_abbr AS state, coalesce(b.title, '') AS title,
  c.reason_id::int AS reason_id, r.reason_name AS reason, c.old_status::int AS old_status,
  c.new_status::int AS new_status, c.detail`;

/**
 * The joins EVENT_COLUMNS reads, over change rows named `c` from `source` (the change log, or the
 * relay's just-stamped rows). LEFT JOIN bills: a change row stays publishable even if its bill row
 * is missing or was removed.
 */
export const eventFrom = (source: string) => `${source} c
  JOIN states s ON s.state_id = c.state_id
  JOIN change_reasons r ON r.reason_id = c.reason_id
  LEFT JOIN bills b ON b.bill_id = c.bill_id`;

export const EVENT_FROM = eventFrom('changes');

/** Stamped changes with seq in (afterSeq, uptoSeq], in public order. */
export async function eventsBySeq(
  db: Queryable,
  afterSeq: number,
  limit: number,
  uptoSeq?: number,
): Promise<ChangeEvent[]> {
  const { rows } = await db.query<ChangeEvent>(
    `SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}
     WHERE c.seq > $1 AND ($3::bigint IS NULL OR c.seq <= $3) ORDER BY c.seq LIMIT $2`,
    [afterSeq, limit, uptoSeq ?? null],
  );
  return rows;
}

export interface EventFilter {
  /** state codes; empty or undefined = all */
  states?: string[];
  reasonId?: number;
}

/** Stamped changes after a cursor (any timestamp PostgreSQL reads), oldest first, matching the filter. */
export async function eventsAfter(
  db: Queryable,
  cursor: string,
  filter: EventFilter,
  limit: number,
): Promise<ChangeEvent[]> {
  const { rows } = await db.query<ChangeEvent>(
    `SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}
     WHERE c.changed_at > $1::timestamptz
       AND ($2::text[] IS NULL OR s.state_abbr = ANY ($2::text[]))
       AND ($3::int IS NULL OR c.reason_id = $3)
     ORDER BY c.changed_at LIMIT $4`,
    [cursor, filter.states?.length ? filter.states : null, filter.reasonId ?? null, limit],
  );
  return rows;
}

/** A cursor in the canonical public form (so it compares as text with changed_at values). */
export async function canonicalCursor(db: Queryable, cursor: string): Promise<string> {
  const { rows } = await db.query<{ c: string }>(`SELECT ${isoUs('$1::timestamptz')} AS c`, [cursor]);
  return rows[0].c;
}
