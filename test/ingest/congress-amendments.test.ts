// Congress amendments carry only what the bill files publish (id, type, chamber, number): their
// outcome, date and document are null through the API, never 0 / text/html / 0 bytes; the
// push-mirror still sends LegiScan's wire defaults, which its format requires.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, '../../../shared/data/congress-116/data/116');
const present = existsSync(ROOT);
if (!present) console.warn(`Congress amendments real-data test skipped: ${ROOT} is absent`);
const bills: Obj[] = present
  ? readdirSync(path.join(ROOT, 'bills')).flatMap((t) =>
      readdirSync(path.join(ROOT, 'bills', t)).map(
        (b) => JSON.parse(readFileSync(path.join(ROOT, 'bills', t, b, 'data.json'), 'utf8')) as Obj,
      ),
    )
  : [];
const TITLE: Record<string, string> = { samdt: 'S.Amdt.', hamdt: 'H.Amdt.', supamdt: 'S.Up.Amdt.' };

let t: TestApp;
beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  expect((await importCongress(t.db.pool, path.join(ROOT, 'bills'))).problems).toEqual([]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!present)('Congress amendments through the API', () => {
  it('every listed amendment: title, chamber and link from the source; outcome, date, document type and size null', async () => {
    const ids = new Map(
      (await t.db.pool.query(`SELECT bill_id, external_ids->>'congress_bill_id' AS k FROM bills`)).rows.map((r) => [
        r.k,
        r.bill_id,
      ]),
    );
    const wrong: unknown[] = [];
    let n = 0;
    for (const b of bills.filter((x) => x.amendments?.length)) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/bills/${ids.get(b.bill_id)}/amendments`,
        headers: { 'x-api-key': t.key },
      });
      const api = new Map((res.json().data as Obj[]).map((a) => [a.amendment_title, a]));
      for (const a of b.amendments as Obj[]) {
        n++;
        const got = api.get(`${TITLE[a.amendment_type]} ${a.number}`);
        const want = {
          adopted: null,
          amendment_date: null,
          amendment_mime_id: null,
          amendment_size: null,
          amendment_body_id: a.chamber === 's' ? 115 : 114,
          state_url: `https://www.congress.gov/amendment/116th-congress/${a.chamber === 's' ? 'senate' : 'house'}-amendment/${a.number}`,
        };
        const have = got && Object.fromEntries(Object.keys(want).map((k) => [k, got[k]]));
        if (JSON.stringify(have) !== JSON.stringify(want)) wrong.push([b.bill_id, a.amendment_id, have]);
      }
    }
    expect(wrong).toEqual([]);
    expect(n).toBe(325);
  }, 120_000);
});
