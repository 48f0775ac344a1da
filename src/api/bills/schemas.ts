// Response rows of the bill endpoints, field for field as the spec's tables.
import { Type } from 'typebox';
import { DateStr, Int, Json, Nullable, Str, Timestamp } from '../common/schemas.js';

export const BillSchema = Type.Object({
  bill_id: Int(),
  state_id: Int(),
  state_abbr: Str(),
  session_id: Int(),
  bill_number: Str(),
  bill_type_id: Int(),
  bill_type_name: Str(),
  body_id: Int(),
  current_body_id: Int(),
  status_id: Type.Integer({ description: 'status ladder: 1 Introduced … 8 Chaptered' }),
  status_date: Nullable(DateStr()),
  title: Str(),
  description: Str(),
  state_url: Str(),
  updated: Timestamp(),
  created: Timestamp(),
  change_hash: Str(),
  content_hash: Str(),
  summary: Nullable(Str()),
  last_action: Nullable(Str()),
  completed: Nullable(Int()),
  pending_committee_id: Nullable(Int()),
});

export const SponsorRow = Type.Object({
  bill_id: Int(),
  people_id: Int(),
  name: Str(),
  first_name: Str(),
  last_name: Str(),
  party_id: Int(),
  party_name: Str(),
  district: Str(),
  sponsor_order: Int(),
  sponsor_type_id: Int(),
  sponsor_type_name: Str(),
});
export const HistoryRow = Type.Object({
  bill_id: Int(),
  history_step: Int(),
  history_date: Nullable(DateStr()),
  history_action: Str(),
  history_body_id: Int(),
  body_name: Str(),
  history_major: Int(),
});
export const TextRow = Type.Object({
  text_id: Int(),
  bill_id: Int(),
  bill_text_type_id: Int(),
  text_type: Str(),
  text_date: Nullable(DateStr()),
  size_bytes: Int(),
  word_count: Int(),
  state_url: Str(),
});
export const RollCallRow = Type.Object({
  roll_call_id: Int(),
  bill_id: Int(),
  roll_call_body_id: Int(),
  body: Str(),
  vote_date: Nullable(DateStr()),
  description: Str(),
  yea: Int(),
  nay: Int(),
  nv: Int(),
  absent: Int(),
  total: Int(),
  passed: Int(),
  state_url: Str(),
});
export const SubjectRow = Type.Object({ bill_id: Int(), subject_id: Int(), subject_name: Str() });
export const AmendmentRow = Type.Object({
  amendment_id: Int(),
  bill_id: Int(),
  adopted: Nullable(
    Int(),
    '1 adopted, 0 not. The spec types this as an int; it is null where the source does not publish the outcome ' +
      '(Congress bill files list amendments by number alone).',
  ),
  amendment_body_id: Int(),
  body: Str(),
  amendment_date: Nullable(
    DateStr(),
    'YYYY-MM-DD; null where the source publishes no date (Congress bill files); such rows sort last.',
  ),
  amendment_title: Str(),
  amendment_desc: Str(),
  amendment_mime_id: Nullable(
    Int(),
    'Document type of the amendment text. The spec types this as an int; it is null where no document is published.',
  ),
  amendment_size: Nullable(Int(), 'Bytes of the amendment document; null where no document is published.'),
  state_url: Str(),
});
export const ReferralRow = Type.Object({
  bill_id: Int(),
  committee_id: Int(),
  committee_name: Str(),
  referral_date: Nullable(
    DateStr(),
    'YYYY-MM-DD. The spec types this as a date; it is null only where the source records the referral ' +
      'without a date (rows stay in referral_step order). The demo corpus always carries one.',
  ),
  referral_step: Int(),
});
export const CalendarRow = Type.Object({
  bill_id: Int(),
  event_hash: Str(),
  event_type_id: Int(),
  event_type_name: Str(),
  event_date: Nullable(DateStr()),
  event_time: Str(),
  event_location: Str(),
  event_desc: Str(),
});
export const SupplementRow = Type.Object({
  supplement_id: Int(),
  bill_id: Int(),
  supplement_type_id: Int(),
  supplement_type: Str(),
  supplement_date: Nullable(DateStr()),
  title: Str(),
  description: Str(),
  state_url: Str(),
  supplement_mime_id: Int(),
  supplement_size: Int(),
});
export const SastRow = Type.Object({
  bill_id: Int(),
  sast_type_id: Int(),
  sast_type: Str(),
  sast_bill_id: Int(),
  sast_bill_number: Str(),
});
export const CitationRow = Type.Object({
  id: Int(),
  bill_id: Int(),
  citation_type: Str(),
  citation_number: Str(),
  catchline: Str(),
  bill_page: Str(),
  state_url: Str(),
  created: Timestamp(),
});
export const AnalysisRow = Type.Object({
  id: Int(),
  bill_id: Int(),
  analysis_type: Str(),
  analysis_title: Str(),
  author: Str(),
  analysis_date: Nullable(DateStr()),
  state_url: Str(),
  created: Timestamp(),
});

const textChangeFields = {
  from_text_id: Int(),
  to_text_id: Int(),
  from_type_id: Int(),
  to_type_id: Int(),
  from_created: Timestamp(),
  to_created: Timestamp(),
  added_chars: Int(),
  removed_chars: Int(),
  added_lines: Int(),
  removed_lines: Int(),
  similarity: Type.Number({ minimum: 0, maximum: 1 }),
  is_whitespace_only: Type.Boolean(),
  changed_sections: Json('section headings the change touched (array of strings)'),
  highlights: Json('a few short added/removed snippets: [{ op: "added" | "removed", text }]'),
  diff_truncated: Type.Boolean({ description: 'true when the unified diff was cut to keep it under 200 KB' }),
  computed_at: Timestamp(),
};
export const TextChangeRow = Type.Object(textChangeFields);
export const DiffSchema = Type.Object({ bill_id: Int(), ...textChangeFields, diff_unified: Str() });

/**
 * Each list sub-resource of a bill (GET /v1/bills/{id}/<path>) and the row it answers, in the
 * order `include=` embeds them: the one map the routes, the repository's row types and the parts
 * are built from.
 */
export const SUBRESOURCE_ROWS = {
  sponsors: SponsorRow,
  history: HistoryRow,
  texts: TextRow,
  votes: RollCallRow,
  subjects: SubjectRow,
  amendments: AmendmentRow,
  referrals: ReferralRow,
  calendar: CalendarRow,
  supplements: SupplementRow,
  sast: SastRow,
  citations: CitationRow,
  analyses: AnalysisRow,
};
