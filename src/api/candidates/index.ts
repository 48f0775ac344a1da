// GET /v1/candidates and /v1/candidates/{id}.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../../http/errors.js';
import { checkOffset, clampLimit, LimitParam, OffsetParam, pagination, PaginationSchema } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { DateStr, Int, Json, Nullable, One, responses, Str } from '../common/schemas.js';
import { int64IdOr404, PathInt64Id, text } from '../common/ids.js';
import { likeContains, Where } from '../common/sql.js';

const listFields = {
  id: Type.Integer({ description: '64-bit id' }), name: Str(), party: Str(), photo_url: Str(),
  people_id: Nullable(Type.Integer({ description: 'the linked legislator (64-bit), only where linked by an external id' })),
  fec_id: Nullable(Str()), office: Nullable(Str()), state: Nullable(Str()), district: Nullable(Str()), cycle: Nullable(Int()),
  incumbent_challenge: Nullable(Str()), bioguide_id: Nullable(Str()),
};
export const CandidateSchema = Type.Object(listFields);
export const CandidacySchema = Type.Object({
  contest_id: Int(), party: Str(), is_incumbent: Type.Boolean(), withdrew: Type.Boolean(), votes: Int(), vote_pct: Type.Number(),
  is_winner: Type.Boolean(), header: Str(), election_date: DateStr(), office_name: Str(), office_level: Str(), chamber: Str(),
  district: Str(), election_year: Int(), race_state: Str(),
});
export const CandidateDetailSchema = Type.Object({
  ...listFields, bio: Str(), website: Str(), socials: Json('profile links by network, e.g. { "twitter": "..." }'), bp_photo_url: Str(),
  bp_url: Str(), candidacies: Type.Array(CandidacySchema, { description: 'newest election first' }),
});

const LIST_COLUMNS = 'c.id, c.name, c.party, c.photo_url, c.people_id, c.fec_id, c.office, c.state, c.district, c.cycle, c.incumbent_challenge, c.bioguide_id';

const Query = Type.Object({
  state: Type.Optional(Type.String({ description: 'two-letter code (DC, US accepted); 400 otherwise. Matches only candidates with an FEC record.' })),
  office: Type.Optional(Type.String({ description: 'case-insensitive substring of the FEC office' })),
  cycle: Type.Optional(Type.String({ description: 'four-digit election cycle year; 400 otherwise' })),
  fec_id: Type.Optional(Type.String({ description: 'FEC candidate id, exact' })),
  bioguide: Type.Optional(Type.String({ description: 'Bioguide id, exact' })),
  limit: LimitParam(50, 500),
  offset: OffsetParam,
});
const Params = Type.Object({ id: PathInt64Id });

export async function candidateRoutes(app: FastifyInstance) {
  const tags = ['Candidates'];
  app.get('/v1/candidates', {
    schema: {
      operationId: 'listCandidates', summary: 'Candidates', tags, querystring: Query,
      description: 'Ordered by name as people expect: case-, accent- and punctuation-insensitive (ICU root collation; "de la Cruz" files under D), then id. Filters combine.',
      response: responses(Type.Object({ data: Type.Array(CandidateSchema), pagination: PaginationSchema }), 400),
    },
  }, async (req) => {
    const qs = req.query as Type.Static<typeof Query>;
    const limit = clampLimit(qs.limit, 50, 500);
    const offset = checkOffset(qs.offset);
    const w = new Where();
    const state = parseState(qs.state);
    if (state) w.add(`c.state = ${w.p(state)}`);
    const office = text(qs.office);
    if (office) w.add(`c.office ILIKE ${w.p(likeContains(office))}`);
    const cycle = text(qs.cycle);
    if (cycle !== undefined) {
      if (!/^\d{4}$/.test(cycle)) throw badRequest(`Parameter 'cycle' must be a four-digit year; got '${qs.cycle}'.`, 'cycle');
      w.add(`c.cycle = ${w.p(Number(cycle))}`);
    }
    const fec = text(qs.fec_id);
    if (fec) w.add(`c.fec_id = ${w.p(fec)}`);
    const bioguide = text(qs.bioguide);
    if (bioguide) w.add(`c.bioguide_id = ${w.p(bioguide)}`);
    const { rows } = await app.dbRead.query(
      `SELECT ${LIST_COLUMNS} FROM candidates c ${w.sql()} ORDER BY c.name COLLATE name_sort, c.name, c.id LIMIT ${w.p(limit)} OFFSET ${w.p(offset)}`, w.params);
    return { data: rows, pagination: pagination(limit, offset, rows.length) };
  });

  app.get('/v1/candidates/:id', {
    schema: {
      operationId: 'getCandidate', summary: 'One candidate with candidacies', tags, params: Params,
      description: 'id is a 64-bit integer; non-integer 400, unknown 404. candidacies are newest election first.',
      response: responses(One(CandidateDetailSchema), 400, 404),
    },
  }, async (req) => {
    const raw = (req.params as Type.Static<typeof Params>).id;
    const id = int64IdOr404(raw, 'candidate');
    const row = (await app.dbRead.query(
      `SELECT ${LIST_COLUMNS}, c.bio, c.website, c.socials, c.bp_photo_url, c.bp_url,
         coalesce((SELECT json_agg(json_build_object('contest_id', d.contest_id, 'party', d.party, 'is_incumbent', d.is_incumbent,
             'withdrew', d.withdrew, 'votes', d.votes, 'vote_pct', d.vote_pct, 'is_winner', d.is_winner, 'header', d.header,
             'election_date', d.election_date, 'office_name', d.office_name, 'office_level', d.office_level, 'chamber', d.chamber,
             'district', d.district, 'election_year', d.election_year, 'race_state', d.race_state)
             ORDER BY d.election_date DESC, d.contest_id DESC)
           FROM candidacies d WHERE d.candidate_id = c.id), '[]') AS candidacies
       FROM candidates c WHERE c.id = $1::bigint`, [id])).rows[0];
    if (!row) throw notFound(`No candidate with id ${raw}.`);
    return { data: row };
  });
}
