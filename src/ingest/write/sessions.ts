// Sessions arrive embedded in bills; written once per import run, updated only when different.
import type { Queryable } from '../../db/pool.js';

export interface SessionRow {
  session_id: number;
  state_id: number;
  year_start: number;
  year_end: number;
  special: number;
  session_tag: string;
  session_title: string;
  session_name: string;
  sine_die: number;
  prior: number;
  source: string;
  source_url?: string;
}

export async function upsertSession(db: Queryable, s: SessionRow): Promise<void> {
  await db.query(
    `INSERT INTO sessions (session_id, state_id, year_start, year_end, special, session_tag, session_title, session_name, sine_die, prior, source, source_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (session_id) DO UPDATE SET year_start = EXCLUDED.year_start, year_end = EXCLUDED.year_end, special = EXCLUDED.special,
       session_tag = EXCLUDED.session_tag, session_title = EXCLUDED.session_title, session_name = EXCLUDED.session_name,
       sine_die = EXCLUDED.sine_die, prior = EXCLUDED.prior, source_url = EXCLUDED.source_url, updated = now()
     WHERE (sessions.year_start, sessions.year_end, sessions.special, sessions.session_tag, sessions.session_title, sessions.session_name, sessions.sine_die, sessions.prior, sessions.source_url)
       IS DISTINCT FROM (EXCLUDED.year_start, EXCLUDED.year_end, EXCLUDED.special, EXCLUDED.session_tag, EXCLUDED.session_title, EXCLUDED.session_name, EXCLUDED.sine_die, EXCLUDED.prior, EXCLUDED.source_url)`,
    [
      s.session_id,
      s.state_id,
      s.year_start,
      s.year_end,
      s.special,
      s.session_tag,
      s.session_title,
      s.session_name,
      s.sine_die,
      s.prior,
      s.source,
      s.source_url ?? '',
    ],
  );
}
