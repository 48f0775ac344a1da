-- The tables a stock LegiScan Push consumer writes pushes into, PostgreSQL variant, written from
-- LegiScan's documented column names and types (reference/legiscan.md, "What a stock LegiScan Push
-- consumer can store"): 16-bit ids are smallint (at most 32,767 here), 24-bit ids integer with the
-- 24-bit range as a check (the MariaDB variant's mediumint unsigned); varchar(9) districts; TIME
-- calendar times; DATE dates (LegiScan's "0000-00-00" is stored as NULL, as LegiScan's client does
-- for PostgreSQL); char(32) change_hash (32 hex). Unsigned columns carry a >= 0 check.
CREATE TABLE ls_session (
  session_id smallint CHECK (session_id >= 0) NOT NULL PRIMARY KEY, state_id smallint CHECK (state_id BETWEEN 0 AND 255) NOT NULL, year_start smallint CHECK (year_start >= 0) NOT NULL,
  year_end smallint CHECK (year_end >= 0) NOT NULL, prefile smallint CHECK (prefile BETWEEN 0 AND 255) NOT NULL, sine_die smallint CHECK (sine_die BETWEEN 0 AND 255) NOT NULL, prior smallint CHECK (prior BETWEEN 0 AND 255) NOT NULL,
  special smallint CHECK (special BETWEEN 0 AND 255) NOT NULL, session_tag varchar(255) NOT NULL, session_title varchar(255) NOT NULL, session_name varchar(255) NOT NULL
);
CREATE TABLE ls_bill (
  bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL PRIMARY KEY, state_id smallint CHECK (state_id BETWEEN 0 AND 255) NOT NULL, session_id smallint CHECK (session_id >= 0) NOT NULL,
  body_id smallint CHECK (body_id >= 0) NOT NULL, current_body_id smallint CHECK (current_body_id >= 0) NOT NULL, bill_type_id smallint CHECK (bill_type_id BETWEEN 0 AND 255) NOT NULL,
  bill_number varchar(255) NOT NULL, status_id smallint CHECK (status_id BETWEEN 0 AND 255) NOT NULL, status_date date NULL, title text NOT NULL, description text NOT NULL,
  pending_committee_id smallint CHECK (pending_committee_id >= 0) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL,
  change_hash char(32) NOT NULL CHECK (change_hash ~ '^[0-9a-f]{32}$')
);
CREATE TABLE ls_committee (committee_id smallint CHECK (committee_id >= 0) NOT NULL PRIMARY KEY, committee_body_id smallint CHECK (committee_body_id >= 0) NOT NULL, committee_name varchar(255) NOT NULL);
CREATE TABLE ls_bill_progress (bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, progress_step smallint CHECK (progress_step BETWEEN 0 AND 255) NOT NULL, progress_date date NULL, progress_event_id smallint CHECK (progress_event_id BETWEEN 0 AND 255) NOT NULL, PRIMARY KEY (bill_id, progress_step));
CREATE TABLE ls_bill_history (
  bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, history_step smallint CHECK (history_step >= 0) NOT NULL, history_date date NULL, history_body_id smallint CHECK (history_body_id >= 0) NOT NULL,
  history_action text NOT NULL, history_major smallint CHECK (history_major BETWEEN 0 AND 255) NOT NULL, PRIMARY KEY (bill_id, history_step)
);
CREATE TABLE ls_bill_sponsor (bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, people_id smallint CHECK (people_id >= 0) NOT NULL, sponsor_order smallint CHECK (sponsor_order BETWEEN 0 AND 255) NOT NULL, sponsor_type_id smallint CHECK (sponsor_type_id BETWEEN 0 AND 255) NOT NULL, PRIMARY KEY (bill_id, people_id));
CREATE TABLE ls_subject (subject_id smallint CHECK (subject_id >= 0) NOT NULL PRIMARY KEY, state_id smallint CHECK (state_id BETWEEN 0 AND 255) NOT NULL, subject_name varchar(255) NOT NULL);
CREATE TABLE ls_bill_subject (bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, subject_id smallint CHECK (subject_id >= 0) NOT NULL, PRIMARY KEY (bill_id, subject_id));
CREATE TABLE ls_bill_sast (bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, sast_type_id smallint CHECK (sast_type_id BETWEEN 0 AND 255) NOT NULL, sast_bill_id integer CHECK (sast_bill_id BETWEEN 0 AND 16777215) NOT NULL, sast_bill_number varchar(255) NOT NULL, PRIMARY KEY (bill_id, sast_type_id, sast_bill_id));
CREATE TABLE ls_bill_calendar (
  bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, event_hash char(8) NOT NULL, event_type_id smallint CHECK (event_type_id BETWEEN 0 AND 255) NOT NULL, event_date date NULL, event_time time NULL,
  event_location varchar(255) NOT NULL, event_desc text NOT NULL, PRIMARY KEY (bill_id, event_hash)
);
CREATE TABLE ls_bill_referral (bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, referral_step smallint CHECK (referral_step BETWEEN 0 AND 255) NOT NULL, referral_date date NULL, committee_id smallint CHECK (committee_id >= 0) NOT NULL, PRIMARY KEY (bill_id, referral_step));
CREATE TABLE ls_bill_text (
  text_id integer CHECK (text_id BETWEEN 0 AND 16777215) NOT NULL PRIMARY KEY, bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, bill_text_type_id smallint CHECK (bill_text_type_id BETWEEN 0 AND 255) NOT NULL, bill_text_date date NULL,
  mime_id smallint CHECK (mime_id BETWEEN 0 AND 255) NOT NULL, bill_text_size bigint CHECK (bill_text_size BETWEEN 0 AND 4294967295) NOT NULL, bill_text_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL,
  state_url varchar(255) NOT NULL, bill_text_doc bytea NULL
);
CREATE TABLE ls_bill_vote (
  roll_call_id integer CHECK (roll_call_id BETWEEN 0 AND 16777215) NOT NULL PRIMARY KEY, bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, roll_call_body_id smallint CHECK (roll_call_body_id >= 0) NOT NULL, roll_call_date date NULL,
  roll_call_desc varchar(255) NOT NULL, yea smallint CHECK (yea >= 0) NOT NULL, nay smallint CHECK (nay >= 0) NOT NULL, nv smallint CHECK (nv >= 0) NOT NULL, absent smallint CHECK (absent >= 0) NOT NULL,
  total smallint CHECK (total >= 0) NOT NULL, passed smallint CHECK (passed BETWEEN 0 AND 255) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL
);
CREATE TABLE ls_bill_vote_detail (roll_call_id integer CHECK (roll_call_id BETWEEN 0 AND 16777215) NOT NULL, people_id smallint CHECK (people_id >= 0) NOT NULL, vote_id smallint CHECK (vote_id BETWEEN 0 AND 255) NOT NULL, PRIMARY KEY (roll_call_id, people_id));
CREATE TABLE ls_bill_amendment (
  amendment_id integer CHECK (amendment_id BETWEEN 0 AND 16777215) NOT NULL PRIMARY KEY, bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, adopted smallint CHECK (adopted BETWEEN 0 AND 255) NOT NULL, amendment_body_id smallint CHECK (amendment_body_id >= 0) NOT NULL,
  amendment_date date NULL, amendment_title varchar(255) NOT NULL, amendment_desc text NOT NULL, mime_id smallint CHECK (mime_id BETWEEN 0 AND 255) NOT NULL, amendment_size bigint CHECK (amendment_size BETWEEN 0 AND 4294967295) NOT NULL,
  amendment_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, amendment_doc bytea NULL
);
CREATE TABLE ls_bill_supplement (
  supplement_id integer CHECK (supplement_id BETWEEN 0 AND 16777215) NOT NULL PRIMARY KEY, bill_id integer CHECK (bill_id BETWEEN 0 AND 16777215) NOT NULL, supplement_type_id smallint CHECK (supplement_type_id BETWEEN 0 AND 255) NOT NULL, supplement_date date NULL,
  supplement_title varchar(255) NOT NULL, supplement_desc text NOT NULL, mime_id smallint CHECK (mime_id BETWEEN 0 AND 255) NOT NULL, supplement_size bigint CHECK (supplement_size BETWEEN 0 AND 4294967295) NOT NULL,
  supplement_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, supplement_doc bytea NULL
);
CREATE TABLE ls_people (
  people_id smallint CHECK (people_id >= 0) NOT NULL PRIMARY KEY, state_id smallint CHECK (state_id BETWEEN 0 AND 255) NOT NULL, role_id smallint CHECK (role_id BETWEEN 0 AND 255) NOT NULL, party_id smallint CHECK (party_id BETWEEN 0 AND 255) NOT NULL,
  name varchar(255) NOT NULL, first_name varchar(255) NOT NULL, middle_name varchar(255) NOT NULL, last_name varchar(255) NOT NULL, suffix varchar(255) NOT NULL,
  nickname varchar(255) NOT NULL, district varchar(9) NOT NULL, committee_sponsor_id smallint CHECK (committee_sponsor_id >= 0) NOT NULL, followthemoney_eid numeric(20) CHECK (followthemoney_eid >= 0) NOT NULL,
  votesmart_id bigint CHECK (votesmart_id BETWEEN 0 AND 4294967295) NOT NULL, opensecrets_id varchar(255) NOT NULL, knowwho_pid bigint CHECK (knowwho_pid BETWEEN 0 AND 4294967295) NOT NULL, ballotpedia varchar(255) NOT NULL,
  bioguide_id varchar(255) NOT NULL, person_hash char(8) NOT NULL
);
