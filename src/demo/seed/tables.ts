// The COPY buffers of every table the corpus fills, with their column lists in one place.
import { CopyBuffer } from './copy.js';
import { COMMITTEE_COLUMNS, COMMITTEE_MEMBER_COLUMNS } from './committees.js';
import { PEOPLE_COLUMNS } from './people.js';
import { SESSION_COLUMNS } from './sessions.js';
import { SUBJECT_COLUMNS, SUBJECT_TOPIC_COLUMNS } from './subjects.js';

export function referenceBuffers() {
  return {
    sessions: new CopyBuffer('sessions', SESSION_COLUMNS),
    people: new CopyBuffer('people', PEOPLE_COLUMNS),
    committees: new CopyBuffer('committees', COMMITTEE_COLUMNS),
    committee_members: new CopyBuffer('committee_members', COMMITTEE_MEMBER_COLUMNS),
    subjects: new CopyBuffer('subjects', SUBJECT_COLUMNS),
    subject_topics: new CopyBuffer('subject_topics', SUBJECT_TOPIC_COLUMNS),
  };
}

/** Buffers for one batch of bills, in the order they load (parents before children). */
export function billBuffers() {
  return {
    bills: new CopyBuffer('bills', ['bill_id', 'state_id', 'session_id', 'bill_number', 'bill_number_key', 'bill_type_id', 'body_id', 'current_body_id',
      'status_id', 'status_date', 'title', 'description', 'state_url', 'url', 'updated', 'created', 'change_hash', 'content_hash', 'summary', 'last_action',
      'last_action_date', 'completed', 'pending_committee_id', 'subject_names', 'external_ids', 'source']),
    bill_sponsors: new CopyBuffer('bill_sponsors', ['bill_id', 'people_id', 'sponsor_order', 'sponsor_type_id', 'committee_sponsor', 'committee_id']),
    bill_history: new CopyBuffer('bill_history', ['bill_id', 'history_step', 'history_date', 'history_action', 'history_body_id', 'history_major']),
    bill_texts: new CopyBuffer('bill_texts', ['text_id', 'bill_id', 'bill_text_type_id', 'text_date', 'mime_id', 'size_bytes', 'word_count', 'state_url',
      'text_hash', 'content', 'created']),
    roll_calls: new CopyBuffer('roll_calls', ['roll_call_id', 'bill_id', 'roll_call_body_id', 'vote_date', 'description', 'yea', 'nay', 'nv', 'absent',
      'total', 'passed', 'state_url', 'created']),
    roll_call_votes: new CopyBuffer('roll_call_votes', ['roll_call_id', 'people_id', 'vote_id']),
    bill_subjects: new CopyBuffer('bill_subjects', ['bill_id', 'subject_id']),
    bill_topics: new CopyBuffer('bill_topics', ['bill_id', 'topic_id']),
    amendments: new CopyBuffer('amendments', ['amendment_id', 'bill_id', 'adopted', 'amendment_body_id', 'amendment_date', 'amendment_title',
      'amendment_desc', 'amendment_mime_id', 'amendment_size', 'amendment_hash', 'state_url']),
    bill_referrals: new CopyBuffer('bill_referrals', ['bill_id', 'referral_step', 'committee_id', 'committee_name', 'referral_date']),
    bill_calendar: new CopyBuffer('bill_calendar', ['bill_id', 'event_hash', 'event_type_id', 'event_date', 'event_time', 'event_location', 'event_desc']),
    supplements: new CopyBuffer('supplements', ['supplement_id', 'bill_id', 'supplement_type_id', 'supplement_date', 'title', 'description', 'state_url',
      'supplement_mime_id', 'supplement_size', 'supplement_hash']),
    bill_sasts: new CopyBuffer('bill_sasts', ['bill_id', 'sast_type_id', 'sast_bill_id', 'sast_bill_number']),
    bill_citations: new CopyBuffer('bill_citations', ['id', 'bill_id', 'citation_type', 'citation_number', 'catchline', 'bill_page', 'state_url', 'created']),
    bill_analyses: new CopyBuffer('bill_analyses', ['id', 'bill_id', 'analysis_type', 'analysis_title', 'author', 'analysis_date', 'state_url', 'created']),
  };
}

export type BillBuffers = ReturnType<typeof billBuffers>;

export function tailBuffers() {
  return {
    hearings: new CopyBuffer('hearings', ['hearing_id', 'state_id', 'committee_id', 'chamber', 'committee_name', 'hearing_title', 'hearing_description',
      'hearing_date', 'hearing_time', 'hearing_datetime', 'is_live', 'status', 'hearing_location', 'room_number', 'video_url', 'video_source_type',
      'video_duration_seconds', 'audio_url', 'transcript_url', 'transcript_text', 'transcript_format', 'has_captions', 'participants', 'bills_discussed',
      'topics', 'tags', 'source_url', 'scrape_date', 'last_updated', 'view_count', 'transcript_extracted_at', 'transcript_polished_json', 'transcript_polished_at']),
    candidates: new CopyBuffer('candidates', ['id', 'name', 'party', 'photo_url', 'people_id', 'fec_id', 'office', 'state', 'district', 'cycle',
      'incumbent_challenge', 'bioguide_id', 'bio', 'website', 'socials', 'bp_photo_url', 'bp_url']),
    candidacies: new CopyBuffer('candidacies', ['candidate_id', 'contest_id', 'party', 'is_incumbent', 'withdrew', 'votes', 'vote_pct', 'is_winner', 'header',
      'election_date', 'office_name', 'office_level', 'chamber', 'district', 'election_year', 'race_state']),
  };
}
