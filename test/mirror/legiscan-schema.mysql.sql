-- The tables a stock LegiScan Push consumer writes pushes into, MariaDB/MySQL variant, written from
-- LegiScan's documented column names and types (reference/legiscan.md, "What a stock LegiScan Push
-- consumer can store"): 16-bit unsigned session, people, committee and subject ids; 24-bit unsigned
-- bill, roll call, text, amendment and supplement ids; varchar(9) districts; TIME calendar times;
-- DATE dates; char(32) change_hash (32 hex); a committee row for a pending committee. Text columns
-- whose length the reference does not give are varchar(255)/text. Run in strict mode, so a value
-- that does not fit is an error, never a silent clamp.
CREATE TABLE ls_session (
  session_id smallint unsigned NOT NULL PRIMARY KEY, state_id tinyint unsigned NOT NULL, year_start smallint unsigned NOT NULL,
  year_end smallint unsigned NOT NULL, prefile tinyint unsigned NOT NULL, sine_die tinyint unsigned NOT NULL, prior tinyint unsigned NOT NULL,
  special tinyint unsigned NOT NULL, session_tag varchar(255) NOT NULL, session_title varchar(255) NOT NULL, session_name varchar(255) NOT NULL
);
CREATE TABLE ls_bill (
  bill_id mediumint unsigned NOT NULL PRIMARY KEY, state_id tinyint unsigned NOT NULL, session_id smallint unsigned NOT NULL,
  body_id smallint unsigned NOT NULL, current_body_id smallint unsigned NOT NULL, bill_type_id tinyint unsigned NOT NULL,
  bill_number varchar(255) NOT NULL, status_id tinyint unsigned NOT NULL, status_date date NULL, title text NOT NULL, description text NOT NULL,
  pending_committee_id smallint unsigned NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL,
  change_hash char(32) NOT NULL CHECK (change_hash REGEXP '^[0-9a-f]{32}$')
);
CREATE TABLE ls_committee (committee_id smallint unsigned NOT NULL PRIMARY KEY, committee_body_id smallint unsigned NOT NULL, committee_name varchar(255) NOT NULL);
CREATE TABLE ls_bill_progress (bill_id mediumint unsigned NOT NULL, progress_step tinyint unsigned NOT NULL, progress_date date NULL, progress_event_id tinyint unsigned NOT NULL, PRIMARY KEY (bill_id, progress_step));
CREATE TABLE ls_bill_history (
  bill_id mediumint unsigned NOT NULL, history_step smallint unsigned NOT NULL, history_date date NULL, history_body_id smallint unsigned NOT NULL,
  history_action text NOT NULL, history_major tinyint unsigned NOT NULL, PRIMARY KEY (bill_id, history_step)
);
CREATE TABLE ls_bill_sponsor (bill_id mediumint unsigned NOT NULL, people_id smallint unsigned NOT NULL, sponsor_order tinyint unsigned NOT NULL, sponsor_type_id tinyint unsigned NOT NULL, PRIMARY KEY (bill_id, people_id));
CREATE TABLE ls_subject (subject_id smallint unsigned NOT NULL PRIMARY KEY, state_id tinyint unsigned NOT NULL, subject_name varchar(255) NOT NULL);
CREATE TABLE ls_bill_subject (bill_id mediumint unsigned NOT NULL, subject_id smallint unsigned NOT NULL, PRIMARY KEY (bill_id, subject_id));
CREATE TABLE ls_bill_sast (bill_id mediumint unsigned NOT NULL, sast_type_id tinyint unsigned NOT NULL, sast_bill_id mediumint unsigned NOT NULL, sast_bill_number varchar(255) NOT NULL, PRIMARY KEY (bill_id, sast_type_id, sast_bill_id));
CREATE TABLE ls_bill_calendar (
  bill_id mediumint unsigned NOT NULL, event_hash char(8) NOT NULL, event_type_id tinyint unsigned NOT NULL, event_date date NULL, event_time time NULL,
  event_location varchar(255) NOT NULL, event_desc text NOT NULL, PRIMARY KEY (bill_id, event_hash)
);
CREATE TABLE ls_bill_referral (bill_id mediumint unsigned NOT NULL, referral_step tinyint unsigned NOT NULL, referral_date date NULL, committee_id smallint unsigned NOT NULL, PRIMARY KEY (bill_id, referral_step));
CREATE TABLE ls_bill_text (
  text_id mediumint unsigned NOT NULL PRIMARY KEY, bill_id mediumint unsigned NOT NULL, bill_text_type_id tinyint unsigned NOT NULL, bill_text_date date NULL,
  mime_id tinyint unsigned NOT NULL, bill_text_size int unsigned NOT NULL, bill_text_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL,
  state_url varchar(255) NOT NULL, bill_text_doc longblob NULL
);
CREATE TABLE ls_bill_vote (
  roll_call_id mediumint unsigned NOT NULL PRIMARY KEY, bill_id mediumint unsigned NOT NULL, roll_call_body_id smallint unsigned NOT NULL, roll_call_date date NULL,
  roll_call_desc varchar(255) NOT NULL, yea smallint unsigned NOT NULL, nay smallint unsigned NOT NULL, nv smallint unsigned NOT NULL, absent smallint unsigned NOT NULL,
  total smallint unsigned NOT NULL, passed tinyint unsigned NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL
);
CREATE TABLE ls_bill_vote_detail (roll_call_id mediumint unsigned NOT NULL, people_id smallint unsigned NOT NULL, vote_id tinyint unsigned NOT NULL, PRIMARY KEY (roll_call_id, people_id));
CREATE TABLE ls_bill_amendment (
  amendment_id mediumint unsigned NOT NULL PRIMARY KEY, bill_id mediumint unsigned NOT NULL, adopted tinyint unsigned NOT NULL, amendment_body_id smallint unsigned NOT NULL,
  amendment_date date NULL, amendment_title varchar(255) NOT NULL, amendment_desc text NOT NULL, mime_id tinyint unsigned NOT NULL, amendment_size int unsigned NOT NULL,
  amendment_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, amendment_doc longblob NULL
);
CREATE TABLE ls_bill_supplement (
  supplement_id mediumint unsigned NOT NULL PRIMARY KEY, bill_id mediumint unsigned NOT NULL, supplement_type_id tinyint unsigned NOT NULL, supplement_date date NULL,
  supplement_title varchar(255) NOT NULL, supplement_desc text NOT NULL, mime_id tinyint unsigned NOT NULL, supplement_size int unsigned NOT NULL,
  supplement_hash char(32) NOT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, supplement_doc longblob NULL
);
CREATE TABLE ls_people (
  people_id smallint unsigned NOT NULL PRIMARY KEY, state_id tinyint unsigned NOT NULL, role_id tinyint unsigned NOT NULL, party_id tinyint unsigned NOT NULL,
  name varchar(255) NOT NULL, first_name varchar(255) NOT NULL, middle_name varchar(255) NOT NULL, last_name varchar(255) NOT NULL, suffix varchar(255) NOT NULL,
  nickname varchar(255) NOT NULL, district varchar(9) NOT NULL, committee_sponsor_id smallint unsigned NOT NULL, followthemoney_eid bigint unsigned NOT NULL,
  votesmart_id int unsigned NOT NULL, opensecrets_id varchar(255) NOT NULL, knowwho_pid int unsigned NOT NULL, ballotpedia varchar(255) NOT NULL,
  bioguide_id varchar(255) NOT NULL, person_hash char(8) NOT NULL
);
