// Response rows of the committees endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { Int, Str } from '../common/schemas.js';

export const CommitteeSchema = Type.Object({
  committee_id: Int(),
  state_abbr: Str(),
  chamber: Str(),
  committee_name: Str(),
  committee_type: Str(),
  description: Str(),
  chair_name: Type.String({ description: 'empty when no chair is recorded' }),
  vice_chair_name: Type.String({ description: 'empty when no vice chair is recorded' }),
  members_count: Int(),
  website_url: Str(),
  meeting_schedule: Str(),
});
export const CommitteeMemberSchema = Type.Object({
  committee_id: Int(),
  people_id: Int(),
  name: Str(),
  party_id: Int(),
  party_name: Str(),
  member_role: Type.String({ description: 'chair, vice chair or member' }),
});
