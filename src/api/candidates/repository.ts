// SQL for candidates. Candidate ids are bigint and bound as text ($n::bigint) so they stay exact.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { CandidateDetailSchema, CandidateSchema } from './schemas.js';
import { likeContains, Where } from '../common/sql.js';

const LIST_COLUMNS =
  'c.id, c.name, c.party, c.photo_url, c.people_id, c.fec_id, c.office, c.state, c.district, c.cycle, c.incumbent_challenge, c.bioguide_id';

export interface CandidateFilters {
  state?: string;
  office?: string;
  cycle?: number;
  fecId?: string;
  bioguide?: string;
  limit: number;
  offset: number;
}

/** By name as people expect (name_sort collation), then id. */
export async function listCandidates(db: Queryable, f: CandidateFilters): Promise<Static<typeof CandidateSchema>[]> {
  const w = new Where();
  // State, office and cycle are FEC facts (spec): a candidate without an FEC record never matches
  // them, even where a linked legislator or a profile filled those columns.
  if (f.state !== undefined || f.office !== undefined || f.cycle !== undefined) w.add(`c.fec_id <> ''`);
  if (f.state !== undefined) w.add(`c.state = ${w.p(f.state)}`);
  if (f.office !== undefined) w.add(`c.office ILIKE ${w.p(likeContains(f.office))}`);
  if (f.cycle !== undefined) w.add(`c.cycle = ${w.p(f.cycle)}`);
  if (f.fecId !== undefined) w.add(`c.fec_id = ${w.p(f.fecId)}`);
  if (f.bioguide !== undefined) w.add(`c.bioguide_id = ${w.p(f.bioguide)}`);
  return (
    await db.query<Static<typeof CandidateSchema>>(
      `SELECT ${LIST_COLUMNS} FROM candidates c ${w.sql()} ORDER BY c.name COLLATE name_sort, c.name, c.id LIMIT ${w.p(f.limit)} OFFSET ${w.p(f.offset)}`,
      w.params,
    )
  ).rows;
}

/** One candidate with candidacies, newest election first. */
export async function getCandidate(
  db: Queryable,
  id: string,
): Promise<Static<typeof CandidateDetailSchema> | undefined> {
  return (
    await db.query<Static<typeof CandidateDetailSchema>>(
      `SELECT ${LIST_COLUMNS}, c.bio, c.website, c.socials, c.bp_photo_url, c.bp_url,
       coalesce((SELECT json_agg(json_build_object('contest_id', d.contest_id, 'party', d.party, 'is_incumbent', d.is_incumbent,
           'withdrew', d.withdrew, 'votes', d.votes, 'vote_pct', d.vote_pct, 'is_winner', d.is_winner, 'header', d.header,
           'election_date', d.election_date, 'office_name', d.office_name, 'office_level', d.office_level, 'chamber', d.chamber,
           'district', d.district, 'election_year', d.election_year, 'race_state', d.race_state)
           ORDER BY d.election_date DESC, d.contest_id DESC)
         FROM candidacies d WHERE d.candidate_id = c.id), '[]') AS candidacies
     FROM candidates c WHERE c.id = $1::bigint`,
      [id],
    )
  ).rows[0];
}
