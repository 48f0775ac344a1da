// The push-mirror's value conventions and id map, case by case: the values issue 14 found on the
// wire ("8:00 AM", "", "Hillsborough 26", ids above LegiScan's ranges, [] with a pending committee).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitString } from '../../src/mirror/columns.js';
import { lsDistrict, lsTime } from '../../src/mirror/format.js';
import { IdMap, localIds, RANGES } from '../../src/mirror/ids.js';
import { renderPush } from '../../src/mirror/handler.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { insertBill } from '../webhooks/helpers.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

describe('calendar time', () => {
  it.each([
    ['8:00 AM', '08:00'],
    ['1:30 PM', '13:30'],
    ['12:00 PM', '12:00'],
    ['12:15 am', '00:15'],
    ['13:30', '13:30'],
    ['08:00:00', '08:00'],
    ['9 a.m.', '09:00'],
    ['Noon', '12:00'],
    ['', '00:00'],
    ['Upon adjournment', '00:00'],
    ['25:00', '00:00'],
    [null, '00:00'],
  ])('%s → %s', (raw, want) => expect(lsTime(raw)).toBe(want));
});

describe('district', () => {
  it.each([
    ['Hillsborough 26', 1, 'HD-026'],
    ['26', 2, 'SD-026'],
    ['12B', 1, 'HD-012B'],
    ['HD-005', 1, 'HD-005'],
    ['SD-012', 2, 'SD-012'],
    ['At-Large', 1, 'HD-AL'],
    ['VT-AL', 1, 'HD-AL'],
    ['AK-AL', 1, 'HD-AL'],
    ['AL-1', 1, 'HD-001'],
    ['A', 2, 'SD-A'],
    ['', 1, ''],
    ['Coos 1', 1, 'HD-001'],
    ['Strafford 14', 1, 'HD-014'],
  ])('%s (role %i) → %s', (raw, role, want) => {
    expect(lsDistrict(raw, role)).toBe(want);
    expect(lsDistrict(raw, role).length).toBeLessThanOrEqual(9);
  });
});

describe('wire id map', () => {
  it('passes LegiScan ids through, maps ours from the top of the range down, stable, and reads them back', async () => {
    await db.pool.query(
      `INSERT INTO people (people_id, state_id, name, legiscan_id) VALUES (4294967311, 47, 'LegiScan person', 14833), (10000001, 47, 'Demo person', NULL)`,
    );
    const m = new IdMap(db.pool, 901);
    await m.resolve(
      new Map([
        ['bill', new Set([1234, 10_000_050, 50_000_001])],
        ['people', new Set([4294967311, 10000001])],
        ['session', new Set([10000051])],
      ]),
    );
    expect(m.get('bill', 1234)).toBe(1234);
    expect(m.get('bill', 10_000_050)).toBe(RANGES.bill.top);
    expect(m.get('bill', 50_000_001)).toBe(RANGES.bill.top - 1);
    expect(m.get('people', 4294967311)).toBe(14833);
    expect(m.get('people', 10000001)).toBe(32_767);
    expect(m.get('session', 10000051)).toBe(32_767);
    // stable: a new map of the same mirror reads the same ids; another mirror has its own
    const again = new IdMap(db.pool, 901);
    await again.resolve(new Map([['bill', new Set([50_000_001])]]));
    expect(again.get('bill', 50_000_001)).toBe(RANGES.bill.top - 1);
    expect(await localIds(db.pool, 901, 'bill', [RANGES.bill.top - 1, 1234])).toEqual([50_000_001, 1234]);
    expect(await localIds(db.pool, 901, 'people', [14833, 32_767])).toEqual([4294967311, 10000001]);
  });

  it('never hands out an id a LegiScan record here uses, and two workers allocating at once get distinct ids', async () => {
    await db.pool.query(
      `INSERT INTO people (people_id, state_id, name, legiscan_id) VALUES (4294967312, 47, 'High LegiScan id', 32767)`,
    );
    const a = new IdMap(db.pool, 902);
    const b = new IdMap(db.pool, 902);
    const locals = Array.from({ length: 40 }, (_, i) => 20_000_000 + i);
    await Promise.all([
      a.resolve(new Map([['people', new Set(locals.slice(0, 30))]])),
      b.resolve(new Map([['people', new Set(locals.slice(10))]])),
    ]);
    const wires = locals.map((l) => (l < 20_000_030 ? a : b).get('people', l));
    expect(new Set(wires).size).toBe(40);
    expect(wires).not.toContain(32_767);
    expect(Math.max(...wires)).toBe(32_766);
    expect(Math.min(...wires)).toBeGreaterThanOrEqual(RANGES.people.floor);
  });
});

describe('bill push', () => {
  it('sends ids that fit, a 32-hex change_hash that changes with the bill, a resolvable url, and the pending committee named or not at all', async () => {
    const id = 10_990_001;
    await insertBill(db.pool, { bill_id: id, state_id: 47, bill_number: 'HB7' });
    await db.pool.query(
      `UPDATE bills SET pending_committee_id = 10500001, url = 'https://legiscan.example/WA/bill/HB7/2026', change_hash = '' WHERE bill_id = $1`,
      [id],
    );
    await db.pool.query(
      `INSERT INTO bill_calendar (bill_id, event_hash, event_type_id, event_date, event_time) VALUES ($1, 'abcd1234', 1, '2026-02-01', '1:30 PM'), ($1, 'abcd1235', 1, '2026-02-02', '')`,
      [id],
    );
    const push = async () =>
      (await renderPush(db.pool, 903, { root: 'bill', bill_id: id }, null, [1], 'http://lds.test')).bill as Record<
        string,
        any
      >;

    // the committee is known only by id: not pending on the wire
    let b = await push();
    expect(b).toMatchObject({ pending_committee_id: 0, committee: [], url: `http://lds.test/v1/bills/${id}` });
    expect(b.bill_id).toBeLessThanOrEqual(RANGES.bill.top);
    expect(b.session_id).toBeLessThanOrEqual(RANGES.session.top);
    expect(b.calendar.map((c: { time: string }) => c.time)).toEqual(['13:30', '00:00']);
    expect(b.change_hash).toMatch(/^[0-9a-f]{32}$/);
    const first = b.change_hash;
    expect((await push()).change_hash).toBe(first);

    // a referral names it: sent as LegiScan's object, with the mapped id
    await db.pool.query(
      `INSERT INTO bill_referrals (bill_id, referral_step, referral_date, committee_id, committee_name) VALUES ($1, 1, '2026-01-10', 10500001, 'Finance')`,
      [id],
    );
    b = await push();
    expect(b.pending_committee_id).toBeGreaterThan(0);
    expect(b.pending_committee_id).toBeLessThanOrEqual(RANGES.committee.top);
    expect(b.committee).toMatchObject({ committee_id: b.pending_committee_id, name: 'Finance' });
    expect(b.change_hash).not.toBe(first);
  });
});

describe('values fit the stock columns', () => {
  it('cuts a 300-character roll call description to varchar(255), a bill number to varchar(10), TEXT to 65,535 bytes', async () => {
    const id = 10_990_101;
    await insertBill(db.pool, { bill_id: id, state_id: 52, bill_number: 'HCONRES1234', title: 'é'.repeat(40_000) });
    const desc = 'On Motion to Suspend the Rules and Agree, as Amended: '.repeat(6);
    await db.pool.query(
      `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea) VALUES (10990101, $1, 114, '2019-03-01', $2, 70000)`,
      [id, desc],
    );
    await db.pool.query(
      `INSERT INTO people (people_id, state_id, role_id, name, first_name, district) VALUES (10990101, 52, 1, $1, $2, 'VT-AL')`,
      ['N'.repeat(200), 'F'.repeat(40)],
    );
    await db.pool.query(
      `INSERT INTO bill_sponsors (bill_id, people_id, sponsor_type_id, sponsor_order) VALUES ($1, 10990101, 1, 1)`,
      [id],
    );
    const b = (await renderPush(db.pool, 904, { root: 'bill', bill_id: id }, null, [1], 'http://lds.test'))
      .bill as Record<string, any>;
    expect(b.bill_number).toBe('HCONRES123');
    expect(Buffer.byteLength(b.title, 'utf8')).toBeLessThanOrEqual(65_535);
    expect(b.title).toBe('é'.repeat(32_767));
    expect(b.votes[0].desc).toBe(desc.slice(0, 255));
    expect(b.votes[0].yea).toBe(32_767);
    expect(b.sponsors[0]).toMatchObject({ name: 'N'.repeat(128), first_name: 'F'.repeat(32), district: 'HD-AL' });
    const rc = (
      await renderPush(db.pool, 904, { root: 'roll_call', roll_call_id: 10990101 }, null, [], 'http://lds.test')
    ).roll_call as Record<string, any>;
    expect(rc.desc).toBe(desc.slice(0, 255));
    const p = (await renderPush(db.pool, 904, { root: 'person', people_id: 10990101 }, null, [], 'http://lds.test'))
      .person as Record<string, any>;
    expect(p.name).toHaveLength(128);
    expect(p.district).toBe('HD-AL');
  });

  it('replaces characters a 3-byte utf8 column cannot hold', () => {
    expect(fitString('Vote \u{1F5F3} tally', { chars: 255 })).toBe('Vote \uFFFD tally');
    expect(fitString(null, { chars: 9 })).toBe('');
  });
});

describe('hashes follow every stored field', () => {
  it('person_hash changes with party, district, role and every other ls_people field', async () => {
    await db.pool.query(
      `INSERT INTO people (people_id, state_id, role_id, party_id, name, district, person_hash) VALUES (10990201, 47, 1, 1, 'Pat Doe', '5', 'abcd1234')`,
    );
    const hash = async () =>
      (
        (await renderPush(db.pool, 905, { root: 'person', people_id: 10990201 }, null, [], 'http://lds.test'))
          .person as Record<string, any>
      ).person_hash as string;
    const seen = new Set([await hash()]);
    for (const change of [
      `party_id = 2`,
      `district = '6'`,
      `role_id = 2`,
      `nickname = 'P'`,
      `ballotpedia = 'Pat_Doe'`,
      `votesmart_id = '123'`,
      `opensecrets_id = 'N0001'`,
      `last_name = 'Doe'`,
    ]) {
      await db.pool.query(`UPDATE people SET ${change} WHERE people_id = 10990201`);
      const h = await hash();
      expect(h, change).toMatch(/^[0-9a-f]{8}$/);
      expect(seen.has(h), change).toBe(false);
      seen.add(h);
    }
  });

  it('a bill lists each document with the size, md5 and mime its document push sends, and they change with the document', async () => {
    const id = 10_990_301;
    await insertBill(db.pool, { bill_id: id, state_id: 47 });
    await db.pool.query(
      `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, mime_id, size_bytes, text_hash, state_url, content)
      VALUES (10990301, $1, 1, '2026-01-05', 2, 116933, '5e7abaa1000000000000000000000000', 'https://state.example/hb.pdf', 'Be it enacted')`,
      [id],
    );
    await db.pool.query(
      `INSERT INTO amendments (amendment_id, bill_id, adopted, amendment_body_id, amendment_title, amendment_mime_id, amendment_size, amendment_hash, state_url)
      VALUES (10990301, $1, 1, 97, 'Floor amendment', 2, 106091, '25ed0000000000000000000000000000', 'https://state.example/a.pdf')`,
      [id],
    );
    await db.pool.query(
      `INSERT INTO supplements (supplement_id, bill_id, supplement_type_id, title, description, supplement_mime_id, supplement_size, supplement_hash, state_url)
      VALUES (10990301, $1, 1, 'Fiscal note', 'Cost', 2, 9268, 'ae5a0000000000000000000000000000', 'https://state.example/f.pdf')`,
      [id],
    );
    const render = (target: Record<string, unknown>) => renderPush(db.pool, 906, target, null, [], 'http://lds.test');
    const consistent = async () => {
      const b = (await render({ root: 'bill', bill_id: id })).bill as Record<string, any>;
      const t = (await render({ root: 'text', id: 10990301 })).text as Record<string, any>;
      const a = (await render({ root: 'amendment', id: 10990301 })).amendment as Record<string, any>;
      const x = (await render({ root: 'supplement', id: 10990301 })).supplement as Record<string, any>;
      const pick = (o: Record<string, any>, size: string, hash: string) => ({
        size: o[size],
        hash: o[hash],
        mime: o.mime,
        mime_id: o.mime_id,
      });
      expect(pick(b.texts[0], 'text_size', 'text_hash')).toEqual(pick(t, 'text_size', 'text_hash'));
      expect(pick(b.amendments[0], 'amendment_size', 'amendment_hash')).toEqual(
        pick(a, 'amendment_size', 'amendment_hash'),
      );
      expect(pick(b.supplements[0], 'supplement_size', 'supplement_hash')).toEqual(
        pick(x, 'supplement_size', 'supplement_hash'),
      );
      expect(Buffer.from(t.doc, 'base64').length).toBe(t.text_size);
      return [t.text_hash, a.amendment_hash, x.supplement_hash];
    };
    const before = await consistent();
    await db.pool.query(`UPDATE bill_texts SET bill_text_type_id = 4 WHERE text_id = 10990301`);
    await db.pool.query(`UPDATE amendments SET amendment_date = '2026-02-01' WHERE amendment_id = 10990301`);
    await db.pool.query(`UPDATE supplements SET description = 'Revised cost' WHERE supplement_id = 10990301`);
    const after = await consistent();
    after.forEach((h, i) => expect(h).not.toBe(before[i]));
  });
});

describe('status on the wire', () => {
  it('an enrolled bill is LegiScan 3 Enrolled, a signed one 4 Passed, a chaptered one 4 with Passed and Chaptered events', async () => {
    const id = 10_990_401;
    await insertBill(db.pool, { bill_id: id, state_id: 47, status_id: 4 });
    const bill = async () =>
      (await renderPush(db.pool, 907, { root: 'bill', bill_id: id }, null, [], 'http://lds.test')).bill as Record<
        string,
        any
      >;
    let b = await bill();
    expect([b.status, b.progress.map((p: { event: number }) => p.event)]).toEqual([3, [1, 3]]);
    await db.pool.query('UPDATE bills SET status_id = 5 WHERE bill_id = $1', [id]);
    b = await bill();
    expect([b.status, b.progress.map((p: { event: number }) => p.event)]).toEqual([4, [1, 4]]);
    await db.pool.query('UPDATE bills SET status_id = 8 WHERE bill_id = $1', [id]);
    b = await bill();
    expect([b.status, b.progress.map((p: { event: number }) => p.event)]).toEqual([4, [1, 4, 8]]);
  });
});
