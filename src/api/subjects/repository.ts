// SQL for raw subject labels.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { SubjectListRow } from './schemas.js';
import { likeContains, Where } from '../common/sql.js';

export interface SubjectFilters {
  stateId?: number;
  q?: string;
  limit: number;
}

/** By bill count descending; interface labels (bill-text, first-reading, ...) excluded. */
export async function listSubjects(db: Queryable, f: SubjectFilters): Promise<Static<typeof SubjectListRow>[]> {
  const w = new Where();
  w.add('NOT su.is_interface_label');
  if (f.stateId !== undefined) w.add(`su.state_id = ${w.p(f.stateId)}`);
  if (f.q !== undefined) w.add(`lower(su.subject_name) LIKE ${w.p(likeContains(f.q.toLowerCase()))}`);
  return (
    await db.query<Static<typeof SubjectListRow>>(
      `SELECT su.subject_id, su.subject_name, su.bill_count FROM subjects su ${w.sql()}
     ORDER BY su.bill_count DESC, su.subject_id LIMIT ${w.p(f.limit)}`,
      w.params,
    )
  ).rows;
}
