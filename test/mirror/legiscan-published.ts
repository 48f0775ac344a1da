// LegiScan's published schema for its API client (1.4.1, schema 9, database legiscan_api), the
// tables a push lands in, transcribed column by column from LegiScan's MySQL/MariaDB script and its
// PostgreSQL dump: [column, MySQL type, PostgreSQL type, nullable]. legiscan-schema-ddl.test.ts
// checks the receiver's DDL (legiscan-schema.{mysql,pgsql}.sql) against this list, and
// src/mirror/columns.ts takes its limits from the same types.
type Col = [name: string, mysql: string, pgsql: string, nullable: boolean];

const TS: Col[] = [['updated', 'timestamp', 'timestamp without time zone', false], ['created', 'timestamp', 'timestamp without time zone', false]];
const DOC: (prefix: string) => Col[] = (p) => [
  ['local_copy', 'tinyint(3) unsigned', 'smallint', false], ['local_fragment', 'varchar(255)', 'character varying(255)', true],
  ['legiscan_url', 'varchar(255)', 'character varying(255)', false], ['state_url', 'varchar(255)', 'character varying(255)', false], ...TS,
  [`${p}_doc`, 'longblob', 'bytea', true], // this receiver's addition: the document, where the stock client writes a file
];

export const PUBLISHED: Record<string, Col[]> = {
  ls_bill: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['state_id', 'tinyint(3) unsigned', 'smallint', false], ['session_id', 'smallint(5) unsigned', 'smallint', false],
    ['body_id', 'tinyint(3) unsigned', 'smallint', false], ['current_body_id', 'tinyint(3) unsigned', 'smallint', false], ['bill_type_id', 'tinyint(3) unsigned', 'smallint', false],
    ['bill_number', 'varchar(10)', 'character varying(10)', false], ['status_id', 'tinyint(3) unsigned', 'smallint', false], ['status_date', 'date', 'date', true],
    ['title', 'text', 'text', false], ['description', 'text', 'text', false], ['pending_committee_id', 'smallint(5) unsigned', 'smallint', false],
    ['legiscan_url', 'varchar(255)', 'character varying(255)', false], ['state_url', 'varchar(255)', 'character varying(255)', false], ['change_hash', 'char(32)', 'character(32)', false], ...TS,
  ],
  ls_bill_amendment: [
    ['amendment_id', 'mediumint(8) unsigned', 'integer', false], ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['adopted', 'tinyint(3) unsigned', 'smallint', false],
    ['amendment_body_id', 'tinyint(3) unsigned', 'smallint', false], ['amendment_mime_id', 'tinyint(3) unsigned', 'smallint', false], ['amendment_date', 'date', 'date', true],
    ['amendment_title', 'varchar(255)', 'character varying(255)', false], ['amendment_desc', 'text', 'text', false], ['amendment_size', 'mediumint(8) unsigned', 'integer', false],
    ['amendment_hash', 'char(32)', 'character(32)', true], ...DOC('amendment'),
  ],
  ls_bill_calendar: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['event_hash', 'char(8)', 'character(8)', false], ['event_type_id', 'tinyint(3) unsigned', 'smallint', false],
    ['event_date', 'date', 'date', true], ['event_time', 'time', 'time without time zone', true], ['event_location', 'varchar(64)', 'character varying(64)', false],
    ['event_desc', 'varchar(128)', 'character varying(128)', false], ['updated', 'timestamp', 'timestamp without time zone', false], ['created', 'timestamp', 'timestamp without time zone', true],
  ],
  ls_bill_history: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['history_step', 'smallint(5) unsigned', 'smallint', false], ['history_major', 'tinyint(3) unsigned', 'smallint', false],
    ['history_body_id', 'tinyint(3) unsigned', 'smallint', false], ['history_date', 'date', 'date', true], ['history_action', 'text', 'text', false],
  ],
  ls_bill_progress: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['progress_step', 'tinyint(3) unsigned', 'smallint', false], ['progress_date', 'date', 'date', true],
    ['progress_event_id', 'tinyint(3) unsigned', 'smallint', false],
  ],
  ls_bill_referral: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['referral_step', 'tinyint(3) unsigned', 'smallint', false], ['referral_date', 'date', 'date', true],
    ['committee_id', 'smallint(5) unsigned', 'smallint', false],
  ],
  ls_bill_sast: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['sast_type_id', 'tinyint(3) unsigned', 'smallint', false], ['sast_bill_id', 'mediumint(8) unsigned', 'integer', false],
    ['sast_bill_number', 'varchar(10)', 'character varying(10)', true],
  ],
  ls_bill_sponsor: [
    ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['people_id', 'smallint(5) unsigned', 'smallint', false], ['sponsor_order', 'smallint(5) unsigned', 'smallint', false],
    ['sponsor_type_id', 'tinyint(3) unsigned', 'smallint', false],
  ],
  ls_bill_subject: [['bill_id', 'mediumint(8) unsigned', 'integer', false], ['subject_id', 'mediumint(8) unsigned', 'integer', false]],
  ls_bill_supplement: [
    ['supplement_id', 'mediumint(8) unsigned', 'integer', false], ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['supplement_type_id', 'tinyint(3) unsigned', 'smallint', false],
    ['supplement_mime_id', 'tinyint(3) unsigned', 'smallint', false], ['supplement_date', 'date', 'date', true], ['supplement_title', 'varchar(255)', 'character varying(255)', false],
    ['supplement_desc', 'text', 'text', false], ['supplement_size', 'mediumint(8) unsigned', 'integer', false], ['supplement_hash', 'char(32)', 'character(32)', true], ...DOC('supplement'),
  ],
  ls_bill_text: [
    ['text_id', 'mediumint(8) unsigned', 'integer', false], ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['bill_text_type_id', 'tinyint(3) unsigned', 'smallint', false],
    ['bill_text_mime_id', 'tinyint(3) unsigned', 'smallint', false], ['bill_text_date', 'date', 'date', true], ['bill_text_size', 'mediumint(8) unsigned', 'integer', false],
    ['bill_text_hash', 'char(32)', 'character(32)', true], ...DOC('bill_text'),
  ],
  ls_bill_vote: [
    ['roll_call_id', 'mediumint(8) unsigned', 'integer', false], ['bill_id', 'mediumint(8) unsigned', 'integer', false], ['roll_call_body_id', 'tinyint(3) unsigned', 'smallint', false],
    ['roll_call_date', 'date', 'date', true], ['roll_call_desc', 'varchar(255)', 'character varying(255)', false], ['yea', 'smallint(5) unsigned', 'smallint', false],
    ['nay', 'smallint(5) unsigned', 'smallint', false], ['nv', 'smallint(5) unsigned', 'smallint', false], ['absent', 'smallint(5) unsigned', 'smallint', false],
    ['total', 'smallint(5) unsigned', 'smallint', false], ['passed', 'tinyint(3) unsigned', 'smallint', false], ['legiscan_url', 'varchar(255)', 'character varying(255)', false],
    ['state_url', 'varchar(255)', 'character varying(255)', false], ...TS,
  ],
  ls_bill_vote_detail: [
    ['roll_call_id', 'mediumint(8) unsigned', 'integer', false], ['people_id', 'smallint(5) unsigned', 'smallint', false], ['vote_id', 'tinyint(3) unsigned', 'smallint', false],
  ],
  ls_committee: [
    ['committee_id', 'smallint(5) unsigned', 'smallint', false], ['committee_body_id', 'tinyint(3) unsigned', 'smallint', false], ['committee_name', 'varchar(128)', 'character varying(128)', false],
  ],
  ls_people: [
    ['people_id', 'smallint(5) unsigned', 'smallint', false], ['state_id', 'tinyint(3) unsigned', 'smallint', false], ['role_id', 'tinyint(3) unsigned', 'smallint', false],
    ['party_id', 'tinyint(3) unsigned', 'smallint', false], ['name', 'varchar(128)', 'character varying(128)', false], ['first_name', 'varchar(32)', 'character varying(32)', false],
    ['middle_name', 'varchar(32)', 'character varying(32)', false], ['last_name', 'varchar(32)', 'character varying(32)', false], ['suffix', 'varchar(32)', 'character varying(32)', false],
    ['nickname', 'varchar(32)', 'character varying(32)', false], ['district', 'varchar(9)', 'character varying(9)', true], ['committee_sponsor_id', 'smallint(5) unsigned', 'smallint', false],
    ['ballotpedia', 'varchar(64)', 'character varying(64)', true], ['followthemoney_eid', 'bigint(20) unsigned', 'bigint', false], ['votesmart_id', 'mediumint(8) unsigned', 'integer', false],
    ['knowwho_pid', 'mediumint(8) unsigned', 'integer', false], ['opensecrets_id', 'char(9)', 'character(9)', true], ['person_hash', 'char(8)', 'character(8)', false], ...TS,
  ],
  ls_session: [
    ['session_id', 'smallint(5) unsigned', 'smallint', false], ['state_id', 'tinyint(3) unsigned', 'smallint', false], ['year_start', 'smallint(5) unsigned', 'smallint', false],
    ['year_end', 'smallint(5) unsigned', 'smallint', false], ['prefile', 'tinyint(3) unsigned', 'smallint', false], ['sine_die', 'tinyint(3) unsigned', 'smallint', false],
    ['prior', 'tinyint(3) unsigned', 'smallint', false], ['special', 'tinyint(3) unsigned', 'smallint', false], ['session_name', 'varchar(64)', 'character varying(64)', false],
    ['session_title', 'varchar(64)', 'character varying(64)', false], ['session_tag', 'varchar(32)', 'character varying(32)', false], ['import_date', 'date', 'date', true],
    ['import_hash', 'char(32)', 'character(32)', true],
  ],
  ls_subject: [['subject_id', 'mediumint(8) unsigned', 'integer', false], ['state_id', 'tinyint(3) unsigned', 'smallint', false], ['subject_name', 'varchar(128)', 'character varying(128)', false]],
};
