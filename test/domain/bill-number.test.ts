// The bill number key is one rule (src/domain/bill-number.ts) used by the importers, the demo, the
// simulator and the API, with its SQL twin (migration 075) for stored rows. Numbers in the odd
// forms states publish are written by a real import and found by any spelling of themselves, and
// never by another bill's number.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billNumberKey } from '../../src/domain/bill-number.js';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { testApp, type TestApp } from '../helpers/app.js';

// [published form, key, other spellings that must find it]
const FORMS: Array<[string, string, string[]]> = [
  ['HB 1', 'HB1', ['HB0001', 'hb 1', 'H.B. 1', 'HB-01']],
  ['HB0001', 'HB1', ['HB 1']],
  ['0123', '123', ['123', '00123']],
  ['HB1/2', 'HB1/2', ['HB 01/02', 'hb1/2']],
  ['HB12', 'HB12', ['HB 12', 'HB0012']],
  ['HB 0001 (SUB)', 'HB1(SUB)', ['HB1 (SUB)', 'hb 1(sub)']],
  ['SB 100', 'SB100', ['SB0100']],
  ['HJR 1001', 'HJR1001', ['H.J.R. 1001']],
  ['AB-10 X1', 'AB10X1', ['AB 10X1', 'ab10x01']],
  ['S.Con.Res. 3', 'SCONRES3', ['SCONRES 0003']],
  ['H 0', 'H0', ['H0']],
];

describe('billNumberKey', () => {
  it.each(FORMS)('%s → %s', (form, key, others) => {
    expect(billNumberKey(form)).toBe(key);
    for (const o of others) expect(billNumberKey(o)).toBe(key);
  });

  it('keeps numbers that differ only by punctuation other than separators apart', () => {
    expect(billNumberKey('HB1/2')).not.toBe(billNumberKey('HB12'));
    expect(billNumberKey('HB 1 (SUB)')).not.toBe(billNumberKey('HB1'));
    expect(billNumberKey('HB100')).toBe('HB100');
  });
});

describe('bill numbers written by an import and looked up through the API', () => {
  let t: TestApp;
  let dir: string;

  const bill = (id: number, number: string) => ({
    bill: {
      bill_id: id,
      change_hash: `h${id}`,
      session_id: 5001,
      session: {
        session_id: 5001,
        state_id: 24,
        year_start: 2024,
        year_end: 2024,
        special: 0,
        session_name: '2024 Regular Session',
        session_title: '2024 Regular Session',
      },
      url: '',
      state_link: '',
      completed: 0,
      status: 1,
      status_date: '2024-01-10',
      progress: [{ date: '2024-01-10', event: 1 }],
      state: 'MS',
      state_id: 24,
      bill_number: number,
      bill_type: 'B',
      bill_type_id: '1',
      body: 'H',
      body_id: 57,
      current_body: 'H',
      current_body_id: 57,
      title: `Bill ${number}`,
      description: '',
      committee: [],
      pending_committee_id: 0,
      history: [],
      sponsors: [],
      subjects: [],
      texts: [],
      votes: [],
      amendments: [],
      supplements: [],
      sasts: [],
      calendar: [],
      referrals: [],
    },
  });

  beforeAll(async () => {
    t = await testApp();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-numbers-'));
    await fs.mkdir(path.join(dir, 'bill'), { recursive: true });
    const published = [...new Set(FORMS.map(([form]) => form))].filter((f) => f !== 'HB0001'); // one bill per key
    for (const [i, number] of published.entries()) {
      await fs.writeFile(path.join(dir, 'bill', `b${i}.json`), JSON.stringify(bill(880000 + i, number)));
    }
    const report = await importLegiscan(t.db.pool, dir);
    expect(report.problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('stores the one key for every bill and finds it by every spelling', async () => {
    const stored = (
      await t.db.pool.query<{ bill_number: string; bill_number_key: string }>(
        'SELECT bill_number, bill_number_key FROM bills',
      )
    ).rows;
    expect(stored.length).toBeGreaterThan(5);
    for (const r of stored) expect(r.bill_number_key).toBe(billNumberKey(r.bill_number));
    for (const [form, , others] of FORMS) {
      if (form === 'HB0001') continue;
      for (const spelling of [form, ...others]) {
        const res = await t.app.inject({
          url: `/v1/bills?state=MS&bill_number=${encodeURIComponent(spelling)}`,
          headers: { 'x-api-key': t.key },
        });
        expect(res.statusCode).toBe(200);
        expect(
          res.json().data.map((b: { bill_number: string }) => b.bill_number),
          spelling,
        ).toEqual([form]);
      }
    }
  });

  it('agrees with its SQL twin, which recomputes stored keys in migration 075', async () => {
    const all = [...FORMS.flatMap(([form, , others]) => [form, ...others]), ' hb  0001 ', 'HB_0001', 'X0A00B0'];
    const { rows } = await t.db.pool.query<{ raw: string; key: string }>(
      'SELECT raw, lds_bill_number_key(raw) AS key FROM unnest($1::text[]) AS raw',
      [all],
    );
    for (const r of rows) expect(r.key, r.raw).toBe(billNumberKey(r.raw));
  });
});
