// include= on /v1/bills and /v1/bills/{bill_id}: each part is exactly its endpoint's answer, and a
// list page costs one query per part whatever the number of bills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { F } from '../helpers/fixtures.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { recordingPool } from '../helpers/db.js';
import { useFixtureApp } from './helpers.js';
import { computePair } from '../../src/texts/store.js';
import { PART_NAMES } from '../../src/api/bills/parts.js';

const r = useFixtureApp();
const B = F.bills;

beforeAll(async () => {
  // two computed text changes, so the changes part has rows
  await computePair(r.t.db.pool, F.texts.v1, F.texts.v2);
  await computePair(r.t.db.pool, F.texts.v2, F.texts.v3);
});

/** What the part's own endpoint answers for this bill. */
async function endpointRows(billId: number, part: string) {
  const res = await r.get(`/v1/bills/${billId}/${part}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('include= on one bill', () => {
  it('embeds every part with exactly its endpoint rows and order', async () => {
    const { status, body } = await r.get(`/v1/bills/${B.hb1}?include=all`);
    expect(status).toBe(200);
    const plain = (await r.get(`/v1/bills/${B.hb1}`)).body.data;
    expect(Object.keys(body.data).sort()).toEqual([...Object.keys(plain), ...PART_NAMES].sort());
    expect(PART_NAMES).toHaveLength(13);
    for (const part of PART_NAMES) expect(body.data[part], part).toEqual(await endpointRows(B.hb1, part));
    // the fixture bill has rows in the parts that matter, so equality is not between empty lists
    for (const part of ['sponsors', 'history', 'texts', 'votes', 'subjects', 'amendments', 'referrals', 'changes']) {
      expect(body.data[part].length, part).toBeGreaterThan(0);
    }
  });

  it('embeds only the named parts; no include answers the bill alone', async () => {
    const { body } = await r.get(`/v1/bills/${B.hb1}?include=history,%20sponsors,history`);
    const plain = (await r.get(`/v1/bills/${B.hb1}`)).body.data;
    expect(Object.keys(body.data).sort()).toEqual([...Object.keys(plain), 'history', 'sponsors'].sort());
    expect(Object.keys(plain)).not.toContain('sponsors');
    expect((await r.get(`/v1/bills/${B.sb25}?include=citations`)).body.data.citations).toEqual([]);
  });

  it('refuses an unknown part, naming the accepted ones', async () => {
    for (const url of [`/v1/bills/${B.hb1}?include=sponsors,diff`, '/v1/bills?include=nope']) {
      const { status, body } = await r.get(url);
      expect(status).toBe(400);
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message).toContain('accepted: sponsors, history, texts');
      expect(body.error.message).toContain('or all');
    }
    expect((await r.get('/v1/bills/999999?include=all')).status).toBe(404);
  });
});

describe('include= on the bill list', () => {
  it('embeds the parts in every bill of the page, each equal to its endpoint', async () => {
    const { status, body } = await r.get('/v1/bills?include=all&limit=500');
    expect(status).toBe(200);
    expect(body.data.map((b: { bill_id: number }) => b.bill_id)).toEqual([B.flhb7, B.hb1, B.sb25, B.hr3, B.hb1old]);
    for (const bill of body.data) {
      for (const part of PART_NAMES)
        expect(bill[part], `${bill.bill_id} ${part}`).toEqual(await endpointRows(bill.bill_id, part));
    }
  });

  describe('statement count', () => {
    let t: TestApp;
    let rec: ReturnType<typeof recordingPool>;
    beforeAll(async () => {
      rec = recordingPool(r.t.db.url, 2);
      t = await testApp({ db: r.t.db, deps: { dbRead: rec.pool } });
    });
    afterAll(async () => {
      await t?.close();
      await rec?.pool.end();
    });

    const countFor = async (url: string) => {
      rec.statements.length = 0;
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
      expect(res.statusCode).toBe(200);
      return { n: rec.statements.length, bills: JSON.parse(res.body).data.length };
    };

    it('is one query for the page plus one per part, whatever the page size', async () => {
      const one = await countFor('/v1/bills?include=all&limit=1');
      const five = await countFor('/v1/bills?include=all&limit=500');
      expect([one.bills, five.bills]).toEqual([1, 5]);
      expect(five.n).toBe(1 + PART_NAMES.length);
      expect(one.n).toBe(five.n);
      expect((await countFor('/v1/bills?include=sponsors,votes&limit=500')).n).toBe(3);
      expect((await countFor('/v1/bills?limit=500')).n).toBe(1);
    });
  });
});
