// SQL for /v1/hearings (a committee's hearings are in committees/repository.ts, on the same columns).
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { HearingSchema } from './schemas.js';
import { Where } from '../common/sql.js';
import { HEARING_COLUMNS, HEARING_FROM, HEARING_ORDER } from './schemas.js';

export interface HearingFilters {
  stateId?: number;
  /** ISO 8601 timestamp: hearings on or after its UTC date */
  since?: string;
  limit: number;
}

export async function listHearings(db: Queryable, f: HearingFilters): Promise<Static<typeof HearingSchema>[]> {
  const w = new Where();
  if (f.stateId !== undefined) w.add(`h.state_id = ${w.p(f.stateId)}`);
  // hearing_date is a calendar date: a timestamp selects hearings on or after its UTC date.
  if (f.since !== undefined) w.add(`h.hearing_date >= (${w.p(f.since)}::timestamptz AT TIME ZONE 'UTC')::date`);
  const sql = `SELECT ${HEARING_COLUMNS} FROM ${HEARING_FROM} ${w.sql()} ORDER BY ${HEARING_ORDER} LIMIT ${w.p(f.limit)}`;
  return (await db.query<Static<typeof HearingSchema>>(sql, w.params)).rows;
}
