// A small, explicit corpus with known values: two states (TX, FL), sessions, people (ids above
// 2^32), bills with every sub-resource, roll calls, subjects and topics, committees, hearings and
// candidates. Tests assert against the constants exported here.
import type { Queryable } from '../../src/db/pool.js';

export const TEXT_V1 =
  'SECTION 1. Title.\nThis act may be cited as the School Finance Act.\nSECTION 2. Funding.\nThe state shall fund schools.\n';
export const TEXT_V2 =
  'SECTION 1. Title.\nThis act may be cited as the School Finance Act.\nSECTION 2. Funding.\nThe state shall fully fund public schools.\nSECTION 3. Effective date.\nThis act takes effect September 1, 2026.\n';
/** the same words as TEXT_V2, with different spacing: a whitespace-only change */
export const TEXT_V3 = TEXT_V2.replace('fully fund', 'fully   fund').replace('Title.\n', 'Title.  \n');

export const F = {
  sessions: { tx2025: 9001, tx2023: 9002, fl2026: 9003 },
  people: { alice: 4294967297, carlos: 4294967298, dana: 4294967299, evan: 4294967300, frank: 4294967301 },
  bills: { hb1: 101, sb25: 102, flhb7: 103, hb1old: 104, hr3: 105 },
  texts: { v1: 201, v2: 202, v3: 203 },
  rollCalls: { house: 301, senate: 302 },
  subjects: { eduFinance: 401, billText: 402, taxation: 403, schoolTransport: 404, firearms: 405 },
  committees: { houseEd: 501, senFin: 502, flEd: 503 },
  hearings: { h1: 601, h2: 602, fl: 603, noCommittee: 604 },
  candidates: { alice: 8000000000001, zed: 8000000000002, maria: 8000000000003 },
} as const;

export async function buildFixture(db: Queryable): Promise<typeof F> {
  const { sessions: S, people: P, bills: B, texts: T, rollCalls: R, subjects: SU, committees: C } = F;
  await db.query(`INSERT INTO sessions (session_id, state_id, year_start, year_end, special, session_tag, session_title, session_name, sine_die,
      session_start_date, actual_sine_die_date, expected_sine_die_date, prefile, prior, source_url, source) VALUES
    (${S.tx2025}, 43, 2025, 2026, 0, 'Regular Session', '89th Legislature', '89th Legislature Regular Session', 0, '2025-01-14', NULL, '2026-06-02', 0, 0, 'https://capitol.texas.gov/89R', 'demo'),
    (${S.tx2023}, 43, 2023, 2024, 0, 'Regular Session', '88th Legislature', '88th Legislature Regular Session', 1, '2023-01-10', '2023-05-29', '2023-05-29', 0, 1, 'https://capitol.texas.gov/88R', 'demo'),
    (${S.fl2026}, 9, 2026, 2026, 0, 'Regular Session', '2026 Session', '2026 Regular Session', 0, NULL, NULL, '2026-03-13', 1, 0, 'https://flsenate.gov/2026', 'demo')`);
  await db.query(`INSERT INTO people (people_id, state_id, role_id, chamber, body_id, party_id, party_name, name, first_name, middle_name, last_name,
      suffix, nickname, district, ballotpedia, followthemoney_eid, votesmart_id, opensecrets_id, updated) VALUES
    (${P.alice}, 43, 1, 'House', 91, 1, 'Democrat', 'Alice Brown', 'Alice', 'M', 'Brown', '', 'Ally', 'HD-1', 'Alice_Brown', '111', '2001', 'N0001', '2026-01-02T03:04:05Z'),
    (${P.carlos}, 43, 2, 'Senate', 92, 2, 'Republican', 'Carlos Adams', 'Carlos', '', 'Adams', 'Jr.', '', 'SD-5', '', '', '', '', '2026-01-02T03:04:05Z'),
    (${P.dana}, 43, 1, 'House', 91, 2, 'Republican', 'Dana Brown', 'Dana', '', 'Brown', '', '', 'HD-2', '', '', '', '', '2026-01-02T03:04:05Z'),
    (${P.evan}, 9, 1, 'House', 27, 1, 'Democrat', 'Evan Clark', 'Evan', '', 'Clark', '', '', 'HD-7', '', '', '', '', '2026-01-02T03:04:05Z'),
    (${P.frank}, 43, 1, 'House', 91, 3, 'Independent', 'Frank Young', 'Frank', '', 'Young', '', '', 'HD-3', '', '', '', '', '2026-01-02T03:04:05Z')`);
  await db.query(`INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, bill_type_id, body_id, current_body_id, status_id,
      status_date, title, description, state_url, updated, created, change_hash, content_hash, summary, last_action, completed, pending_committee_id, subject_names) VALUES
    (${B.hb1}, 43, ${S.tx2025}, 'HB 1', 'HB1', 1, 91, 92, 2, '2026-02-01', 'Relating to public school finance', 'An act relating to funding of public schools',
      'https://capitol.texas.gov/HB1', '2026-03-05T10:00:00Z', '2025-11-01T09:00:00Z', 'ch1', 'co1', 'Raises the basic allotment.', 'Referred to Senate Finance', NULL, ${C.senFin}, 'Education Finance Taxation'),
    (${B.sb25}, 43, ${S.tx2025}, 'SB 25', 'SB25', 1, 92, 92, 5, '2026-03-04', 'Relating to firearm storage', 'An act relating to safe storage of firearms',
      'https://capitol.texas.gov/SB25', '2026-03-04T10:00:00Z', '2025-11-02T09:00:00Z', 'ch2', 'co2', NULL, 'Signed by the Governor', 1, NULL, 'Firearms'),
    (${B.flhb7}, 9, ${S.fl2026}, 'HB 0007', 'HB7', 1, 27, 27, 1, '2026-01-13', 'Relating to school buses and transportation', 'Student transportation safety',
      'https://flsenate.gov/HB7', '2026-03-06T10:00:00Z', '2026-01-13T09:00:00Z', 'ch3', 'co3', NULL, NULL, NULL, NULL, 'School Transportation'),
    (${B.hb1old}, 43, ${S.tx2023}, 'HB 1', 'HB1', 1, 91, 91, 7, '2023-05-29', 'Relating to water rights', 'An act relating to groundwater',
      'https://capitol.texas.gov/88R/HB1', '2026-01-01T00:00:00Z', '2023-01-10T09:00:00Z', 'ch4', 'co4', NULL, 'Died in committee', 1, NULL, ''),
    (${B.hr3}, 43, ${S.tx2025}, 'HR 3', 'HR3', 2, 91, 91, 1, NULL, 'Commending the Texas Rangers', 'A resolution commending the Texas Rangers',
      'https://capitol.texas.gov/HR3', '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z', 'ch5', 'co5', NULL, NULL, NULL, NULL, '')`);
  await db.query(`INSERT INTO bill_sponsors (bill_id, people_id, sponsor_order, sponsor_type_id) VALUES
    (${B.hb1}, ${P.dana}, 3, 2), (${B.hb1}, ${P.alice}, 1, 1), (${B.hb1}, ${P.carlos}, 2, 2), (${B.sb25}, ${P.alice}, 1, 1), (${B.flhb7}, ${P.evan}, 1, 1)`);
  await db.query(`INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major) VALUES
    (${B.hb1}, 2, '2026-01-20', 'Referred to House Education', 91, 0), (${B.hb1}, 1, '2025-11-01', 'Filed', 91, 1),
    (${B.hb1}, 3, '2026-02-15', 'Passed the House', 91, 1)`);
  await db.query(
    `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, size_bytes, word_count, state_url, content, created) VALUES
    (${T.v2}, ${B.hb1}, 2, '2026-02-01', 1200, 180, 'https://capitol.texas.gov/HB1/v2', $1, '2026-02-01T12:00:00Z'),
    (${T.v1}, ${B.hb1}, 1, '2025-11-01', 1000, 150, 'https://capitol.texas.gov/HB1/v1', $2, '2025-11-01T12:00:00Z'),
    (${T.v3}, ${B.hb1}, 4, '2026-03-01', 1210, 180, 'https://capitol.texas.gov/HB1/v3', $3, '2026-03-01T12:00:00Z')`,
    [TEXT_V2, TEXT_V1, TEXT_V3],
  );
  await db.query(`INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url) VALUES
    (${R.house}, ${B.hb1}, 91, '2026-02-15', 'Third reading', 2, 1, 0, 0, 3, 1, 'https://capitol.texas.gov/rc301'),
    (${R.senate}, ${B.hb1}, 92, '2026-03-02', 'Committee report', 20, 10, 0, 1, 31, 1, 'https://capitol.texas.gov/rc302')`);
  await db.query(`INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) VALUES
    (${R.house}, ${P.alice}, 1), (${R.house}, ${P.carlos}, 2), (${R.house}, ${P.dana}, 1), (${R.senate}, ${P.carlos}, 1), (${R.senate}, ${P.alice}, 4)`);
  await db.query(`INSERT INTO subjects (subject_id, state_id, subject_name, is_interface_label, bill_count) VALUES
    (${SU.eduFinance}, 43, 'Education Finance', false, 5), (${SU.billText}, 43, 'Bill Text', true, 9), (${SU.taxation}, 43, 'Taxation', false, 2),
    (${SU.schoolTransport}, 9, 'School Transportation', false, 3), (${SU.firearms}, 43, 'Firearms', false, 1)`);
  await db.query(`INSERT INTO bill_subjects (bill_id, subject_id) VALUES (${B.hb1}, ${SU.eduFinance}), (${B.hb1}, ${SU.billText}), (${B.hb1}, ${SU.taxation}),
    (${B.flhb7}, ${SU.schoolTransport}), (${B.sb25}, ${SU.firearms})`);
  // education = 15, firearms = 21, budget-appropriations = 6 (002_reference_data.sql)
  await db.query(`INSERT INTO subject_topics (subject_id, topic_id) VALUES (${SU.eduFinance}, 15), (${SU.schoolTransport}, 15), (${SU.billText}, 15),
    (${SU.firearms}, 21), (${SU.taxation}, 6)`);
  await db.query(
    `INSERT INTO bill_topics (bill_id, topic_id) VALUES (${B.hb1}, 15), (${B.flhb7}, 15), (${B.sb25}, 21), (${B.hb1}, 6)`,
  );
  await db.query(`INSERT INTO amendments (amendment_id, bill_id, adopted, amendment_body_id, amendment_date, amendment_title, amendment_desc, state_url) VALUES
    (801, ${B.hb1}, 1, 91, '2026-02-14', 'Floor Amendment 1', 'Adds effective date', 'https://capitol.texas.gov/a801'),
    (802, ${B.hb1}, 0, 92, '2026-03-01', 'Committee Amendment 1', 'Strikes section 3', 'https://capitol.texas.gov/a802')`);
  await db.query(`INSERT INTO committees (committee_id, state_id, body_id, chamber, committee_name, committee_type, description, website_url, meeting_schedule) VALUES
    (${C.houseEd}, 43, 91, 'House', 'House Education', 'standing', 'Public education', 'https://house.texas.gov/ed', 'Tuesdays 8:00'),
    (${C.senFin}, 43, 92, 'Senate', 'Senate Finance', 'standing', 'State finance', 'https://senate.texas.gov/fin', ''),
    (${C.flEd}, 9, 27, 'House', 'Education Committee', 'standing', '', '', '')`);
  await db.query(`INSERT INTO committee_members (committee_id, people_id, member_role) VALUES
    (${C.houseEd}, ${P.frank}, 'member'), (${C.houseEd}, ${P.dana}, 'vice chair'), (${C.houseEd}, ${P.alice}, 'chair'), (${C.senFin}, ${P.carlos}, 'chair')`);
  await db.query(`INSERT INTO bill_referrals (bill_id, referral_step, committee_id, committee_name, referral_date) VALUES
    (${B.hb1}, 2, ${C.senFin}, '', '2026-02-20'), (${B.hb1}, 1, ${C.houseEd}, 'House Education', '2026-01-20')`);
  await db.query(`INSERT INTO bill_calendar (bill_id, event_hash, event_type_id, event_date, event_time, event_location, event_desc) VALUES
    (${B.hb1}, 'e1', 1, '2026-01-25', '08:00', 'E2.036', 'Public hearing'), (${B.hb1}, 'e2', 2, '2026-02-25', '10:00', 'E1.038', 'Formal meeting')`);
  await db.query(`INSERT INTO supplements (supplement_id, bill_id, supplement_type_id, supplement_date, title, description, state_url, supplement_mime_id, supplement_size) VALUES
    (901, ${B.hb1}, 1, '2026-01-21', 'Fiscal Note', 'Cost estimate', 'https://capitol.texas.gov/fn1', 2, 5000),
    (902, ${B.hb1}, 2, '2026-02-21', 'Bill Analysis', 'Committee analysis', 'https://capitol.texas.gov/ba1', 2, 7000)`);
  await db.query(
    `INSERT INTO bill_sasts (bill_id, sast_type_id, sast_bill_id, sast_bill_number) VALUES (${B.hb1}, 1, 999, 'SB 2')`,
  );
  await db.query(`INSERT INTO bill_citations (id, bill_id, citation_type, citation_number, catchline, bill_page, state_url, created) VALUES
    (1, ${B.hb1}, 'Education Code', '48.051', 'Basic allotment', '3', 'https://statutes.capitol.texas.gov/ED/48.051', '2026-02-02T00:00:00Z')`);
  await db.query(`INSERT INTO bill_analyses (id, bill_id, analysis_type, analysis_title, author, analysis_date, state_url, created) VALUES
    (1, ${B.hb1}, 'Bill Analysis', 'House Research Organization analysis', 'HRO', '2026-02-10', 'https://hro.house.texas.gov/hb1', '2026-02-11T00:00:00Z')`);
  await db.query(`INSERT INTO hearings (hearing_id, state_id, committee_id, chamber, committee_name, hearing_title, hearing_date, hearing_time, hearing_datetime,
      is_live, status, video_url, participants, bills_discussed, scrape_date, last_updated) VALUES
    (601, 43, ${C.houseEd}, 'House', 'House Education', 'Public hearing on HB 1', '2026-02-10', '08:00', '2026-02-10T14:00:00Z', false, 'completed',
      'https://tlchouse.granicus.com/v601', '[{"name":"Alice Brown","role":"chair"}]', '[{"bill_id":101,"bill_number":"HB 1"}]', '2026-02-11T00:00:00Z', '2026-02-11T00:00:00Z'),
    (602, 43, ${C.houseEd}, 'House', 'House Education', 'Formal meeting', '2026-03-01', '10:00', NULL, true, 'live', NULL, '[]', '[]', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z'),
    (603, 9, ${C.flEd}, 'House', 'Education Committee', 'Organizational meeting', '2026-01-15', '', NULL, false, 'scheduled', NULL, '[]', '[]', '2026-01-10T00:00:00Z', '2026-01-10T00:00:00Z'),
    (604, 43, NULL, 'Joint', 'Joint Interim Hearing', 'Interim charges', '2025-12-01', '', NULL, false, 'completed', NULL, '[]', '[]', '2025-12-02T00:00:00Z', '2025-12-02T00:00:00Z')`);
  const c = F.candidates;
  await db.query(`INSERT INTO candidates (id, name, party, photo_url, people_id, fec_id, office, state, district, cycle, incumbent_challenge, bioguide_id,
      bio, website, socials, bp_photo_url, bp_url) VALUES
    (${c.alice}, 'Alice Brown', 'Democratic', 'https://img/alice.jpg', ${P.alice}, 'H6TX01001', 'House', 'TX', '01', 2026, 'I', NULL,
      'Teacher and legislator.', 'https://alicebrown.example', '{"twitter":"alicebrown"}', 'https://bp/alice.jpg', 'https://ballotpedia.org/Alice_Brown'),
    (${c.zed}, 'Zed Challenger', 'Independent', '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', '', '{}', '', ''),
    (${c.maria}, 'Maria Lopez', 'Republican', '', NULL, 'S4FL00001', 'Senate', 'FL', NULL, 2024, 'C', 'L000123', '', '', '{}', '', '')`);
  await db.query(`INSERT INTO candidacies (candidate_id, contest_id, party, is_incumbent, withdrew, votes, vote_pct, is_winner, header, election_date,
      office_name, office_level, chamber, district, election_year, race_state) VALUES
    (${c.alice}, 11, 'Democratic', false, false, 20000, 51.5, true, 'TX House 1 general', '2022-11-08', 'State Representative', 'state', 'House', '1', 2022, 'TX'),
    (${c.alice}, 13, 'Democratic', true, false, 0, 0, false, 'TX House 1 general', '2026-11-03', 'State Representative', 'state', 'House', '1', 2026, 'TX'),
    (${c.alice}, 12, 'Democratic', true, false, 25000, 60.25, true, 'TX House 1 general', '2024-11-05', 'State Representative', 'state', 'House', '1', 2024, 'TX')`);
  return F;
}
