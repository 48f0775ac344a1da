// Congress status codes onto the ladder (src/domain/congress-status.ts): every code the scraper
// documents and every code the real 116th Congress files carry (bill status and action statuses)
// has a row; through the API, each bill's status_id and completed are its code's, enacted bills
// with a public law number are Chaptered (8) and provisional kills are not final.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONGRESS_TO_LADDER, congressLadder } from '../../src/domain/congress-status.js';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, '../../../shared/data/congress-116/data/116');
const present = existsSync(ROOT);
if (!present) console.warn(`Congress status real-data test skipped: ${ROOT} is absent`);
const bills: Obj[] = present
  ? readdirSync(path.join(ROOT, 'bills')).flatMap((t) =>
      readdirSync(path.join(ROOT, 'bills', t)).map(
        (b) => JSON.parse(readFileSync(path.join(ROOT, 'bills', t, b, 'data.json'), 'utf8')) as Obj,
      ),
    )
  : [];

// GovTrack's bill status list, which unitedstates/congress emits (REFERRED besides).
const DOCUMENTED = [
  'INTRODUCED',
  'REFERRED',
  'REPORTED',
  'PASS_OVER:HOUSE',
  'PASS_OVER:SENATE',
  'PASSED:SIMPLERES',
  'PASSED:CONSTAMEND',
  'PASSED:CONCURRENTRES',
  'PASSED:BILL',
  'PASS_BACK:HOUSE',
  'PASS_BACK:SENATE',
  'CONFERENCE:PASSED:HOUSE',
  'CONFERENCE:PASSED:SENATE',
  'PROV_KILL:SUSPENSIONFAILED',
  'PROV_KILL:CLOTUREFAILED',
  'PROV_KILL:PINGPONGFAIL',
  'PROV_KILL:VETO',
  'FAIL:ORIGINATING:HOUSE',
  'FAIL:ORIGINATING:SENATE',
  'FAIL:SECOND:HOUSE',
  'FAIL:SECOND:SENATE',
  'VETOED:OVERRIDE_PASS_OVER:HOUSE',
  'VETOED:OVERRIDE_PASS_OVER:SENATE',
  'VETOED:POCKET',
  'VETOED:OVERRIDE_FAIL_ORIGINATING:HOUSE',
  'VETOED:OVERRIDE_FAIL_ORIGINATING:SENATE',
  'VETOED:OVERRIDE_FAIL_SECOND:HOUSE',
  'VETOED:OVERRIDE_FAIL_SECOND:SENATE',
  'ENACTED:SIGNED',
  'ENACTED:VETO_OVERRIDE',
  'ENACTED:TENDAYRULE',
  'ENACTED:UNKNOWN',
];

// What each family means on the ladder, written out independently of the table.
function expected(code: string, law: boolean): [number, boolean] {
  if (code.startsWith('ENACTED:')) return [law ? 8 : 5, true];
  if (code === 'PROV_KILL:VETO') return [6, false];
  if (code.startsWith('PROV_KILL:')) return [7, false];
  if (code.startsWith('VETOED:')) return [6, !code.includes('PASS_OVER')];
  if (code.startsWith('FAIL:')) return [7, true];
  if (code === 'PASSED:BILL') return [4, false];
  if (code.startsWith('PASSED:')) return [4, true];
  if (/^(PASS_OVER|PASS_BACK|CONFERENCE):/.test(code)) return [3, false];
  if (code === 'REFERRED' || code === 'REPORTED') return [2, false];
  if (code === 'INTRODUCED') return [1, false];
  throw new Error(`no expectation for ${code}`);
}

const codesInFiles = [
  ...new Set(bills.flatMap((b) => [b.status, ...b.actions.map((a: Obj) => a.status)]).filter(Boolean)),
].sort();
const hasLaw = (b: Obj) => !!b.enacted_as?.number || b.actions.some((a: Obj) => a.type === 'enacted' && a.number);

describe('Congress status table', () => {
  it('has exactly the documented codes', () => {
    expect(Object.keys(CONGRESS_TO_LADDER).sort()).toEqual([...DOCUMENTED].sort());
  });

  it.each(DOCUMENTED)('maps %s by its family', (code) => {
    for (const law of [false, true]) {
      const [status_id, final] = expected(code, law);
      expect(congressLadder(code, law)).toEqual({ status_id, final });
    }
  });

  it.skipIf(!present)('knows every code the real files carry (bill and action statuses)', () => {
    expect(codesInFiles.length).toBeGreaterThanOrEqual(15);
    expect(codesInFiles.filter((c) => !Object.hasOwn(CONGRESS_TO_LADDER, c))).toEqual([]);
  });

  it('knows no other code, prefix or not', () => {
    expect(congressLadder('ENACTED:SOMETHING_NEW', true)).toBeUndefined();
    expect(congressLadder('toString', false)).toBeUndefined();
  });
});

let t: TestApp;
beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  const r = await importCongress(t.db.pool, ROOT);
  expect(r.problems).toEqual([]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!present)('Congress status through the API (116th Congress)', () => {
  it("every bill: status_id and completed are its code's; signed public laws are Chaptered", async () => {
    const ids = new Map(
      (
        await t.db.pool.query(
          `SELECT bill_id, external_ids->>'congress_bill_id' AS k FROM bills WHERE source = 'congress'`,
        )
      ).rows.map((r) => [r.k, r.bill_id]),
    );
    const wrong: unknown[] = [];
    const seen = new Map<number, number>();
    for (const b of bills) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/bills/${ids.get(b.bill_id)}`,
        headers: { 'x-api-key': t.key },
      });
      const api = res.json().data;
      const [status_id, final] = expected(b.status, hasLaw(b));
      if (api.status_id !== status_id || api.completed !== (final ? 1 : 0))
        wrong.push([b.bill_id, b.status, api.status_id, api.completed]);
      seen.set(api.status_id, (seen.get(api.status_id) ?? 0) + 1);
    }
    expect(wrong).toEqual([]);
    // 15 signed laws, each with its public law number; 8 vetoed with failed overrides.
    expect([seen.get(8), seen.get(5) ?? 0, seen.get(6)]).toEqual([15, 0, 8]);
    const chaptered = await t.app.inject({
      method: 'GET',
      url: '/v1/bills?state=US&status_id=8&limit=100',
      headers: { 'x-api-key': t.key },
    });
    expect(chaptered.json().data).toHaveLength(15);
  }, 120_000);
});
