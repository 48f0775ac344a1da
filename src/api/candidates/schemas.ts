// Response rows of the candidates endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { DateStr, Int, Json, Nullable, Str } from '../common/schemas.js';

const listFields = {
  id: Type.Integer({ description: '64-bit id' }),
  name: Str(),
  party: Str(),
  photo_url: Str(),
  people_id: Nullable(
    Type.Integer({ description: 'the linked legislator (64-bit), only where linked by an external id' }),
  ),
  fec_id: Nullable(Str()),
  office: Nullable(Str()),
  state: Nullable(Str()),
  district: Nullable(Str()),
  cycle: Nullable(Int()),
  incumbent_challenge: Nullable(Str()),
  bioguide_id: Nullable(Str()),
};
export const CandidateSchema = Type.Object(listFields);
export const CandidacySchema = Type.Object({
  contest_id: Int(),
  party: Str(),
  is_incumbent: Type.Boolean(),
  withdrew: Type.Boolean(),
  votes: Int(),
  vote_pct: Type.Number(),
  is_winner: Type.Boolean(),
  header: Str(),
  election_date: DateStr(),
  office_name: Str(),
  office_level: Str(),
  chamber: Str(),
  district: Str(),
  election_year: Int(),
  race_state: Str(),
});
export const CandidateDetailSchema = Type.Object({
  ...listFields,
  bio: Str(),
  website: Str(),
  socials: Json('profile links by network, e.g. { "twitter": "..." }'),
  bp_photo_url: Str(),
  bp_url: Str(),
  candidacies: Type.Array(CandidacySchema, { description: 'newest election first' }),
});
