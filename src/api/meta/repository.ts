// SQL of the meta snapshots: per-state coverage and per-state freshness.
import type { Queryable } from '../../db/pool.js';

// Per-bill counts of votes, texts and sponsors joined to bills and grouped by state: one aggregate query.
const COVERAGE_SQL = `
WITH v AS (SELECT bill_id, count(*) AS n FROM roll_calls GROUP BY bill_id),
     t AS (SELECT bill_id, count(*) AS n FROM bill_texts GROUP BY bill_id),
     sp AS (SELECT bill_id, count(*) AS n FROM bill_sponsors GROUP BY bill_id),
     per AS (
       SELECT b.state_id, count(*) AS bills,
              count(v.bill_id) AS with_votes, count(t.bill_id) AS with_texts, count(sp.bill_id) AS with_sponsors,
              coalesce(sum(v.n), 0) AS votes, coalesce(sum(t.n), 0) AS texts, coalesce(sum(sp.n), 0) AS sponsors
       FROM bills b
       LEFT JOIN v ON v.bill_id = b.bill_id
       LEFT JOIN t ON t.bill_id = b.bill_id
       LEFT JOIN sp ON sp.bill_id = b.bill_id
       GROUP BY b.state_id)
SELECT s.state_abbr AS state,
       coalesce(per.bills, 0)::int AS bills,
       coalesce(per.with_votes, 0)::int AS with_votes, coalesce(per.with_texts, 0)::int AS with_texts,
       coalesce(per.with_sponsors, 0)::int AS with_sponsors,
       coalesce(per.votes, 0)::bigint AS votes, coalesce(per.texts, 0)::bigint AS texts, coalesce(per.sponsors, 0)::bigint AS sponsors,
       EXISTS (SELECT 1 FROM sessions ss WHERE ss.state_id = s.state_id AND ss.sine_die = 0
               AND ss.year_end >= extract(year FROM now())::int) AS live
FROM states s LEFT JOIN per ON per.state_id = s.state_id
ORDER BY s.state_abbr`;

export interface CoverageRow {
  state: string;
  bills: number;
  with_votes: number;
  with_texts: number;
  with_sponsors: number;
  votes: string;
  texts: string;
  sponsors: string;
  live: boolean;
}

export async function coverageRows(db: Queryable): Promise<CoverageRow[]> {
  return (await db.query<CoverageRow>(COVERAGE_SQL)).rows;
}

// Per state, index lookups for the newest bill update and change and a range count of the last 24
// hours of changes, so it stays cheap on a million-bill corpus.
const STATUS_SQL = `
SELECT s.state_abbr AS state, s.state_name,
       b.updated AS last_bill_update, c.changed_at AS last_change,
       (SELECT count(*)::int FROM changes x WHERE x.state_id = s.state_id AND x.changed_at > now() - interval '24 hours') AS changes_24h,
       EXISTS (SELECT 1 FROM sessions ss WHERE ss.state_id = s.state_id AND ss.sine_die = 0
               AND ss.year_end >= extract(year FROM now())::int) AS session_in_progress
FROM states s
LEFT JOIN LATERAL (SELECT updated FROM bills WHERE state_id = s.state_id ORDER BY updated DESC LIMIT 1) b ON true
LEFT JOIN LATERAL (SELECT changed_at FROM changes WHERE state_id = s.state_id AND changed_at IS NOT NULL ORDER BY changed_at DESC LIMIT 1) c ON true
ORDER BY s.state_abbr`;

export interface StatusRow {
  state: string;
  state_name: string;
  last_bill_update: Date | null;
  last_change: Date | null;
  changes_24h: number;
  session_in_progress: boolean;
}

export async function statusRows(db: Queryable): Promise<StatusRow[]> {
  return (await db.query<StatusRow>(STATUS_SQL)).rows;
}
