// Response rows of the votes endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { Int, Str } from '../common/schemas.js';

export const MemberVoteRow = Type.Object({
  people_id: Int(),
  name: Str(),
  party_name: Str(),
  district: Str(),
  vote: Type.String({ description: 'Yea, Nay, Not Voting or Absent' }),
});
