// Committees: list, one committee, members, hearings.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.js';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { Int, ListOf, One, responses, Str } from '../common/schemas.js';
import { intIdOr404, PathIntId, text } from '../common/ids.js';
import { likeContains, Where } from '../common/sql.js';
import { stateIdOf } from '../reference/repository.js';
import { HEARING_COLUMNS, HEARING_FROM, HEARING_ORDER, HearingSchema } from '../hearings/schemas.js';

export const CommitteeSchema = Type.Object({
  committee_id: Int(), state_abbr: Str(), chamber: Str(), committee_name: Str(), committee_type: Str(), description: Str(),
  chair_name: Type.String({ description: 'empty when no chair is recorded' }),
  vice_chair_name: Type.String({ description: 'empty when no vice chair is recorded' }),
  members_count: Int(), website_url: Str(), meeting_schedule: Str(),
});
export const CommitteeMemberSchema = Type.Object({
  committee_id: Int(), people_id: Int(), name: Str(), party_id: Int(), party_name: Str(),
  member_role: Type.String({ description: 'chair, vice chair or member' }),
});

const COLUMNS = `c.committee_id, s.state_abbr::text AS state_abbr, c.chamber, c.committee_name, c.committee_type, c.description,
  coalesce((SELECT p.name FROM committee_members m JOIN people p ON p.people_id = m.people_id
            WHERE m.committee_id = c.committee_id AND m.member_role = 'chair' ORDER BY p.last_name, p.people_id LIMIT 1), '') AS chair_name,
  coalesce((SELECT p.name FROM committee_members m JOIN people p ON p.people_id = m.people_id
            WHERE m.committee_id = c.committee_id AND m.member_role = 'vice chair' ORDER BY p.last_name, p.people_id LIMIT 1), '') AS vice_chair_name,
  (SELECT count(*)::int FROM committee_members m WHERE m.committee_id = c.committee_id) AS members_count,
  c.website_url, c.meeting_schedule`;
const FROM = 'committees c JOIN states s ON s.state_id = c.state_id';

const ListQuery = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  chamber: Type.Optional(Type.String({ description: 'chamber name, case-insensitive exact match (e.g. House, Senate, Joint)' })),
  q: Type.Optional(Type.String({ description: 'case-insensitive substring of the committee name' })),
  limit: LimitParam(100, 500),
});
const Params = Type.Object({ committee_id: PathIntId });

async function committeeExists(app: FastifyInstance, id: number) {
  return (await app.dbRead.query('SELECT 1 FROM committees WHERE committee_id = $1', [id])).rowCount === 1;
}

export async function committeeRoutes(app: FastifyInstance) {
  const tags = ['Committees and hearings'];
  app.get('/v1/committees', {
    schema: {
      operationId: 'listCommittees', summary: 'Committees', tags, querystring: ListQuery,
      description: 'Ordered by state (state_abbr), chamber, committee_name. No offset.',
      response: responses(ListOf(CommitteeSchema), 400),
    },
  }, async (req) => {
    const qs = req.query as Type.Static<typeof ListQuery>;
    const state = parseState(qs.state);
    const w = new Where();
    if (state) w.add(`c.state_id = ${w.p(stateIdOf(state))}`);
    const chamber = text(qs.chamber);
    if (chamber) w.add(`lower(c.chamber) = lower(${w.p(chamber)})`);
    const q = text(qs.q);
    if (q) w.add(`lower(c.committee_name) LIKE ${w.p(likeContains(q.toLowerCase()))}`);
    const sql = `SELECT ${COLUMNS} FROM ${FROM} ${w.sql()} ORDER BY s.state_abbr, c.chamber, c.committee_name, c.committee_id
      LIMIT ${w.p(clampLimit(qs.limit, 100, 500))}`;
    return { data: (await app.dbRead.query(sql, w.params)).rows };
  });

  app.get('/v1/committees/:committee_id', {
    schema: { operationId: 'getCommittee', summary: 'One committee', tags, params: Params, response: responses(One(CommitteeSchema), 400, 404) },
  }, async (req) => {
    const { committee_id } = req.params as Type.Static<typeof Params>;
    const row = (await app.dbRead.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.committee_id = $1`, [intIdOr404(committee_id, 'committee')])).rows[0];
    if (!row) throw notFound(`No committee with id ${committee_id}.`);
    return { data: row };
  });

  app.get('/v1/committees/:committee_id/members', {
    schema: {
      operationId: 'listCommitteeMembers', summary: 'Members of a committee', tags, params: Params,
      description: 'Chair first, then vice chair, then members; by surname within a role.',
      response: responses(ListOf(CommitteeMemberSchema), 400, 404),
    },
  }, async (req) => {
    const id = intIdOr404((req.params as Type.Static<typeof Params>).committee_id, 'committee');
    const { rows } = await app.dbRead.query(
      `SELECT m.committee_id, m.people_id, p.name, p.party_id, coalesce(pa.party_name, p.party_name) AS party_name, m.member_role
       FROM committee_members m JOIN people p ON p.people_id = m.people_id LEFT JOIN parties pa ON pa.party_id = p.party_id
       WHERE m.committee_id = $1
       ORDER BY CASE m.member_role WHEN 'chair' THEN 0 WHEN 'vice chair' THEN 1 ELSE 2 END, p.last_name COLLATE name_sort, p.first_name COLLATE name_sort, p.last_name, p.first_name, p.people_id`, [id]);
    if (rows.length === 0 && !(await committeeExists(app, id))) throw notFound(`No committee with id ${id}.`);
    return { data: rows };
  });

  app.get('/v1/committees/:committee_id/hearings', {
    schema: {
      operationId: 'listCommitteeHearings', summary: "A committee's hearings", tags, params: Params,
      description: 'Most recent first, at most 100 rows. Unknown committee: 404 not_found.',
      response: responses(ListOf(HearingSchema), 400, 404),
    },
  }, async (req) => {
    const id = intIdOr404((req.params as Type.Static<typeof Params>).committee_id, 'committee');
    const { rows } = await app.dbRead.query(`SELECT ${HEARING_COLUMNS} FROM ${HEARING_FROM} WHERE h.committee_id = $1 ORDER BY ${HEARING_ORDER} LIMIT 100`, [id]);
    if (rows.length === 0 && !(await committeeExists(app, id))) throw notFound(`No committee with id ${id}.`);
    return { data: rows };
  });
}
