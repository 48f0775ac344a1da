// The change feed's read (GET /v1/changes): rows and relay_state.high_water in ONE statement (one
// snapshot), only stamped rows with since < changed_at <= high_water, oldest first. The joins are
// the shared event projection's (events.ts), so the feed and the bus events read a change alike.
import type { Queryable } from '../db/pool.js';
import { EVENT_FROM, isoUs } from './events.js';

export interface ChangeFeedRow {
  bill_id: number;
  bill_number: string;
  state_abbr: string;
  title: string;
  reason_id: number;
  reason_name: string;
  changed_at: string;
}

export interface ChangeFeedQuery {
  /** exclusive lower bound (any timestamp PostgreSQL reads); one hour ago when undefined */
  since?: string;
  /** state codes; undefined = all */
  states?: string[];
  reasonId?: number;
  limit: number;
}

/** The effective since, the high water and up to `limit` rows after since, oldest first (public timestamps). */
export async function changesPage(
  db: Queryable,
  q: ChangeFeedQuery,
): Promise<{ since: string; highWater: string; rows: ChangeFeedRow[] }> {
  const { rows } = await db.query<Partial<ChangeFeedRow> & { since: string; high_water: string }>(
    `WITH rs AS (SELECT high_water FROM relay_state WHERE id = 1),
          lo AS (SELECT coalesce($1::timestamptz, now() - interval '1 hour') AS since)
     SELECT ${isoUs('lo.since')} AS since, ${isoUs('rs.high_water')} AS high_water, p.*
     FROM rs CROSS JOIN lo
     LEFT JOIN LATERAL (
       SELECT c.bill_id, coalesce(b.bill_number, '') AS bill_number, s.state_abbr::text AS state_abbr,
              coalesce(b.title, '') AS title, c.reason_id::int AS reason_id, r.reason_name,
              ${isoUs('c.changed_at')} AS changed_at
       FROM ${EVENT_FROM}
       WHERE c.changed_at > lo.since AND c.changed_at <= rs.high_water
         AND ($2::text[] IS NULL OR s.state_abbr = ANY($2::text[]))
         AND ($3::int IS NULL OR c.reason_id = $3)
       ORDER BY c.changed_at
       LIMIT $4
     ) p ON true`,
    [q.since ?? null, q.states ?? null, q.reasonId ?? null, q.limit],
  );
  // the LEFT JOIN gives one row of nulls when nothing matched
  const found = rows.filter(
    (r): r is ChangeFeedRow & { since: string; high_water: string } =>
      r.changed_at !== null && r.changed_at !== undefined,
  );
  return {
    since: rows[0].since,
    highWater: rows[0].high_water,
    rows: found.map((r) => ({
      bill_id: r.bill_id,
      bill_number: r.bill_number,
      state_abbr: r.state_abbr,
      title: r.title,
      reason_id: r.reason_id,
      reason_name: r.reason_name,
      changed_at: r.changed_at,
    })),
  };
}
