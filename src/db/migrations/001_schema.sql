-- Core schema of the Legislative Data Service: every resource of the spec, the change log,
-- API keys, usage counters, webhook subscriptions and deliveries.
-- Conventions: ids issued by the service are integers; people_id and candidate id are bigint.
-- Flags that the spec types as int (completed, passed, adopted, special, ...) stay smallint.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Reference ------------------------------------------------------------------------------------

CREATE TABLE states (
  state_id    smallint PRIMARY KEY,           -- LegiScan numbering: alphabetical by name, 51 DC, 52 US
  state_abbr  char(2) NOT NULL UNIQUE,
  state_name  text NOT NULL,
  capitol     text NOT NULL
);

CREATE TABLE bodies (                         -- chambers; body_id is LegiScan's fixed table
  body_id         int PRIMARY KEY,
  state_id        smallint NOT NULL REFERENCES states,
  role_id         smallint NOT NULL,          -- 1 lower, 2 upper, 3 joint
  body_abbr       text NOT NULL,
  body_short      text NOT NULL,
  body_name       text NOT NULL,
  body_role_abbr  text NOT NULL,
  body_role_name  text NOT NULL
);
CREATE INDEX bodies_state ON bodies (state_id);

CREATE TABLE bill_types (bill_type_id smallint PRIMARY KEY, bill_type_name text NOT NULL, bill_type_abbr text NOT NULL);
CREATE TABLE text_types (text_type_id smallint PRIMARY KEY, text_type text NOT NULL, is_supplement boolean NOT NULL DEFAULT false);
CREATE TABLE supplement_types (supplement_type_id smallint PRIMARY KEY, supplement_type text NOT NULL);
CREATE TABLE sast_types (sast_type_id smallint PRIMARY KEY, sast_type text NOT NULL);
CREATE TABLE event_types (event_type_id smallint PRIMARY KEY, event_type_name text NOT NULL);
CREATE TABLE parties (party_id smallint PRIMARY KEY, party_abbr text NOT NULL, party_name text NOT NULL);
CREATE TABLE vote_types (vote_id smallint PRIMARY KEY, vote_name text NOT NULL);
CREATE TABLE sponsor_types (sponsor_type_id smallint PRIMARY KEY, sponsor_type_name text NOT NULL);
CREATE TABLE statuses (status_id smallint PRIMARY KEY, status_name text NOT NULL, bucket text NOT NULL);
CREATE TABLE change_reasons (reason_id smallint PRIMARY KEY, reason_name text NOT NULL UNIQUE);

CREATE TABLE sessions (
  session_id              int PRIMARY KEY,
  state_id                smallint NOT NULL REFERENCES states,
  year_start              int NOT NULL,
  year_end                int NOT NULL,
  special                 smallint NOT NULL DEFAULT 0,
  session_tag             text NOT NULL DEFAULT '',
  session_title           text NOT NULL DEFAULT '',
  session_name            text NOT NULL DEFAULT '',
  sine_die                smallint NOT NULL DEFAULT 0,
  session_start_date      date,
  actual_sine_die_date    date,
  expected_sine_die_date  date,
  prefile                 smallint NOT NULL DEFAULT 0,
  prior                   smallint NOT NULL DEFAULT 0,
  source_url              text NOT NULL DEFAULT '',
  source                  text NOT NULL DEFAULT 'demo',
  updated                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_state_newest ON sessions (state_id, year_start DESC, session_id DESC);
CREATE INDEX sessions_newest ON sessions (year_start DESC, session_id DESC);

-- People ---------------------------------------------------------------------------------------

CREATE TABLE people (
  people_id           bigint PRIMARY KEY,
  state_id            smallint NOT NULL REFERENCES states,
  role_id             smallint NOT NULL DEFAULT 0,
  chamber             text NOT NULL DEFAULT '',
  body_id             int,
  party_id            smallint NOT NULL DEFAULT 0,
  party_name          text NOT NULL DEFAULT '',
  name                text NOT NULL,
  first_name          text NOT NULL DEFAULT '',
  middle_name         text NOT NULL DEFAULT '',
  last_name           text NOT NULL DEFAULT '',
  suffix              text NOT NULL DEFAULT '',
  nickname            text NOT NULL DEFAULT '',
  district            text NOT NULL DEFAULT '',
  ballotpedia         text NOT NULL DEFAULT '',
  followthemoney_eid  text NOT NULL DEFAULT '',
  votesmart_id        text NOT NULL DEFAULT '',
  opensecrets_id      text NOT NULL DEFAULT '',
  bioguide_id         text,
  lis_id              text,
  fec_ids             text[] NOT NULL DEFAULT '{}',
  openstates_id       text,
  legiscan_id         bigint,                 -- LegiScan's own people_id when imported from LegiScan
  person_hash         text NOT NULL DEFAULT '',
  external_ids        jsonb NOT NULL DEFAULT '{}',
  active              boolean NOT NULL DEFAULT true,
  source              text NOT NULL DEFAULT 'demo',
  updated             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX people_state_surname ON people (state_id, last_name, first_name, people_id);
CREATE INDEX people_surname ON people (last_name, first_name, people_id);
CREATE INDEX people_lower_last ON people (lower(last_name));
CREATE INDEX people_name_trgm ON people USING gin ((lower(first_name || ' ' || last_name || ' ' || name)) gin_trgm_ops);
CREATE INDEX people_bioguide ON people (bioguide_id) WHERE bioguide_id IS NOT NULL;
CREATE INDEX people_lis ON people (lis_id) WHERE lis_id IS NOT NULL;
CREATE INDEX people_openstates ON people (openstates_id) WHERE openstates_id IS NOT NULL;
CREATE INDEX people_legiscan ON people (legiscan_id) WHERE legiscan_id IS NOT NULL;
CREATE INDEX people_external ON people USING gin (external_ids jsonb_path_ops);

-- Bills ----------------------------------------------------------------------------------------

CREATE TABLE bills (
  bill_id               int PRIMARY KEY,
  state_id              smallint NOT NULL REFERENCES states,
  session_id            int NOT NULL REFERENCES sessions,
  bill_number           text NOT NULL,
  bill_number_key       text NOT NULL,        -- compact, upper case, leading zeros removed: HB0001 -> HB1
  bill_type_id          smallint NOT NULL DEFAULT 1,
  body_id               int NOT NULL,
  current_body_id       int NOT NULL,
  status_id             smallint NOT NULL DEFAULT 1 REFERENCES statuses,
  status_date           date,
  title                 text NOT NULL DEFAULT '',
  description           text NOT NULL DEFAULT '',
  state_url             text NOT NULL DEFAULT '',
  url                   text NOT NULL DEFAULT '',
  updated               timestamptz NOT NULL DEFAULT now(),
  created               timestamptz NOT NULL DEFAULT now(),
  change_hash           text NOT NULL DEFAULT '',
  content_hash          text NOT NULL DEFAULT '',
  summary               text,
  last_action           text,
  last_action_date      date,
  completed             smallint,
  pending_committee_id  int,
  subject_names         text NOT NULL DEFAULT '',   -- denormalised for full-text search
  search                tsvector GENERATED ALWAYS AS (
                          setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
                          setweight(to_tsvector('english', coalesce(description, '')), 'B') ||
                          setweight(to_tsvector('english', coalesce(subject_names, '')), 'C')) STORED,
  legiscan_status       smallint,              -- LegiScan's own status code, when imported from LegiScan
  external_ids          jsonb NOT NULL DEFAULT '{}',
  source                text NOT NULL DEFAULT 'demo'
);
CREATE INDEX bills_updated ON bills (updated DESC, bill_id DESC);
CREATE INDEX bills_state_updated ON bills (state_id, updated DESC, bill_id DESC);
CREATE INDEX bills_session_updated ON bills (session_id, updated DESC, bill_id DESC);
CREATE INDEX bills_status_updated ON bills (status_id, updated DESC, bill_id DESC);
CREATE INDEX bills_number_key ON bills (bill_number_key, state_id);
CREATE INDEX bills_search ON bills USING gin (search);
CREATE INDEX bills_title_trgm ON bills USING gin (title gin_trgm_ops);
CREATE INDEX bills_external ON bills USING gin (external_ids jsonb_path_ops);

CREATE TABLE bill_sponsors (
  bill_id          int NOT NULL REFERENCES bills ON DELETE CASCADE,
  people_id        bigint NOT NULL REFERENCES people,
  sponsor_order    int NOT NULL,
  sponsor_type_id  smallint NOT NULL,          -- 1 primary, 2 cosponsor
  committee_sponsor smallint NOT NULL DEFAULT 0,
  committee_id     int NOT NULL DEFAULT 0,
  PRIMARY KEY (bill_id, people_id)
);
CREATE INDEX bill_sponsors_people ON bill_sponsors (people_id, bill_id);

CREATE TABLE bill_history (
  bill_id          int NOT NULL REFERENCES bills ON DELETE CASCADE,
  history_step     int NOT NULL,
  history_date     date,
  history_action   text NOT NULL DEFAULT '',
  history_body_id  int NOT NULL,
  history_major    smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (bill_id, history_step)
);

CREATE TABLE bill_texts (
  text_id            int PRIMARY KEY,
  bill_id            int NOT NULL REFERENCES bills ON DELETE CASCADE,
  bill_text_type_id  smallint NOT NULL,
  text_date          date,
  mime_id            smallint NOT NULL DEFAULT 1,
  size_bytes         int NOT NULL DEFAULT 0,
  word_count         int NOT NULL DEFAULT 0,
  state_url          text NOT NULL DEFAULT '',
  text_hash          text NOT NULL DEFAULT '',
  content            text,                     -- decoded document text, needed for diffs
  created            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bill_texts_bill ON bill_texts (bill_id, text_date DESC, text_id DESC);

CREATE TABLE text_changes (
  bill_id             int NOT NULL REFERENCES bills ON DELETE CASCADE,
  from_text_id        int NOT NULL REFERENCES bill_texts ON DELETE CASCADE,
  to_text_id          int NOT NULL REFERENCES bill_texts ON DELETE CASCADE,
  from_type_id        smallint NOT NULL,
  to_type_id          smallint NOT NULL,
  from_created        timestamptz NOT NULL,
  to_created          timestamptz NOT NULL,
  added_chars         int NOT NULL,
  removed_chars       int NOT NULL,
  added_lines         int NOT NULL,
  removed_lines       int NOT NULL,
  similarity          double precision NOT NULL,
  is_whitespace_only  boolean NOT NULL,
  changed_sections    jsonb NOT NULL DEFAULT '[]',
  highlights          jsonb NOT NULL DEFAULT '[]',
  diff_truncated      boolean NOT NULL DEFAULT false,
  diff_unified        text NOT NULL DEFAULT '',
  computed_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_text_id, to_text_id)
);
CREATE INDEX text_changes_bill ON text_changes (bill_id, to_created, to_text_id);

-- Pairs waiting for the diff worker (filled by writers and by /diff misses).
CREATE TABLE text_diff_queue (
  from_text_id  int NOT NULL,
  to_text_id    int NOT NULL,
  bill_id       int NOT NULL,
  queued_at     timestamptz NOT NULL DEFAULT now(),
  attempts      int NOT NULL DEFAULT 0,
  last_error    text,
  PRIMARY KEY (from_text_id, to_text_id)
);

CREATE TABLE roll_calls (
  roll_call_id      int PRIMARY KEY,
  bill_id           int NOT NULL REFERENCES bills ON DELETE CASCADE,
  roll_call_body_id int NOT NULL,
  vote_date         date,
  description       text NOT NULL DEFAULT '',
  yea               int NOT NULL DEFAULT 0,
  nay               int NOT NULL DEFAULT 0,
  nv                int NOT NULL DEFAULT 0,
  absent            int NOT NULL DEFAULT 0,
  total             int NOT NULL DEFAULT 0,
  passed            smallint NOT NULL DEFAULT 0,
  state_url         text NOT NULL DEFAULT '',
  external_ids      jsonb NOT NULL DEFAULT '{}',
  created           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX roll_calls_bill ON roll_calls (bill_id, vote_date DESC, roll_call_id DESC);
CREATE INDEX roll_calls_external ON roll_calls USING gin (external_ids jsonb_path_ops);

CREATE TABLE roll_call_votes (
  roll_call_id  int NOT NULL REFERENCES roll_calls ON DELETE CASCADE,
  people_id     bigint NOT NULL REFERENCES people,
  vote_id       smallint NOT NULL,             -- 1 Yea, 2 Nay, 3 Not Voting, 4 Absent
  PRIMARY KEY (roll_call_id, people_id)
);
CREATE INDEX roll_call_votes_people ON roll_call_votes (people_id, roll_call_id DESC);

CREATE TABLE subjects (
  subject_id          int PRIMARY KEY,
  state_id            smallint REFERENCES states,
  subject_name        text NOT NULL,
  is_interface_label  boolean NOT NULL DEFAULT false,   -- portal tags such as "Bill Text" are not subjects
  bill_count          int NOT NULL DEFAULT 0            -- maintained by writers (refresh_subject_counts)
);
CREATE UNIQUE INDEX subjects_state_name ON subjects (coalesce(state_id, 0), lower(subject_name));
CREATE INDEX subjects_count ON subjects (bill_count DESC, subject_id);
CREATE INDEX subjects_name_trgm ON subjects USING gin (lower(subject_name) gin_trgm_ops);

CREATE TABLE bill_subjects (
  bill_id     int NOT NULL REFERENCES bills ON DELETE CASCADE,
  subject_id  int NOT NULL REFERENCES subjects,
  PRIMARY KEY (bill_id, subject_id)
);
CREATE INDEX bill_subjects_subject ON bill_subjects (subject_id, bill_id);

CREATE TABLE topics (
  topic_id      smallint PRIMARY KEY,
  slug          text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]+$'),
  display_name  text NOT NULL,
  description   text NOT NULL,
  emoji         text NOT NULL,
  sort_order    int NOT NULL
);

CREATE TABLE subject_topics (
  subject_id  int NOT NULL REFERENCES subjects ON DELETE CASCADE,
  topic_id    smallint NOT NULL REFERENCES topics,
  PRIMARY KEY (subject_id, topic_id)
);
CREATE INDEX subject_topics_topic ON subject_topics (topic_id);

-- Materialised bill → topic links (through subjects) so topic= filters use an index.
CREATE TABLE bill_topics (
  bill_id   int NOT NULL REFERENCES bills ON DELETE CASCADE,
  topic_id  smallint NOT NULL REFERENCES topics,
  PRIMARY KEY (topic_id, bill_id)
);
CREATE INDEX bill_topics_bill ON bill_topics (bill_id);

CREATE TABLE amendments (
  amendment_id       int PRIMARY KEY,
  bill_id            int NOT NULL REFERENCES bills ON DELETE CASCADE,
  adopted            smallint NOT NULL DEFAULT 0,
  amendment_body_id  int NOT NULL,
  amendment_date     date,
  amendment_title    text NOT NULL DEFAULT '',
  amendment_desc     text NOT NULL DEFAULT '',
  amendment_mime_id  smallint NOT NULL DEFAULT 1,
  amendment_size     int NOT NULL DEFAULT 0,
  amendment_hash     text NOT NULL DEFAULT '',
  state_url          text NOT NULL DEFAULT ''
);
CREATE INDEX amendments_bill ON amendments (bill_id, amendment_date DESC, amendment_id DESC);

CREATE TABLE committees (
  committee_id      int PRIMARY KEY,
  state_id          smallint NOT NULL REFERENCES states,
  body_id           int,
  chamber           text NOT NULL DEFAULT '',
  committee_name    text NOT NULL,
  committee_type    text NOT NULL DEFAULT 'standing',
  description       text NOT NULL DEFAULT '',
  website_url       text NOT NULL DEFAULT '',
  meeting_schedule  text NOT NULL DEFAULT '',
  parent_id         int REFERENCES committees,
  external_ids      jsonb NOT NULL DEFAULT '{}',
  source            text NOT NULL DEFAULT 'demo',
  updated           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX committees_order ON committees (state_id, chamber, committee_name, committee_id);
CREATE INDEX committees_name_trgm ON committees USING gin (lower(committee_name) gin_trgm_ops);
CREATE INDEX committees_external ON committees USING gin (external_ids jsonb_path_ops);

CREATE TABLE committee_members (
  committee_id  int NOT NULL REFERENCES committees ON DELETE CASCADE,
  people_id     bigint NOT NULL REFERENCES people,
  member_role   text NOT NULL DEFAULT 'member' CHECK (member_role IN ('chair', 'vice chair', 'member')),
  PRIMARY KEY (committee_id, people_id)
);
CREATE INDEX committee_members_people ON committee_members (people_id);

CREATE TABLE bill_referrals (
  bill_id         int NOT NULL REFERENCES bills ON DELETE CASCADE,
  referral_step   int NOT NULL,
  committee_id    int NOT NULL,
  committee_name  text NOT NULL DEFAULT '',    -- as published, in case the committee is unknown
  referral_date   date,
  PRIMARY KEY (bill_id, referral_step)
);

CREATE TABLE bill_calendar (
  bill_id          int NOT NULL REFERENCES bills ON DELETE CASCADE,
  event_hash       text NOT NULL,
  event_type_id    smallint NOT NULL,
  event_date       date,
  event_time       text NOT NULL DEFAULT '',
  event_location   text NOT NULL DEFAULT '',
  event_desc       text NOT NULL DEFAULT '',
  PRIMARY KEY (bill_id, event_hash)
);
CREATE INDEX bill_calendar_order ON bill_calendar (bill_id, event_date DESC);

CREATE TABLE supplements (
  supplement_id       int PRIMARY KEY,
  bill_id             int NOT NULL REFERENCES bills ON DELETE CASCADE,
  supplement_type_id  smallint NOT NULL,
  supplement_date     date,
  title               text NOT NULL DEFAULT '',
  description         text NOT NULL DEFAULT '',
  state_url           text NOT NULL DEFAULT '',
  supplement_mime_id  smallint NOT NULL DEFAULT 1,
  supplement_size     int NOT NULL DEFAULT 0,
  supplement_hash     text NOT NULL DEFAULT ''
);
CREATE INDEX supplements_bill ON supplements (bill_id, supplement_date DESC, supplement_id DESC);

CREATE TABLE bill_sasts (
  bill_id           int NOT NULL REFERENCES bills ON DELETE CASCADE,
  sast_type_id      smallint NOT NULL,
  sast_bill_id      int NOT NULL,
  sast_bill_number  text NOT NULL,
  PRIMARY KEY (bill_id, sast_type_id, sast_bill_number)
);

CREATE TABLE bill_citations (
  id               serial PRIMARY KEY,
  bill_id          int NOT NULL REFERENCES bills ON DELETE CASCADE,
  citation_type    text NOT NULL,
  citation_number  text NOT NULL,
  catchline        text NOT NULL DEFAULT '',
  bill_page        text NOT NULL DEFAULT '',
  state_url        text NOT NULL DEFAULT '',
  created          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bill_citations_bill ON bill_citations (bill_id, id);

CREATE TABLE bill_analyses (
  id              serial PRIMARY KEY,
  bill_id         int NOT NULL REFERENCES bills ON DELETE CASCADE,
  analysis_type   text NOT NULL,
  analysis_title  text NOT NULL,
  author          text NOT NULL DEFAULT '',
  analysis_date   date,
  state_url       text NOT NULL DEFAULT '',
  created         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bill_analyses_bill ON bill_analyses (bill_id, analysis_date DESC, id);

-- Hearings -------------------------------------------------------------------------------------

CREATE TABLE hearings (
  hearing_id                int PRIMARY KEY,
  state_id                  smallint NOT NULL REFERENCES states,
  committee_id              int REFERENCES committees,
  chamber                   text NOT NULL DEFAULT '',
  committee_name            text NOT NULL DEFAULT '',
  hearing_title             text NOT NULL DEFAULT '',
  hearing_description       text NOT NULL DEFAULT '',
  hearing_date              date NOT NULL,
  hearing_time              text NOT NULL DEFAULT '',
  hearing_datetime          timestamptz,
  is_live                   boolean NOT NULL DEFAULT false,
  status                    text NOT NULL DEFAULT 'scheduled',
  hearing_location          text NOT NULL DEFAULT '',
  room_number               text NOT NULL DEFAULT '',
  video_url                 text,
  video_source_type         text NOT NULL DEFAULT '',
  video_duration_seconds    int NOT NULL DEFAULT 0,
  audio_url                 text,
  transcript_url            text,
  transcript_text           text,
  transcript_format         text NOT NULL DEFAULT '',
  has_captions              boolean NOT NULL DEFAULT false,
  participants              jsonb NOT NULL DEFAULT '[]',
  bills_discussed           jsonb NOT NULL DEFAULT '[]',
  topics                    jsonb NOT NULL DEFAULT '[]',
  tags                      jsonb NOT NULL DEFAULT '[]',
  source_url                text NOT NULL DEFAULT '',
  scrape_date               timestamptz NOT NULL DEFAULT now(),
  last_updated              timestamptz NOT NULL DEFAULT now(),
  view_count                int NOT NULL DEFAULT 0,
  transcript_extracted_at   timestamptz,
  transcript_polished_json  jsonb,
  transcript_polished_at    timestamptz
);
CREATE INDEX hearings_date ON hearings (hearing_date DESC, hearing_id DESC);
CREATE INDEX hearings_state_date ON hearings (state_id, hearing_date DESC, hearing_id DESC);
CREATE INDEX hearings_committee_date ON hearings (committee_id, hearing_date DESC, hearing_id DESC);

-- Candidates -----------------------------------------------------------------------------------

CREATE TABLE candidates (
  id                   bigint PRIMARY KEY,
  name                 text NOT NULL,
  party                text NOT NULL DEFAULT '',
  photo_url            text NOT NULL DEFAULT '',
  people_id            bigint REFERENCES people,
  fec_id               text,
  office               text,
  state                text,
  district             text,
  cycle                int,
  incumbent_challenge  text,
  bioguide_id          text,
  bio                  text NOT NULL DEFAULT '',
  website              text NOT NULL DEFAULT '',
  socials              jsonb NOT NULL DEFAULT '{}',
  bp_photo_url         text NOT NULL DEFAULT '',
  bp_url               text NOT NULL DEFAULT ''
);
CREATE INDEX candidates_name ON candidates (name, id);
CREATE INDEX candidates_state_name ON candidates (state, name, id);
CREATE INDEX candidates_fec ON candidates (fec_id);
CREATE INDEX candidates_bioguide ON candidates (bioguide_id);
CREATE INDEX candidates_cycle ON candidates (cycle, name);

CREATE TABLE candidacies (
  candidate_id   bigint NOT NULL REFERENCES candidates ON DELETE CASCADE,
  contest_id     int NOT NULL,
  party          text NOT NULL DEFAULT '',
  is_incumbent   boolean NOT NULL DEFAULT false,
  withdrew       boolean NOT NULL DEFAULT false,
  votes          int NOT NULL DEFAULT 0,
  vote_pct       double precision NOT NULL DEFAULT 0,
  is_winner      boolean NOT NULL DEFAULT false,
  header         text NOT NULL DEFAULT '',
  election_date  date NOT NULL,
  office_name    text NOT NULL DEFAULT '',
  office_level   text NOT NULL DEFAULT '',
  chamber        text NOT NULL DEFAULT '',
  district       text NOT NULL DEFAULT '',
  election_year  int NOT NULL,
  race_state     text NOT NULL DEFAULT '',
  PRIMARY KEY (candidate_id, contest_id)
);
CREATE INDEX candidacies_order ON candidacies (candidate_id, election_date DESC);

-- Change log -----------------------------------------------------------------------------------
-- Writers insert rows (seq and changed_at NULL) in the same transaction as the data. The relay,
-- the only stamper, gives each committed row its public order: seq and changed_at strictly
-- increasing. Readers only ever see stamped rows, so a late commit can never slip behind a cursor.

CREATE TABLE changes (
  change_id    bigserial PRIMARY KEY,
  bill_id      int NOT NULL,
  state_id     smallint NOT NULL REFERENCES states,
  reason_id    smallint NOT NULL REFERENCES change_reasons,
  old_status   smallint,
  new_status   smallint,
  detail       jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  seq          bigint UNIQUE,
  changed_at   timestamptz UNIQUE
);
CREATE INDEX changes_unstamped ON changes (change_id) WHERE seq IS NULL;
CREATE INDEX changes_state_changed ON changes (state_id, changed_at DESC) WHERE changed_at IS NOT NULL;
CREATE INDEX changes_reason_changed ON changes (reason_id, changed_at DESC) WHERE changed_at IS NOT NULL;
CREATE INDEX changes_bill ON changes (bill_id);

-- The relay's high-water mark: every row with changed_at <= high_water is stamped and committed.
CREATE TABLE relay_state (
  id          smallint PRIMARY KEY CHECK (id = 1),
  last_seq    bigint NOT NULL DEFAULT 0,
  high_water  timestamptz NOT NULL DEFAULT '1970-01-01T00:00:00Z'
);
INSERT INTO relay_state (id) VALUES (1);

-- Keys and usage -------------------------------------------------------------------------------

CREATE TABLE api_keys (
  api_key_id    text PRIMARY KEY,               -- public id, e.g. key_3f9a1c0b7d2e
  key_prefix    text NOT NULL,                  -- first characters of the key, for recognition
  key_hash      bytea NOT NULL UNIQUE,          -- sha256 of the full key; the key itself is never stored
  org_name      text NOT NULL,
  tier          text NOT NULL DEFAULT 'standard',
  monthly_cap   int NOT NULL,
  burst_limit   int NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
CREATE INDEX api_keys_org ON api_keys (org_name);

CREATE TABLE usage_counters (
  api_key_id    text NOT NULL REFERENCES api_keys,
  period_start  timestamptz NOT NULL,           -- first moment of the UTC month
  used          bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (api_key_id, period_start)
);

-- Webhooks and push-mirror ---------------------------------------------------------------------

CREATE TABLE subscriptions (
  id                 bigserial PRIMARY KEY,
  public_id          text NOT NULL UNIQUE,       -- e.g. wh_...
  api_key_id         text NOT NULL REFERENCES api_keys,
  org_name           text NOT NULL,
  kind               text NOT NULL DEFAULT 'webhook' CHECK (kind IN ('webhook', 'push_mirror')),
  webhook_url        text NOT NULL,
  events             text[] NOT NULL,
  filter_states      text[] NOT NULL DEFAULT '{}',
  filter_subjects    text[] NOT NULL DEFAULT '{}',
  secret             text NOT NULL,              -- signing secret (whsec_...) or mirror token
  previous_secret    text,                       -- still signed with until previous_secret_expires
  previous_secret_expires timestamptz,
  active             boolean NOT NULL DEFAULT true,
  deactivated_reason text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz
);
CREATE INDEX subscriptions_key ON subscriptions (api_key_id) WHERE deleted_at IS NULL;
CREATE INDEX subscriptions_active ON subscriptions (kind) WHERE active AND deleted_at IS NULL;

CREATE TABLE deliveries (
  id               bigserial PRIMARY KEY,
  public_id        text NOT NULL UNIQUE,         -- webhook-id, stable across retries (msg_...)
  subscription_id  bigint NOT NULL REFERENCES subscriptions ON DELETE CASCADE,
  change_id        bigint,                       -- null for synthetic test deliveries
  event_type       text NOT NULL,
  bill_id          int,
  payload          jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_flight', 'delivered', 'failed', 'cancelled')),
  attempts         int NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  locked_until     timestamptz,
  last_status_code int,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  UNIQUE (subscription_id, change_id, event_type)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, id) WHERE status IN ('pending', 'in_flight');
CREATE INDEX deliveries_subscription ON deliveries (subscription_id, created_at DESC);

CREATE TABLE delivery_attempts (
  id            bigserial PRIMARY KEY,
  delivery_id   bigint NOT NULL REFERENCES deliveries ON DELETE CASCADE,
  attempt       int NOT NULL,
  started_at    timestamptz NOT NULL,
  duration_ms   int NOT NULL,
  status_code   int,
  error         text,
  response_excerpt text,
  next_attempt_at timestamptz,
  UNIQUE (delivery_id, attempt)
);
