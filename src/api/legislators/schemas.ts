// Response rows of the legislator endpoints.
import { Type } from 'typebox';
import { DateStr, Int, Nullable, Str, Timestamp } from '../common/schemas.js';

export const LegislatorSchema = Type.Object({
  people_id: Type.Integer({ description: '64-bit id' }),
  state_id: Int(),
  state_abbr: Str(),
  role_id: Int(),
  chamber: Str(),
  party_id: Int(),
  party_name: Str(),
  name: Str(),
  first_name: Str(),
  middle_name: Str(),
  last_name: Str(),
  suffix: Str(),
  nickname: Str(),
  district: Str(),
  ballotpedia: Str(),
  followthemoney_eid: Str(),
  votesmart_id: Str(),
  opensecrets_id: Str(),
  updated: Timestamp(),
});

export const LegislatorVoteRow = Type.Object({
  roll_call_id: Int(),
  vote_id: Type.Integer({ description: "this member's vote: 1 Yea, 2 Nay, 3 Not Voting, 4 Absent" }),
  vote_name: Str(),
  roll_call_date: Nullable(DateStr()),
  body_id: Int(),
  roll_call_desc: Str(),
  yea: Int(),
  nay: Int(),
  nv: Int(),
  absent: Int(),
  total: Int(),
  passed: Int(),
  bill_id: Int(),
  bill_number: Str(),
  title: Str(),
  state_abbr: Str(),
});

export const SponsorshipRow = Type.Object({
  sponsor_type_id: Type.Integer({ description: '1 primary, 2 cosponsor' }),
  sponsor_order: Int(),
  bill_id: Int(),
  bill_number: Str(),
  title: Str(),
  description: Str(),
  status: Type.Integer({ description: 'bill status_id on the ladder' }),
  status_date: Nullable(DateStr()),
  state_abbr: Str(),
});
