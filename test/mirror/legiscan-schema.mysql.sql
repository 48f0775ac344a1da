-- The tables a stock LegiScan Push consumer writes pushes into, MySQL/MariaDB variant: LegiScan's
-- published schema for its API client (1.4.1, schema 9, database legiscan_api), column by column
-- (types, lengths, NULL/NOT NULL, defaults, primary keys; test/mirror/legiscan-published.ts holds
-- the published types and legiscan-schema-ddl.test.ts checks this file against them). One addition:
-- the stock client keeps documents as files (local_copy, local_fragment); this receiver keeps the
-- decoded document in a *_doc column instead. Run in strict mode, so a value that does not fit is
-- an error, never a silent clamp.
CREATE TABLE ls_bill (
  bill_id mediumint(8) unsigned NOT NULL, state_id tinyint(3) unsigned NOT NULL, session_id smallint(5) unsigned NOT NULL, body_id tinyint(3) unsigned NOT NULL,
  current_body_id tinyint(3) unsigned NOT NULL, bill_type_id tinyint(3) unsigned NOT NULL, bill_number varchar(10) NOT NULL, status_id tinyint(3) unsigned NOT NULL,
  status_date date DEFAULT NULL, title text NOT NULL, description text NOT NULL, pending_committee_id smallint(5) unsigned NOT NULL, legiscan_url varchar(255) NOT NULL,
  state_url varchar(255) NOT NULL, change_hash char(32) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (bill_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_amendment (
  amendment_id mediumint(8) unsigned NOT NULL, bill_id mediumint(8) unsigned NOT NULL, adopted tinyint(3) unsigned NOT NULL, amendment_body_id tinyint(3) unsigned NOT NULL,
  amendment_mime_id tinyint(3) unsigned NOT NULL, amendment_date date DEFAULT NULL, amendment_title varchar(255) NOT NULL, amendment_desc text NOT NULL,
  amendment_size mediumint(8) unsigned NOT NULL DEFAULT 0, amendment_hash char(32) DEFAULT NULL, local_copy tinyint(3) unsigned NOT NULL, local_fragment varchar(255) DEFAULT NULL,
  legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  amendment_doc longblob NULL, PRIMARY KEY (amendment_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_calendar (
  bill_id mediumint(8) unsigned NOT NULL, event_hash char(8) NOT NULL, event_type_id tinyint(3) unsigned NOT NULL DEFAULT 0, event_date date DEFAULT NULL, event_time time DEFAULT NULL,
  event_location varchar(64) NOT NULL, event_desc varchar(128) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (bill_id, event_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_history (
  bill_id mediumint(8) unsigned NOT NULL, history_step smallint(5) unsigned NOT NULL, history_major tinyint(3) unsigned NOT NULL, history_body_id tinyint(3) unsigned NOT NULL,
  history_date date DEFAULT NULL, history_action text NOT NULL, PRIMARY KEY (bill_id, history_step)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_progress (
  bill_id mediumint(8) unsigned NOT NULL, progress_step tinyint(3) unsigned NOT NULL, progress_date date DEFAULT NULL, progress_event_id tinyint(3) unsigned NOT NULL,
  PRIMARY KEY (bill_id, progress_step)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_referral (
  bill_id mediumint(8) unsigned NOT NULL, referral_step tinyint(3) unsigned NOT NULL, referral_date date DEFAULT NULL, committee_id smallint(5) unsigned NOT NULL,
  PRIMARY KEY (bill_id, referral_step)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_sast (
  bill_id mediumint(8) unsigned NOT NULL, sast_type_id tinyint(3) unsigned NOT NULL, sast_bill_id mediumint(8) unsigned NOT NULL, sast_bill_number varchar(10) DEFAULT NULL,
  PRIMARY KEY (bill_id, sast_type_id, sast_bill_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_sponsor (
  bill_id mediumint(8) unsigned NOT NULL, people_id smallint(5) unsigned NOT NULL, sponsor_order smallint(5) unsigned NOT NULL, sponsor_type_id tinyint(3) unsigned NOT NULL,
  PRIMARY KEY (bill_id, people_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_subject (bill_id mediumint(8) unsigned NOT NULL, subject_id mediumint(8) unsigned NOT NULL, PRIMARY KEY (bill_id, subject_id)) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_supplement (
  supplement_id mediumint(8) unsigned NOT NULL, bill_id mediumint(8) unsigned NOT NULL, supplement_type_id tinyint(3) unsigned NOT NULL, supplement_mime_id tinyint(3) unsigned NOT NULL,
  supplement_date date DEFAULT NULL, supplement_title varchar(255) NOT NULL, supplement_desc text NOT NULL, supplement_size mediumint(8) unsigned NOT NULL DEFAULT 0,
  supplement_hash char(32) DEFAULT NULL, local_copy tinyint(3) unsigned NOT NULL, local_fragment varchar(255) DEFAULT NULL, legiscan_url varchar(255) NOT NULL,
  state_url varchar(255) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, supplement_doc longblob NULL,
  PRIMARY KEY (supplement_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_text (
  text_id mediumint(8) unsigned NOT NULL, bill_id mediumint(8) unsigned NOT NULL, bill_text_type_id tinyint(3) unsigned NOT NULL, bill_text_mime_id tinyint(3) unsigned NOT NULL,
  bill_text_date date DEFAULT NULL, bill_text_size mediumint(8) unsigned NOT NULL DEFAULT 0, bill_text_hash char(32) DEFAULT NULL, local_copy tinyint(3) unsigned NOT NULL,
  local_fragment varchar(255) DEFAULT NULL, legiscan_url varchar(255) NOT NULL, state_url varchar(255) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, bill_text_doc longblob NULL, PRIMARY KEY (text_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_vote (
  roll_call_id mediumint(8) unsigned NOT NULL, bill_id mediumint(8) unsigned NOT NULL, roll_call_body_id tinyint(3) unsigned NOT NULL, roll_call_date date DEFAULT NULL,
  roll_call_desc varchar(255) NOT NULL, yea smallint(5) unsigned NOT NULL DEFAULT 0, nay smallint(5) unsigned NOT NULL DEFAULT 0, nv smallint(5) unsigned NOT NULL DEFAULT 0,
  absent smallint(5) unsigned NOT NULL DEFAULT 0, total smallint(5) unsigned NOT NULL DEFAULT 0, passed tinyint(3) unsigned NOT NULL DEFAULT 0, legiscan_url varchar(255) NOT NULL,
  state_url varchar(255) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (roll_call_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_bill_vote_detail (
  roll_call_id mediumint(8) unsigned NOT NULL, people_id smallint(5) unsigned NOT NULL, vote_id tinyint(3) unsigned NOT NULL DEFAULT 0, PRIMARY KEY (roll_call_id, people_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_committee (
  committee_id smallint(5) unsigned NOT NULL, committee_body_id tinyint(3) unsigned NOT NULL, committee_name varchar(128) NOT NULL, PRIMARY KEY (committee_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_people (
  people_id smallint(5) unsigned NOT NULL, state_id tinyint(3) unsigned NOT NULL, role_id tinyint(3) unsigned NOT NULL, party_id tinyint(3) unsigned NOT NULL DEFAULT 0,
  name varchar(128) NOT NULL, first_name varchar(32) NOT NULL, middle_name varchar(32) NOT NULL, last_name varchar(32) NOT NULL, suffix varchar(32) NOT NULL,
  nickname varchar(32) NOT NULL, district varchar(9) DEFAULT '', committee_sponsor_id smallint(5) unsigned NOT NULL DEFAULT 0, ballotpedia varchar(64) DEFAULT NULL,
  followthemoney_eid bigint(20) unsigned NOT NULL DEFAULT 0, votesmart_id mediumint(8) unsigned NOT NULL DEFAULT 0, knowwho_pid mediumint(8) unsigned NOT NULL DEFAULT 0,
  opensecrets_id char(9) DEFAULT NULL, person_hash char(8) NOT NULL, updated timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (people_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_session (
  session_id smallint(5) unsigned NOT NULL, state_id tinyint(3) unsigned NOT NULL, year_start smallint(5) unsigned NOT NULL, year_end smallint(5) unsigned NOT NULL,
  prefile tinyint(3) unsigned NOT NULL DEFAULT 0, sine_die tinyint(3) unsigned NOT NULL DEFAULT 0, prior tinyint(3) unsigned NOT NULL DEFAULT 0, special tinyint(3) unsigned NOT NULL,
  session_name varchar(64) NOT NULL, session_title varchar(64) NOT NULL, session_tag varchar(32) NOT NULL, import_date date NULL, import_hash char(32) NULL, PRIMARY KEY (session_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
CREATE TABLE ls_subject (
  subject_id mediumint(8) unsigned NOT NULL, state_id tinyint(3) unsigned NOT NULL, subject_name varchar(128) NOT NULL, PRIMARY KEY (subject_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
