// Votes, legislators, committees, hearings, reference, topics, subjects and candidates.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { F } from '../helpers/fixtures.js';
import { keys, sorted, useFixtureApp } from './helpers.js';
import { STATE_CODES } from '../../src/domain/states.js';
import { stateIdOf } from '../../src/domain/states.js';

const r = useFixtureApp();
const P = F.people;

describe('reference', () => {
  it('/v1/states: 52 rows alphabetical by code, cacheable one hour, ids agree with STATE_CODES', async () => {
    const { status, body, headers } = await r.get('/v1/states');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(52);
    const codes = body.data.map((s: any) => s.state_abbr);
    expect(codes).toEqual([...codes].sort());
    expect(keys(body.data[0])).toEqual(['capitol', 'state_abbr', 'state_id', 'state_name']);
    expect(headers['cache-control']).toBe('private, max-age=3600');
    for (const s of body.data) expect(stateIdOf(s.state_abbr)).toBe(s.state_id);
    expect(STATE_CODES).toHaveLength(52);
  });

  it('/v1/sessions: newest first, state filter, clamped limit, 400 on bad state', async () => {
    const all = await r.get('/v1/sessions');
    expect(all.body.data.map((s: any) => s.session_id)).toEqual([
      F.sessions.fl2026,
      F.sessions.tx2025,
      F.sessions.tx2023,
    ]);
    expect(all.headers['cache-control']).toBe('private, max-age=3600');
    expect(keys(all.body.data[0])).toEqual(
      sorted([
        'session_id',
        'state_id',
        'state_abbr',
        'year_start',
        'year_end',
        'special',
        'session_tag',
        'session_title',
        'session_name',
        'sine_die',
        'session_start_date',
        'actual_sine_die_date',
        'expected_sine_die_date',
        'prefile',
        'prior',
        'source_url',
      ]),
    );
    expect(all.body.data[0]).toMatchObject({
      session_start_date: null,
      actual_sine_die_date: null,
      expected_sine_die_date: '2026-03-13',
      prefile: 1,
    });
    expect((await r.get('/v1/sessions?state=tx')).body.data.map((s: any) => s.session_id)).toEqual([
      F.sessions.tx2025,
      F.sessions.tx2023,
    ]);
    expect((await r.get('/v1/sessions?limit=1')).body.data).toHaveLength(1);
    expect((await r.get('/v1/sessions?limit=9999')).body.data).toHaveLength(3);
    expect((await r.get('/v1/sessions?state=ZZ')).status).toBe(400);
  });
});

describe('votes', () => {
  it('summary keeps the header tallies; details are ordered by surname with readable names', async () => {
    const s = await r.get(`/v1/votes/${F.rollCalls.senate}`);
    expect(s.body.data).toEqual({
      roll_call_id: 302,
      bill_id: F.bills.hb1,
      roll_call_body_id: 92,
      body: 'Senate',
      vote_date: '2026-03-02',
      description: 'Committee report',
      yea: 20,
      nay: 10,
      nv: 0,
      absent: 1,
      total: 31,
      passed: 1,
      state_url: 'https://capitol.texas.gov/rc302',
    });
    const d = await r.get(`/v1/votes/${F.rollCalls.house}/details`);
    expect(d.body.data.map((x: any) => x.name)).toEqual(['Carlos Adams', 'Alice Brown', 'Dana Brown']);
    expect(d.body.data.map((x: any) => x.vote)).toEqual(['Nay', 'Yea', 'Yea']);
    expect(keys(d.body.data[0])).toEqual(['district', 'name', 'party_name', 'people_id', 'vote']);
    expect(d.body.summary).toEqual({ roll_call_id: 301, total: 3 });
    const d2 = await r.get(`/v1/votes/${F.rollCalls.senate}/details`);
    expect(d2.body.summary).toEqual({ roll_call_id: 302, total: 2 }); // rows returned, not the header's 31
    expect(d2.body.data.map((x: any) => x.vote)).toEqual(['Yea', 'Absent']);
  });

  it('404 and 400', async () => {
    for (const u of ['/v1/votes/9999', '/v1/votes/9999/details', '/v1/votes/99999999999'])
      expect((await r.get(u)).status, u).toBe(404);
    for (const u of ['/v1/votes/abc', '/v1/votes/1e3/details', '/v1/votes/-1'])
      expect((await r.get(u)).status, u).toBe(400);
  });
});

const LEGISLATOR_FIELDS = sorted([
  'people_id',
  'state_id',
  'state_abbr',
  'role_id',
  'chamber',
  'party_id',
  'party_name',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'nickname',
  'district',
  'ballotpedia',
  'followthemoney_eid',
  'votesmart_id',
  'opensecrets_id',
  'updated',
]);

describe('legislators', () => {
  const names = (b: any) => b.data.map((x: any) => x.name);
  it('roster ordered by state then surname, with paging', async () => {
    const all = await r.get('/v1/legislators');
    expect(names(all.body)).toEqual(['Evan Clark', 'Carlos Adams', 'Alice Brown', 'Dana Brown', 'Frank Young']);
    expect(all.body.pagination).toEqual({ limit: 100, offset: 0, returned: 5 });
    expect(keys(all.body.data[0])).toEqual(LEGISLATOR_FIELDS);
    expect(all.body.data[2]).toMatchObject({
      people_id: P.alice,
      updated: '2026-01-02T03:04:05.000Z',
      nickname: 'Ally',
    });
    expect((await r.get('/v1/legislators?limit=2&offset=1')).body.pagination).toEqual({
      limit: 2,
      offset: 1,
      returned: 2,
    });
    expect((await r.get('/v1/legislators?limit=5000')).body.pagination.limit).toBe(500);
  });

  it('filters alone and combined', async () => {
    expect(names((await r.get('/v1/legislators?state=FL')).body)).toEqual(['Evan Clark']);
    expect(names((await r.get('/v1/legislators?q=brown')).body)).toEqual(['Alice Brown', 'Dana Brown']);
    expect(names((await r.get('/v1/legislators?q=ALICE')).body)).toEqual(['Alice Brown']);
    expect(names((await r.get('/v1/legislators?q=alice%20brown')).body)).toEqual(['Alice Brown']);
    expect(names((await r.get('/v1/legislators?party=republican')).body)).toEqual(['Carlos Adams', 'Dana Brown']);
    expect(names((await r.get('/v1/legislators?party=dem')).body)).toEqual(['Evan Clark', 'Alice Brown']);
    expect(names((await r.get('/v1/legislators?party=I')).body)).toEqual(['Frank Young']);
    expect(names((await r.get('/v1/legislators?chamber=senate')).body)).toEqual(['Carlos Adams']);
    expect(names((await r.get('/v1/legislators?district=HD-1')).body)).toEqual(['Alice Brown']);
    expect(names((await r.get('/v1/legislators?district=hd-1')).body)).toEqual([]);
    expect(names((await r.get('/v1/legislators?state=TX&chamber=House&party=Republican')).body)).toEqual([
      'Dana Brown',
    ]);
    expect((await r.get('/v1/legislators?state=QQ')).status).toBe(400);
  });

  it('one member by int64 id; 400 non-integer; 404 unknown', async () => {
    const one = await r.get(`/v1/legislators/${P.alice}`);
    expect(one.body.data.people_id).toBe(P.alice);
    expect(keys(one.body.data)).toEqual(LEGISLATOR_FIELDS);
    expect((await r.get('/v1/legislators/4294967296')).status).toBe(404);
    expect((await r.get('/v1/legislators/99999999999999999999999')).status).toBe(404);
    expect((await r.get('/v1/legislators/alice')).status).toBe(400);
    expect((await r.get('/v1/legislators/12.5')).status).toBe(400);
  });

  it('vote history newest first with whole roll-call tallies', async () => {
    const v = await r.get(`/v1/legislators/${P.alice}/votes`);
    expect(v.body.data.map((x: any) => [x.roll_call_id, x.vote_id, x.vote_name])).toEqual([
      [302, 4, 'Absent'],
      [301, 1, 'Yea'],
    ]);
    expect(keys(v.body.data[0])).toEqual(
      sorted([
        'roll_call_id',
        'vote_id',
        'vote_name',
        'roll_call_date',
        'body_id',
        'roll_call_desc',
        'yea',
        'nay',
        'nv',
        'absent',
        'total',
        'passed',
        'bill_id',
        'bill_number',
        'title',
        'state_abbr',
      ]),
    );
    expect(v.body.data[0]).toMatchObject({
      yea: 20,
      nay: 10,
      total: 31,
      bill_number: 'HB 1',
      state_abbr: 'TX',
      roll_call_date: '2026-03-02',
    });
    expect(v.body.pagination).toEqual({ limit: 50, offset: 0, returned: 2 });
    expect(
      (await r.get(`/v1/legislators/${P.alice}/votes?limit=1&offset=1`)).body.data.map((x: any) => x.roll_call_id),
    ).toEqual([301]);
    expect((await r.get(`/v1/legislators/${P.frank}/votes`)).body.data).toEqual([]);
    expect((await r.get('/v1/legislators/1/votes')).status).toBe(404);
  });

  it('sponsorships by most recent status', async () => {
    const b = await r.get(`/v1/legislators/${P.alice}/bills`);
    expect(b.body.data.map((x: any) => x.bill_id)).toEqual([F.bills.sb25, F.bills.hb1]);
    expect(keys(b.body.data[0])).toEqual(
      sorted([
        'sponsor_type_id',
        'sponsor_order',
        'bill_id',
        'bill_number',
        'title',
        'description',
        'status',
        'status_date',
        'state_abbr',
      ]),
    );
    expect(b.body.data[0]).toMatchObject({ status: 5, status_date: '2026-03-04', sponsor_type_id: 1 });
    expect((await r.get(`/v1/legislators/${P.frank}/bills`)).body).toEqual({
      data: [],
      pagination: { limit: 50, offset: 0, returned: 0 },
    });
    expect((await r.get('/v1/legislators/1/bills')).status).toBe(404);
    expect((await r.get(`/v1/legislators/${P.alice}/bills?offset=200000`)).status).toBe(400);
  });
});

const HEARING_FIELDS = sorted([
  'hearing_id',
  'state_code',
  'chamber',
  'committee_name',
  'hearing_title',
  'hearing_description',
  'hearing_date',
  'hearing_time',
  'hearing_datetime',
  'is_live',
  'status',
  'hearing_location',
  'room_number',
  'video_url',
  'video_source_type',
  'video_duration_seconds',
  'audio_url',
  'transcript_url',
  'transcript_text',
  'transcript_format',
  'has_captions',
  'participants',
  'bills_discussed',
  'topics',
  'tags',
  'source_url',
  'scrape_date',
  'last_updated',
  'view_count',
  'transcript_extracted_at',
  'transcript_polished_json',
  'transcript_polished_at',
]);

describe('committees and hearings', () => {
  const C = F.committees;
  it('list ordered by state, chamber, name with filters', async () => {
    const all = await r.get('/v1/committees');
    expect(all.body.data.map((c: any) => c.committee_id)).toEqual([C.flEd, C.houseEd, C.senFin]);
    expect(keys(all.body.data[0])).toEqual(
      sorted([
        'committee_id',
        'state_abbr',
        'chamber',
        'committee_name',
        'committee_type',
        'description',
        'chair_name',
        'vice_chair_name',
        'members_count',
        'website_url',
        'meeting_schedule',
      ]),
    );
    expect((await r.get('/v1/committees?state=TX')).body.data.map((c: any) => c.committee_id)).toEqual([
      C.houseEd,
      C.senFin,
    ]);
    expect((await r.get('/v1/committees?chamber=house')).body.data.map((c: any) => c.committee_id)).toEqual([
      C.flEd,
      C.houseEd,
    ]);
    expect((await r.get('/v1/committees?q=EDUC')).body.data.map((c: any) => c.committee_id)).toEqual([
      C.flEd,
      C.houseEd,
    ]);
    expect(
      (await r.get('/v1/committees?q=educ&state=TX&chamber=House')).body.data.map((c: any) => c.committee_id),
    ).toEqual([C.houseEd]);
    expect((await r.get('/v1/committees?limit=1')).body.data).toHaveLength(1);
    expect((await r.get('/v1/committees?state=T')).status).toBe(400);
  });

  it('one committee with derived chair, vice chair and member count', async () => {
    expect((await r.get(`/v1/committees/${C.houseEd}`)).body.data).toMatchObject({
      chair_name: 'Alice Brown',
      vice_chair_name: 'Dana Brown',
      members_count: 3,
    });
    expect((await r.get(`/v1/committees/${C.flEd}`)).body.data).toMatchObject({
      chair_name: '',
      vice_chair_name: '',
      members_count: 0,
    });
    expect((await r.get('/v1/committees/7')).status).toBe(404);
    expect((await r.get('/v1/committees/x')).status).toBe(400);
  });

  it('members ordered by role then name', async () => {
    const m = await r.get(`/v1/committees/${C.houseEd}/members`);
    expect(m.body.data.map((x: any) => x.member_role)).toEqual(['chair', 'vice chair', 'member']);
    expect(keys(m.body.data[0])).toEqual(
      sorted(['committee_id', 'people_id', 'name', 'party_id', 'party_name', 'member_role']),
    );
    expect((await r.get(`/v1/committees/${C.flEd}/members`)).body.data).toEqual([]);
    expect((await r.get('/v1/committees/7/members')).status).toBe(404);
  });

  it("a committee's hearings, most recent first; unknown committee 404", async () => {
    const h = await r.get(`/v1/committees/${C.houseEd}/hearings`);
    expect(h.body.data.map((x: any) => x.hearing_id)).toEqual([602, 601]);
    expect(keys(h.body.data[0])).toEqual(HEARING_FIELDS);
    expect(h.body.data[1]).toMatchObject({
      state_code: 'TX',
      hearing_datetime: '2026-02-10T14:00:00.000Z',
      video_url: 'https://tlchouse.granicus.com/v601',
      transcript_text: null,
      transcript_polished_json: null,
      participants: [{ name: 'Alice Brown', role: 'chair' }],
      bills_discussed: [{ bill_id: 101, bill_number: 'HB 1' }],
    });
    expect((await r.get(`/v1/committees/${C.senFin}/hearings`)).body.data).toEqual([]);
    expect((await r.get('/v1/committees/7/hearings')).body.error.code).toBe('not_found');
  });

  it('/v1/hearings: most recent first, state and since filters, 400 on malformed', async () => {
    const ids = async (q: string) => (await r.get(`/v1/hearings${q}`)).body.data.map((x: any) => x.hearing_id);
    expect(await ids('')).toEqual([602, 601, 603, 604]);
    expect(await ids('?state=TX')).toEqual([602, 601, 604]);
    expect(await ids('?since=2026-02-10')).toEqual([602, 601]);
    expect(await ids('?since=2026-02-10T23:00:00Z')).toEqual([602, 601]);
    expect(await ids('?since=2026-01-01&state=FL')).toEqual([603]);
    expect(await ids('?limit=1')).toEqual([602]);
    for (const q of ['since=last-week', 'since=2026-13-01', 'state=XYZ'])
      expect((await r.get(`/v1/hearings?${q}`)).status, q).toBe(400);
  });
});

describe('topics and subjects', () => {
  it('topics list and detail', async () => {
    const list = await r.get('/v1/topics');
    expect(list.body.data.length).toBeGreaterThan(30);
    expect(keys(list.body.data[0])).toEqual(
      sorted(['slug', 'display_name', 'description', 'emoji', 'sort_order', 'bill_count']),
    );
    const orders = list.body.data.map((t: any) => t.sort_order);
    expect(orders).toEqual([...orders].sort((a: number, b: number) => a - b));
    expect(list.body.data.find((t: any) => t.slug === 'education').bill_count).toBe(2);
    const d = await r.get('/v1/topics/education');
    expect(d.body.data).toBeUndefined();
    expect(d.body).toMatchObject({
      slug: 'education',
      bill_count: 2,
      raw_subjects_mapped: 2,
      sample_subjects: ['Education Finance', 'School Transportation'],
    });
    expect(keys(d.body)).toEqual(
      sorted([
        'slug',
        'display_name',
        'description',
        'emoji',
        'sort_order',
        'bill_count',
        'raw_subjects_mapped',
        'sample_subjects',
      ]),
    );
    expect((await r.get('/v1/topics/housing')).body).toMatchObject({
      bill_count: 0,
      raw_subjects_mapped: 0,
      sample_subjects: [],
    });
    expect((await r.get('/v1/topics/no-such-topic')).status).toBe(404);
    for (const s of ['Education', 'edu_cation', '-edu', 'edu--x'])
      expect((await r.get(`/v1/topics/${s}`)).status, s).toBe(400);
  });

  it('subjects by bill count, interface labels excluded, count = rows', async () => {
    const all = await r.get('/v1/subjects');
    expect(all.body.data.map((s: any) => s.subject_name)).toEqual([
      'Education Finance',
      'School Transportation',
      'Taxation',
      'Firearms',
    ]);
    expect(all.body.count).toBe(4);
    expect(keys(all.body.data[0])).toEqual(['bill_count', 'subject_id', 'subject_name']);
    expect((await r.get('/v1/subjects?state=FL')).body).toEqual({
      data: [{ subject_id: 404, subject_name: 'School Transportation', bill_count: 3 }],
      count: 1,
    });
    expect((await r.get('/v1/subjects?q=TION')).body.count).toBe(3);
    expect((await r.get('/v1/subjects?q=text')).body.count).toBe(0);
    expect((await r.get('/v1/subjects?state=TX&q=fire&limit=1')).body.data.map((s: any) => s.subject_id)).toEqual([
      405,
    ]);
    expect((await r.get('/v1/subjects?limit=2')).body.count).toBe(2);
    expect((await r.get('/v1/subjects?state=AA')).status).toBe(400);
  });
});

describe('candidates', () => {
  const C = F.candidates;
  const LIST = sorted([
    'id',
    'name',
    'party',
    'photo_url',
    'people_id',
    'fec_id',
    'office',
    'state',
    'district',
    'cycle',
    'incumbent_challenge',
    'bioguide_id',
  ]);
  it('list ordered by name with every filter', async () => {
    const all = await r.get('/v1/candidates');
    expect(all.body.data.map((c: any) => c.id)).toEqual([C.alice, C.maria, C.zed]);
    expect(all.body.pagination).toEqual({ limit: 50, offset: 0, returned: 3 });
    for (const c of all.body.data) expect(keys(c)).toEqual(LIST);
    expect(all.body.data[2]).toMatchObject({ people_id: null, fec_id: null, state: null, cycle: null });
    const ids = async (q: string) => (await r.get(`/v1/candidates?${q}`)).body.data.map((c: any) => c.id);
    expect(await ids('state=tx')).toEqual([C.alice]);
    expect(await ids('office=sen')).toEqual([C.maria]);
    expect(await ids('cycle=2024')).toEqual([C.maria]);
    expect(await ids('fec_id=H6TX01001')).toEqual([C.alice]);
    expect(await ids('bioguide=L000123')).toEqual([C.maria]);
    expect(await ids('state=FL&cycle=2026')).toEqual([]);
    expect(await ids('limit=1&offset=1')).toEqual([C.maria]);
    for (const q of ['state=Texas', 'state=T', 'cycle=26', 'cycle=20x6', 'cycle=20266'])
      expect((await r.get(`/v1/candidates?${q}`)).status, q).toBe(400);
  });

  it('detail with candidacies newest first; int64 id', async () => {
    const d = await r.get(`/v1/candidates/${C.alice}`);
    expect(keys(d.body.data)).toEqual(
      sorted([...LIST, 'bio', 'website', 'socials', 'bp_photo_url', 'bp_url', 'candidacies']),
    );
    expect(d.body.data.people_id).toBe(P.alice);
    expect(d.body.data.socials).toEqual({ twitter: 'alicebrown' });
    expect(d.body.data.candidacies.map((c: any) => c.election_year)).toEqual([2026, 2024, 2022]);
    expect(keys(d.body.data.candidacies[0])).toEqual(
      sorted([
        'contest_id',
        'party',
        'is_incumbent',
        'withdrew',
        'votes',
        'vote_pct',
        'is_winner',
        'header',
        'election_date',
        'office_name',
        'office_level',
        'chamber',
        'district',
        'election_year',
        'race_state',
      ]),
    );
    expect(d.body.data.candidacies[1]).toMatchObject({ vote_pct: 60.25, is_winner: true, election_date: '2024-11-05' });
    expect((await r.get(`/v1/candidates/${C.zed}`)).body.data.candidacies).toEqual([]);
    expect((await r.get('/v1/candidates/8000000000009')).status).toBe(404);
    expect((await r.get('/v1/candidates/abc')).status).toBe(400);
  });

  it('never answers 5xx to arbitrary filter values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          state: fc.string({ maxLength: 4 }),
          cycle: fc.string({ maxLength: 6 }),
          office: fc.string({ maxLength: 8 }),
        }),
        async (q) => {
          const res = await r.get(`/v1/candidates?${new URLSearchParams(q).toString()}`);
          expect([200, 400]).toContain(res.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});
