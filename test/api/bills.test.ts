// GET /v1/bills and /v1/bills/{id} with its sub-resources, against the fixture corpus.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { F } from '../helpers/fixtures.js';
import { keys, sorted, useFixtureApp } from './helpers.js';
import { billNumberKey } from '../../src/domain/bill-number.js';

const r = useFixtureApp();
const B = F.bills;
const ids = (body: { data: Array<{ bill_id: number }> }) => body.data.map((b) => b.bill_id);

const BILL_FIELDS = sorted([
  'bill_id',
  'state_id',
  'state_abbr',
  'session_id',
  'bill_number',
  'bill_type_id',
  'bill_type_name',
  'body_id',
  'current_body_id',
  'status_id',
  'status_date',
  'title',
  'description',
  'state_url',
  'updated',
  'created',
  'change_hash',
  'content_hash',
  'summary',
  'last_action',
  'completed',
  'pending_committee_id',
]);

describe('GET /v1/bills', () => {
  it('lists newest-updated first with the spec field set and default paging', async () => {
    const { status, body } = await r.get('/v1/bills');
    expect(status).toBe(200);
    expect(ids(body)).toEqual([B.flhb7, B.hb1, B.sb25, B.hr3, B.hb1old]);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, returned: 5 });
    for (const b of body.data) expect(keys(b)).toEqual(BILL_FIELDS);
    const hb1 = body.data[1];
    expect(hb1).toMatchObject({
      state_abbr: 'TX',
      bill_number: 'HB 1',
      bill_type_name: 'Bill',
      status_date: '2026-02-01',
      updated: '2026-03-05T10:00:00.000Z',
      summary: 'Raises the basic allotment.',
      completed: null,
      pending_committee_id: F.committees.senFin,
    });
    expect(body.data[2]).toMatchObject({ summary: null, completed: 1, pending_committee_id: null });
  });

  it('clamps limit and pages with offset', async () => {
    expect((await r.get('/v1/bills?limit=100000')).body.pagination.limit).toBe(500);
    expect((await r.get('/v1/bills?limit=0')).body.pagination.limit).toBe(1);
    const p = await r.get('/v1/bills?limit=2&offset=2');
    expect(ids(p.body)).toEqual([B.sb25, B.hr3]);
    expect(p.body.pagination).toEqual({ limit: 2, offset: 2, returned: 2 });
    expect((await r.get('/v1/bills?offset=100001')).status).toBe(400);
  });

  it('filters by state (case-insensitive), session, status and updated_since', async () => {
    expect(ids((await r.get('/v1/bills?state=fl')).body)).toEqual([B.flhb7]);
    expect(ids((await r.get(`/v1/bills?session_id=${F.sessions.tx2023}`)).body)).toEqual([B.hb1old]);
    expect(ids((await r.get('/v1/bills?status_id=5')).body)).toEqual([B.sb25]);
    expect(ids((await r.get('/v1/bills?updated_since=2026-03-05')).body)).toEqual([B.flhb7, B.hb1]);
    expect(ids((await r.get('/v1/bills?updated_since=2026-03-05T10:00:00Z')).body)).toEqual([B.flhb7, B.hb1]);
    expect(ids((await r.get('/v1/bills?updated_since=2026-03-05T10:00:01Z')).body)).toEqual([B.flhb7]);
  });

  it('finds a bill number in compact and padded form', async () => {
    expect(ids((await r.get('/v1/bills?bill_number=HB1')).body)).toEqual([B.hb1, B.hb1old]);
    expect(ids((await r.get('/v1/bills?bill_number=HB0001&state=TX&session_id=9001')).body)).toEqual([B.hb1]);
    expect(ids((await r.get('/v1/bills?bill_number=hb%207')).body)).toEqual([B.flhb7]);
    expect(ids((await r.get('/v1/bills?bill_number=HB0007')).body)).toEqual([B.flhb7]);
    expect(billNumberKey('H.B. 0010')).toBe('HB10');
    expect(billNumberKey('SB100')).toBe('SB100');
  });

  it('searches title, description and subject names (stemmed), newest-updated first', async () => {
    expect(ids((await r.get('/v1/bills?q=school')).body)).toEqual([B.flhb7, B.hb1]); // newest-updated first
    expect(ids((await r.get('/v1/bills?q=groundwater')).body)).toEqual([B.hb1old]);
    expect(ids((await r.get('/v1/bills?q=taxation')).body)).toEqual([B.hb1]);
    expect(ids((await r.get('/v1/bills?q=school%20-buses')).body)).toEqual([B.hb1]);
    // stemming: "firearms" finds SB 25's "firearm"
    expect(ids((await r.get('/v1/bills?q=firearms')).body)).toEqual([B.sb25]);
    expect((await r.get('/v1/bills?q=zzzqqq')).body.data).toEqual([]);
  });

  it('filters by topic, subject, sponsor last name and title substring', async () => {
    expect(ids((await r.get('/v1/bills?topic=education')).body)).toEqual([B.flhb7, B.hb1]);
    expect(ids((await r.get('/v1/bills?topic=housing')).body)).toEqual([]);
    expect(ids((await r.get('/v1/bills?subject=education%20FINANCE')).body)).toEqual([B.hb1]);
    expect(ids((await r.get('/v1/bills?subject=Education')).body)).toEqual([]);
    expect(ids((await r.get('/v1/bills?sponsor_last_name=brown')).body)).toEqual([B.hb1, B.sb25]);
    expect(ids((await r.get('/v1/bills?sponsor_last_name=Adams')).body)).toEqual([B.hb1]);
    expect(ids((await r.get('/v1/bills?title_contains=SCHOOL')).body)).toEqual([B.flhb7, B.hb1]);
    expect(ids((await r.get('/v1/bills?title_contains=100%25')).body)).toEqual([]);
  });

  it('combines filters', async () => {
    expect(ids((await r.get('/v1/bills?state=TX&topic=education')).body)).toEqual([B.hb1]);
    expect(ids((await r.get('/v1/bills?state=TX&sponsor_last_name=brown&status_id=5')).body)).toEqual([B.sb25]);
    expect(ids((await r.get('/v1/bills?q=school&state=FL&updated_since=2026-01-01')).body)).toEqual([B.flhb7]);
    expect(ids((await r.get('/v1/bills?state=TX&title_contains=relating&session_id=9001&limit=1')).body)).toEqual([
      B.hb1,
    ]);
  });

  it('answers 400 on each malformed filter', async () => {
    for (const q of [
      'state=XX',
      'state=Texas',
      'session_id=abc',
      'status_id=0',
      'status_id=9',
      'status_id=two',
      'topic=Bad_Slug',
      'topic=no-such-topic',
      'updated_since=yesterday',
      'updated_since=2026-02-30',
      'limit=ten',
      'offset=-x',
    ]) {
      const res = await r.get(`/v1/bills?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
  });

  it('rejects any malformed updated_since with 400, never 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), async (s) => {
        const res = await r.get(`/v1/bills?updated_since=${encodeURIComponent(s)}`);
        expect([200, 400]).toContain(res.status);
        if (!/^\s*\d{4}-\d{2}-\d{2}/.test(s)) expect(res.status).toBe(400);
      }),
      { numRuns: 60 },
    );
  });
});

describe('GET /v1/bills/{bill_id}', () => {
  it('returns one bill', async () => {
    const { status, body } = await r.get(`/v1/bills/${B.sb25}`);
    expect(status).toBe(200);
    expect(keys(body.data)).toEqual(BILL_FIELDS);
    expect(body.data).toMatchObject({
      bill_id: B.sb25,
      completed: 1,
      status_id: 5,
      created: '2025-11-02T09:00:00.000Z',
    });
    expect((await r.get(`/v1/bills/${B.hr3}`)).body.data).toMatchObject({
      bill_type_name: 'Resolution',
      status_date: null,
    });
  });

  it('404 for a missing bill, 400 for a non-integer id', async () => {
    expect((await r.get('/v1/bills/999999')).status).toBe(404);
    expect((await r.get('/v1/bills/99999999999')).status).toBe(404);
    const bad = await r.get('/v1/bills/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((s) => !/^[0-9]+$/.test(s) && !/[/?#%]/.test(s) && s.trim() === s && s !== '.' && s !== '..'),
        async (s) => {
          const res = await r.get(`/v1/bills/${encodeURIComponent(s)}`);
          expect(res.status).toBe(400);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('bill sub-resources', () => {
  const sub = async (name: string, id: number = B.hb1) => (await r.get(`/v1/bills/${id}/${name}`)).body.data;

  it('sponsors in sponsor_order with names joined', async () => {
    const rows = await sub('sponsors');
    expect(rows.map((x: any) => x.sponsor_order)).toEqual([1, 2, 3]);
    expect(keys(rows[0])).toEqual(
      sorted([
        'bill_id',
        'people_id',
        'name',
        'first_name',
        'last_name',
        'party_id',
        'party_name',
        'district',
        'sponsor_order',
        'sponsor_type_id',
        'sponsor_type_name',
      ]),
    );
    expect(rows[0]).toMatchObject({
      people_id: F.people.alice,
      name: 'Alice Brown',
      party_name: 'Democrat',
      sponsor_type_id: 1,
      sponsor_type_name: 'Primary Sponsor',
      district: 'HD-1',
    });
  });

  it('history in step order with body names', async () => {
    const rows = await sub('history');
    expect(rows.map((x: any) => x.history_step)).toEqual([1, 2, 3]);
    expect(keys(rows[0])).toEqual(
      sorted([
        'bill_id',
        'history_step',
        'history_date',
        'history_action',
        'history_body_id',
        'body_name',
        'history_major',
      ]),
    );
    expect(rows[0]).toMatchObject({
      history_date: '2025-11-01',
      body_name: 'House of Representatives',
      history_major: 1,
    });
  });

  it('texts newest first with type names', async () => {
    const rows = await sub('texts');
    expect(rows.map((x: any) => x.text_id)).toEqual([F.texts.v3, F.texts.v2, F.texts.v1]);
    expect(keys(rows[0])).toEqual(
      sorted([
        'text_id',
        'bill_id',
        'bill_text_type_id',
        'text_type',
        'text_date',
        'size_bytes',
        'word_count',
        'state_url',
      ]),
    );
    expect(rows[2]).toMatchObject({
      text_type: 'Introduced',
      text_date: '2025-11-01',
      size_bytes: 1000,
      word_count: 150,
    });
  });

  it('votes newest first', async () => {
    const rows = await sub('votes');
    expect(rows.map((x: any) => x.roll_call_id)).toEqual([F.rollCalls.senate, F.rollCalls.house]);
    expect(keys(rows[0])).toEqual(
      sorted([
        'roll_call_id',
        'bill_id',
        'roll_call_body_id',
        'body',
        'vote_date',
        'description',
        'yea',
        'nay',
        'nv',
        'absent',
        'total',
        'passed',
        'state_url',
      ]),
    );
    expect(rows[0]).toMatchObject({ body: 'Senate', yea: 20, total: 31, passed: 1 });
  });

  it('subjects, amendments, referrals, calendar, supplements, sast, citations, analyses', async () => {
    const subjects = await sub('subjects');
    expect(subjects.map((x: any) => x.subject_name)).toEqual(['Bill Text', 'Education Finance', 'Taxation']);
    expect(keys(subjects[0])).toEqual(['bill_id', 'subject_id', 'subject_name']);

    const am = await sub('amendments');
    expect(am.map((x: any) => x.amendment_id)).toEqual([802, 801]);
    expect(keys(am[0])).toEqual(
      sorted([
        'amendment_id',
        'bill_id',
        'adopted',
        'amendment_body_id',
        'body',
        'amendment_date',
        'amendment_title',
        'amendment_desc',
        'amendment_mime_id',
        'amendment_size',
        'state_url',
      ]),
    );

    const ref = await sub('referrals');
    expect(ref.map((x: any) => x.referral_step)).toEqual([1, 2]);
    expect(ref[1]).toEqual({
      bill_id: B.hb1,
      committee_id: F.committees.senFin,
      committee_name: 'Senate Finance',
      referral_date: '2026-02-20',
      referral_step: 2,
    });

    const cal = await sub('calendar');
    expect(cal.map((x: any) => x.event_hash)).toEqual(['e2', 'e1']);
    expect(keys(cal[0])).toEqual(
      sorted([
        'bill_id',
        'event_hash',
        'event_type_id',
        'event_type_name',
        'event_date',
        'event_time',
        'event_location',
        'event_desc',
      ]),
    );
    expect(cal[1].event_type_name).toBe('Hearing');

    const sup = await sub('supplements');
    expect(sup.map((x: any) => x.supplement_id)).toEqual([902, 901]);
    expect(sup[1]).toMatchObject({ supplement_type: 'Fiscal Note', supplement_size: 5000 });
    expect(keys(sup[0])).toEqual(
      sorted([
        'supplement_id',
        'bill_id',
        'supplement_type_id',
        'supplement_type',
        'supplement_date',
        'title',
        'description',
        'state_url',
        'supplement_mime_id',
        'supplement_size',
      ]),
    );

    expect(await sub('sast')).toEqual([
      { bill_id: B.hb1, sast_type_id: 1, sast_type: 'Same As', sast_bill_id: 999, sast_bill_number: 'SB 2' },
    ]);

    const cit = await sub('citations');
    expect(keys(cit[0])).toEqual(
      sorted(['id', 'bill_id', 'citation_type', 'citation_number', 'catchline', 'bill_page', 'state_url', 'created']),
    );
    expect(cit[0].created).toBe('2026-02-02T00:00:00.000Z');
    const an = await sub('analyses');
    expect(keys(an[0])).toEqual(
      sorted(['id', 'bill_id', 'analysis_type', 'analysis_title', 'author', 'analysis_date', 'state_url', 'created']),
    );
  });

  it('an existing bill without rows gives 200 with data: [] on every sub-resource; a missing bill 404', async () => {
    for (const name of [
      'sponsors',
      'history',
      'texts',
      'votes',
      'subjects',
      'amendments',
      'referrals',
      'calendar',
      'supplements',
      'sast',
      'citations',
      'analyses',
      'changes',
    ]) {
      const ok = await r.get(`/v1/bills/${B.hr3}/${name}`);
      expect(ok.status, name).toBe(200);
      expect(ok.body.data, name).toEqual([]);
      const missing = await r.get(`/v1/bills/424242/${name}`);
      expect(missing.status, name).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
      expect((await r.get(`/v1/bills/x1/${name}`)).status, name).toBe(400);
    }
  });
});
