// A Congress as a session: the nth Congress sits from January 3 of its first year to January 3
// two years later (20th Amendment), so its dates are known and a past Congress is ended.
import type { Queryable } from '../../db/pool.js';
import { nextId } from '../write/ids.js';

export function congressDates(congress: number): { year_start: number; year_end: number; start: string; end: string } {
  const year_start = 1787 + congress * 2;
  return { year_start, year_end: year_start + 1, start: `${year_start}-01-03`, end: `${year_start + 2}-01-03` };
}

const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** The session of a Congress, created or brought up to date (ended once its term is over). */
export async function congressSession(db: Queryable, congress: number, now = new Date()): Promise<number> {
  const d = congressDates(congress);
  const ended = now.toISOString().slice(0, 10) >= d.end ? 1 : 0;
  const title = `${ordinal(congress)} Congress`;
  const url = `https://www.congress.gov/congresses/${ordinal(congress)}-congress`;
  const found =
    (
      await db.query<{ session_id: number }>(
        `UPDATE sessions SET year_start = $2, year_end = $3, session_title = $4, session_name = $4, sine_die = $5::smallint, session_start_date = $6::date,
       expected_sine_die_date = $7::date, actual_sine_die_date = CASE WHEN $5::smallint = 1 THEN $7::date END, prior = $5::smallint, source_url = $8, updated = now()
     WHERE source = 'congress' AND session_tag = $1
       AND (year_start, year_end, session_title, sine_die, session_start_date, expected_sine_die_date, source_url) IS DISTINCT FROM ($2, $3, $4, $5::smallint, $6::date, $7::date, $8)
     RETURNING session_id`,
        [String(congress), d.year_start, d.year_end, title, ended, d.start, d.end, url],
      )
    ).rows[0] ??
    (
      await db.query<{ session_id: number }>(
        `SELECT session_id FROM sessions WHERE source = 'congress' AND session_tag = $1`,
        [String(congress)],
      )
    ).rows[0];
  if (found) return found.session_id;
  const id = await nextId(db);
  await db.query(
    `INSERT INTO sessions (session_id, state_id, year_start, year_end, session_tag, session_title, session_name, sine_die, prior, session_start_date,
       expected_sine_die_date, actual_sine_die_date, source_url, source)
     VALUES ($1, 52, $2, $3, $4, $5, $5, $6::smallint, $6::smallint, $7::date, $8::date, CASE WHEN $6::smallint = 1 THEN $8::date END, $9, 'congress')`,
    [id, d.year_start, d.year_end, String(congress), title, ended, d.start, d.end, url],
  );
  return id;
}
