// The push-mirror's value conventions and id map, case by case: the values issue 14 found on the
// wire ("8:00 AM", "", "Hillsborough 26", ids above LegiScan's ranges, [] with a pending committee).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    ['8:00 AM', '08:00'], ['1:30 PM', '13:30'], ['12:00 PM', '12:00'], ['12:15 am', '00:15'], ['13:30', '13:30'], ['08:00:00', '08:00'],
    ['9 a.m.', '09:00'], ['Noon', '12:00'], ['', '00:00'], ['Upon adjournment', '00:00'], ['25:00', '00:00'], [null, '00:00'],
  ])('%s → %s', (raw, want) => expect(lsTime(raw)).toBe(want));
});

describe('district', () => {
  it.each([
    ['Hillsborough 26', 1, 'HD-026'], ['26', 2, 'SD-026'], ['12B', 1, 'HD-012B'], ['HD-005', 1, 'HD-005'], ['SD-012', 2, 'SD-012'],
    ['At-Large', 1, 'HD-AL'], ['A', 2, 'SD-A'], ['', 1, ''], ['Coos 1', 1, 'HD-001'], ['Strafford 14', 1, 'HD-014'],
  ])('%s (role %i) → %s', (raw, role, want) => {
    expect(lsDistrict(raw, role)).toBe(want);
    expect(lsDistrict(raw, role).length).toBeLessThanOrEqual(9);
  });
});

describe('wire id map', () => {
  it('passes LegiScan ids through, maps ours from the top of the range down, stable, and reads them back', async () => {
    await db.pool.query(`INSERT INTO people (people_id, state_id, name, legiscan_id) VALUES (4294967311, 47, 'LegiScan person', 14833), (10000001, 47, 'Demo person', NULL)`);
    const m = new IdMap(db.pool, 901);
    await m.resolve(new Map([['bill', new Set([1234, 10_000_050, 50_000_001])], ['people', new Set([4294967311, 10000001])], ['session', new Set([10000051])]]));
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
    await db.pool.query(`INSERT INTO people (people_id, state_id, name, legiscan_id) VALUES (4294967312, 47, 'High LegiScan id', 32767)`);
    const a = new IdMap(db.pool, 902);
    const b = new IdMap(db.pool, 902);
    const locals = Array.from({ length: 40 }, (_, i) => 20_000_000 + i);
    await Promise.all([a.resolve(new Map([['people', new Set(locals.slice(0, 30))]])), b.resolve(new Map([['people', new Set(locals.slice(10))]]))]);
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
    await db.pool.query(`UPDATE bills SET pending_committee_id = 10500001, url = 'https://legiscan.example/WA/bill/HB7/2026', change_hash = '' WHERE bill_id = $1`, [id]);
    await db.pool.query(`INSERT INTO bill_calendar (bill_id, event_hash, event_type_id, event_date, event_time) VALUES ($1, 'abcd1234', 1, '2026-02-01', '1:30 PM'), ($1, 'abcd1235', 1, '2026-02-02', '')`, [id]);
    const push = async () => (await renderPush(db.pool, 903, { root: 'bill', bill_id: id }, null, [1], 'http://lds.test')).bill as Record<string, any>;

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
    await db.pool.query(`INSERT INTO bill_referrals (bill_id, referral_step, referral_date, committee_id, committee_name) VALUES ($1, 1, '2026-01-10', 10500001, 'Finance')`, [id]);
    b = await push();
    expect(b.pending_committee_id).toBeGreaterThan(0);
    expect(b.pending_committee_id).toBeLessThanOrEqual(RANGES.committee.top);
    expect(b.committee).toMatchObject({ committee_id: b.pending_committee_id, name: 'Finance' });
    expect(b.change_hash).not.toBe(first);
  });
});
