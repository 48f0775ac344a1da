// Hearing rows, shared by /v1/hearings and /v1/committees/{id}/hearings.
import { Type } from 'typebox';
import { DateStr, Int, Json, Nullable, Str, Timestamp } from '../common/schemas.js';
import { iso } from '../common/sql.js';

export const HearingSchema = Type.Object({
  hearing_id: Int(),
  state_code: Str(),
  chamber: Str(),
  committee_name: Str(),
  hearing_title: Str(),
  hearing_description: Str(),
  hearing_date: DateStr(),
  hearing_time: Str(),
  hearing_datetime: Nullable(Timestamp()),
  is_live: Type.Boolean(),
  status: Type.String({ description: 'as published (e.g. scheduled, live, completed, cancelled)' }),
  hearing_location: Str(),
  room_number: Str(),
  video_url: Nullable(Str()),
  video_source_type: Str(),
  video_duration_seconds: Int(),
  audio_url: Nullable(Str()),
  transcript_url: Nullable(Str()),
  transcript_text: Nullable(Str()),
  transcript_format: Str(),
  has_captions: Type.Boolean(),
  participants: Json('people who took part'),
  bills_discussed: Json('bills on the agenda, each linking back to a bill'),
  topics: Json('topics discussed'),
  tags: Json('tags'),
  source_url: Str(),
  scrape_date: Timestamp(),
  last_updated: Timestamp(),
  view_count: Int(),
  // The spec types the two *_at fields as timestamps; they describe an event (extraction, polishing) that has not
  // happened for a hearing without a transcript, so they are null exactly when their content is.
  transcript_extracted_at: Nullable(
    Timestamp(),
    'ISO 8601, UTC; null while no transcript has been extracted (exactly when transcript_text is null)',
  ),
  transcript_polished_json: Nullable(Json('polished transcript')),
  transcript_polished_at: Nullable(
    Timestamp(),
    'ISO 8601, UTC; null while no polished transcript exists (exactly when transcript_polished_json is null)',
  ),
});

export const HEARING_COLUMNS = `h.hearing_id, s.state_abbr::text AS state_code, h.chamber, h.committee_name, h.hearing_title,
  h.hearing_description, h.hearing_date, h.hearing_time, ${iso('h.hearing_datetime')} AS hearing_datetime, h.is_live, h.status,
  h.hearing_location, h.room_number, h.video_url, h.video_source_type, h.video_duration_seconds, h.audio_url, h.transcript_url,
  h.transcript_text, h.transcript_format, h.has_captions, h.participants, h.bills_discussed, h.topics, h.tags, h.source_url,
  ${iso('h.scrape_date')} AS scrape_date, ${iso('h.last_updated')} AS last_updated, h.view_count,
  ${iso('h.transcript_extracted_at')} AS transcript_extracted_at, h.transcript_polished_json,
  ${iso('h.transcript_polished_at')} AS transcript_polished_at`;

export const HEARING_FROM = 'hearings h JOIN states s ON s.state_id = h.state_id';
export const HEARING_ORDER = 'h.hearing_date DESC, h.hearing_time DESC, h.hearing_id DESC';
