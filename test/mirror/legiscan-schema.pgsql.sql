-- The tables a stock LegiScan Push consumer writes pushes into, PostgreSQL variant: LegiScan's
-- published schema for its API client (1.4.1, schema 9, the legiscan_api dump), column by column
-- (types, lengths, NULL/NOT NULL, defaults, primary keys; test/mirror/legiscan-published.ts holds
-- the published types and legiscan-schema-ddl.test.ts checks this file against them). One addition:
-- the stock client keeps documents as files (local_copy, local_fragment); this receiver keeps the
-- decoded document in a *_doc column instead. LegiScan's "0000-00-00" is stored as NULL, as
-- LegiScan's client does for PostgreSQL.
CREATE TABLE ls_bill (
  bill_id integer NOT NULL, state_id smallint NOT NULL, session_id smallint NOT NULL, body_id smallint NOT NULL, current_body_id smallint NOT NULL,
  bill_type_id smallint NOT NULL, bill_number character varying(10) NOT NULL, status_id smallint NOT NULL, status_date date, title text NOT NULL, description text NOT NULL,
  pending_committee_id smallint NOT NULL, legiscan_url character varying(255) NOT NULL, state_url character varying(255) NOT NULL, change_hash character(32) NOT NULL,
  updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, PRIMARY KEY (bill_id)
);
CREATE TABLE ls_bill_amendment (
  amendment_id integer NOT NULL, bill_id integer NOT NULL, adopted smallint NOT NULL, amendment_body_id smallint NOT NULL, amendment_mime_id smallint NOT NULL,
  amendment_date date, amendment_title character varying(255) NOT NULL, amendment_desc text NOT NULL, amendment_size integer DEFAULT 0 NOT NULL,
  amendment_hash character(32) DEFAULT NULL::bpchar, local_copy smallint NOT NULL, local_fragment character varying(255) DEFAULT NULL::character varying,
  legiscan_url character varying(255) NOT NULL, state_url character varying(255) NOT NULL, updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
  created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, amendment_doc bytea, PRIMARY KEY (amendment_id)
);
CREATE TABLE ls_bill_calendar (
  bill_id integer NOT NULL, event_hash character(8) NOT NULL, event_type_id smallint DEFAULT 0 NOT NULL, event_date date, event_time time without time zone,
  event_location character varying(64) NOT NULL, event_desc character varying(128) NOT NULL, updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
  created timestamp without time zone DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (bill_id, event_hash)
);
CREATE TABLE ls_bill_history (
  bill_id integer NOT NULL, history_step smallint NOT NULL, history_major smallint NOT NULL, history_body_id smallint NOT NULL, history_date date, history_action text NOT NULL,
  PRIMARY KEY (bill_id, history_step)
);
CREATE TABLE ls_bill_progress (bill_id integer NOT NULL, progress_step smallint NOT NULL, progress_date date, progress_event_id smallint NOT NULL, PRIMARY KEY (bill_id, progress_step));
CREATE TABLE ls_bill_referral (bill_id integer NOT NULL, referral_step smallint NOT NULL, referral_date date, committee_id smallint NOT NULL, PRIMARY KEY (bill_id, referral_step));
CREATE TABLE ls_bill_sast (
  bill_id integer NOT NULL, sast_type_id smallint NOT NULL, sast_bill_id integer NOT NULL, sast_bill_number character varying(10) DEFAULT NULL::character varying,
  PRIMARY KEY (bill_id, sast_type_id, sast_bill_id)
);
CREATE TABLE ls_bill_sponsor (bill_id integer NOT NULL, people_id smallint NOT NULL, sponsor_order smallint NOT NULL, sponsor_type_id smallint NOT NULL, PRIMARY KEY (bill_id, people_id));
CREATE TABLE ls_bill_subject (bill_id integer NOT NULL, subject_id integer NOT NULL, PRIMARY KEY (bill_id, subject_id));
CREATE TABLE ls_bill_supplement (
  supplement_id integer NOT NULL, bill_id integer NOT NULL, supplement_type_id smallint NOT NULL, supplement_mime_id smallint NOT NULL, supplement_date date,
  supplement_title character varying(255) NOT NULL, supplement_desc text NOT NULL, supplement_size integer DEFAULT 0 NOT NULL, supplement_hash character(32) DEFAULT NULL::bpchar,
  local_copy smallint NOT NULL, local_fragment character varying(255) DEFAULT NULL::character varying, legiscan_url character varying(255) NOT NULL,
  state_url character varying(255) NOT NULL, updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
  created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, supplement_doc bytea, PRIMARY KEY (supplement_id)
);
CREATE TABLE ls_bill_text (
  text_id integer NOT NULL, bill_id integer NOT NULL, bill_text_type_id smallint NOT NULL, bill_text_mime_id smallint NOT NULL, bill_text_date date,
  bill_text_size integer DEFAULT 0 NOT NULL, bill_text_hash character(32) DEFAULT NULL::bpchar, local_copy smallint NOT NULL,
  local_fragment character varying(255) DEFAULT NULL::character varying, legiscan_url character varying(255) NOT NULL, state_url character varying(255) NOT NULL,
  updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, bill_text_doc bytea,
  PRIMARY KEY (text_id)
);
CREATE TABLE ls_bill_vote (
  roll_call_id integer NOT NULL, bill_id integer NOT NULL, roll_call_body_id smallint NOT NULL, roll_call_date date, roll_call_desc character varying(255) NOT NULL,
  yea smallint DEFAULT 0 NOT NULL, nay smallint DEFAULT 0 NOT NULL, nv smallint DEFAULT 0 NOT NULL, absent smallint DEFAULT 0 NOT NULL, total smallint DEFAULT 0 NOT NULL,
  passed smallint DEFAULT 0 NOT NULL, legiscan_url character varying(255) NOT NULL, state_url character varying(255) NOT NULL,
  updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, PRIMARY KEY (roll_call_id)
);
CREATE TABLE ls_bill_vote_detail (roll_call_id integer NOT NULL, people_id smallint NOT NULL, vote_id smallint DEFAULT 0 NOT NULL, PRIMARY KEY (roll_call_id, people_id));
CREATE TABLE ls_committee (committee_id smallint NOT NULL, committee_body_id smallint NOT NULL, committee_name character varying(128) NOT NULL, PRIMARY KEY (committee_id));
CREATE TABLE ls_people (
  people_id smallint NOT NULL, state_id smallint NOT NULL, role_id smallint NOT NULL, party_id smallint DEFAULT 0 NOT NULL, name character varying(128) NOT NULL,
  first_name character varying(32) NOT NULL, middle_name character varying(32) NOT NULL, last_name character varying(32) NOT NULL, suffix character varying(32) NOT NULL,
  nickname character varying(32) NOT NULL, district character varying(9) DEFAULT ''::character varying, committee_sponsor_id smallint DEFAULT 0 NOT NULL,
  ballotpedia character varying(64) DEFAULT NULL::character varying, followthemoney_eid bigint DEFAULT 0 NOT NULL, votesmart_id integer DEFAULT 0 NOT NULL,
  knowwho_pid integer DEFAULT 0 NOT NULL, opensecrets_id character(9) DEFAULT NULL::bpchar, person_hash character(8) NOT NULL,
  updated timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, created timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL, PRIMARY KEY (people_id)
);
CREATE TABLE ls_session (
  session_id smallint NOT NULL, state_id smallint NOT NULL, year_start smallint NOT NULL, year_end smallint NOT NULL, prefile smallint DEFAULT 0 NOT NULL,
  sine_die smallint DEFAULT 0 NOT NULL, prior smallint DEFAULT 0 NOT NULL, special smallint NOT NULL, session_name character varying(64) NOT NULL,
  session_title character varying(64) NOT NULL, session_tag character varying(32) NOT NULL, import_date date, import_hash character(32), PRIMARY KEY (session_id)
);
CREATE TABLE ls_subject (subject_id integer NOT NULL, state_id smallint NOT NULL, subject_name character varying(128) NOT NULL, PRIMARY KEY (subject_id));
