// Jurisdictions and sessions.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { SessionSchema, StateSchema } from './schemas.js';

export async function listStates(db: Queryable): Promise<Static<typeof StateSchema>[]> {
  return (
    await db.query<Static<typeof StateSchema>>(
      'SELECT state_id, state_abbr::text AS state_abbr, state_name, capitol FROM states ORDER BY state_abbr',
    )
  ).rows;
}

export async function listSessions(
  db: Queryable,
  stateId: number | undefined,
  limit: number,
): Promise<Static<typeof SessionSchema>[]> {
  const params: unknown[] = [limit];
  let where = '';
  if (stateId !== undefined) {
    params.push(stateId);
    where = 'WHERE se.state_id = $2';
  }
  const sql = `SELECT se.session_id, se.state_id, st.state_abbr::text AS state_abbr, se.year_start, se.year_end, se.special,
      se.session_tag, se.session_title, se.session_name, se.sine_die, se.session_start_date, se.actual_sine_die_date,
      se.expected_sine_die_date, se.prefile, se.prior, se.source_url
    FROM sessions se JOIN states st ON st.state_id = se.state_id ${where}
    ORDER BY se.year_start DESC, se.session_id DESC LIMIT $1`;
  return (await db.query<Static<typeof SessionSchema>>(sql, params)).rows;
}
