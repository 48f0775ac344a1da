// Congress importers on the real data in ../shared/data (congress-legislators, then the 116th
// Congress bills and votes), compared with the source files field by field through the read API,
// for every bill and every member mentioned. Skips with a message when the data folder is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { importCongressLegislators } from '../../src/ingest/congress/legislators.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

type Obj = Record<string, any>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const ROOT = path.join(DATA, 'congress-116/data/116');
const present = existsSync(ROOT) && existsSync(path.join(DATA, 'congress-legislators'));
if (!present) console.warn(`Congress real-data tests skipped: ${DATA} is absent`);

const files = (dir: string): Obj[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((t) =>
        readdirSync(path.join(dir, t)).map(
          (b) => JSON.parse(readFileSync(path.join(dir, t, b, 'data.json'), 'utf8')) as Obj,
        ),
      )
    : [];
const bills = present ? files(path.join(ROOT, 'bills')) : [];
const votes = present ? files(path.join(ROOT, 'votes')) : [];

let db: TestDatabase;
let t: TestApp;
const ids = new Map<string, number>();
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json().data;
};

beforeAll(async () => {
  if (!present) return;
  db = await freshDatabase();
  await importCongressLegislators(db.pool, path.join(DATA, 'congress-legislators'));
  const r = await importCongress(db.pool, ROOT);
  expect(r.problems).toEqual([]);
  for (const row of (
    await db.pool.query(`SELECT bill_id, external_ids->>'congress_bill_id' AS k FROM bills WHERE source = 'congress'`)
  ).rows)
    ids.set(row.k, row.bill_id);
  t = await testApp({ db });
}, 300_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe.skipIf(!present)('Congress real data through the API', () => {
  it('every bill: change_hash set, updated = updated_at, created = introduced date, ranked by the source dates', async () => {
    expect(ids.size).toBe(bills.length);
    for (const b of bills) {
      const api = await get(`/v1/bills/${ids.get(b.bill_id)}`);
      expect([b.bill_id, api.change_hash.length > 0, Date.parse(api.updated), api.created.slice(0, 10)]).toEqual([
        b.bill_id,
        true,
        Date.parse(b.updated_at),
        b.introduced_at,
      ]);
    }
    const newest = [...bills].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at))[0]!;
    expect((await get('/v1/bills?state=US&limit=1'))[0].bill_id).toBe(ids.get(newest.bill_id));
  }, 120_000);

  it('every bill: cross-references are its related bills present in the dataset; amendments are the ones it lists', async () => {
    let withSast = 0;
    let withAmendments = 0;
    for (const b of bills) {
      const id = ids.get(b.bill_id)!;
      const type = (reason: string) => (reason === 'identical' ? 1 : 8);
      const expected = [
        ...new Map(
          (b.related_bills ?? [])
            .filter((r: Obj) => ids.has(r.bill_id))
            .map((r: Obj) => [`${type(r.reason)}:${r.bill_id}`, [type(r.reason), ids.get(r.bill_id)]]),
        ).values(),
      ].sort();
      const sast = await get(`/v1/bills/${id}/sast`);
      expect([b.bill_id, sast.map((x: Obj) => [x.sast_type_id, x.sast_bill_id]).sort()]).toEqual([b.bill_id, expected]);
      if (expected.length) withSast++;
      const am = await get(`/v1/bills/${id}/amendments`);
      const title = (a: Obj) =>
        `${a.amendment_type === 'samdt' ? 'S.Amdt.' : a.amendment_type === 'hamdt' ? 'H.Amdt.' : a.amendment_type.toUpperCase()} ${a.number}`;
      expect([b.bill_id, am.map((a: Obj) => a.amendment_title).sort()]).toEqual([
        b.bill_id,
        (b.amendments ?? []).map(title).sort(),
      ]);
      if (am.length) withAmendments++;
    }
    expect([withSast, withAmendments]).toEqual([121, 18]);
  }, 120_000);

  it('every referral: the committee joined by its THOMAS code, dated by the referral action', async () => {
    let n = 0;
    for (const b of bills) {
      const refs = await get(`/v1/bills/${ids.get(b.bill_id)}/referrals`);
      const expected = (b.committees as Obj[]).filter((c) => c.activity.includes('referral'));
      expect(refs.length).toBe(expected.length);
      for (const [i, c] of expected.entries()) {
        const code = c.committee_id + (c.subcommittee_id ?? '');
        const committee = (
          await db.pool.query(`SELECT external_ids->>'thomas_id' AS code FROM committees WHERE committee_id = $1`, [
            refs[i].committee_id,
          ])
        ).rows[0];
        const action =
          (b.actions as Obj[]).find((a) => a.type === 'referral' && (a.committees ?? []).includes(code)) ??
          (b.actions as Obj[]).find(
            (a) => (a.committees ?? []).includes(code) || (a.committees ?? []).includes(c.committee_id),
          );
        expect([b.bill_id, committee?.code, refs[i].referral_date]).toEqual([
          b.bill_id,
          code,
          action ? action.acted_at.slice(0, 10) : null,
        ]);
        n++;
      }
    }
    expect(n).toBeGreaterThan(200);
  }, 120_000);

  it('every member mentioned: party from congress-legislators or the vote files, district as "ST-N" (senators "ST"), first names filled', async () => {
    const current = new Map(
      (parseYaml(readFileSync(path.join(DATA, 'congress-legislators/legislators-current.yaml'), 'utf8')) as Obj[]).map(
        (m) => [m.id.bioguide, m],
      ),
    );
    const party: Record<string, string> = { D: 'Democrat', R: 'Republican', I: 'Independent' };
    const seen = new Set<string>();
    for (const v of votes) {
      if (!v.bill || !ids.has(`${v.bill.type}${v.bill.number}-${v.bill.congress}`)) continue;
      const col = v.chamber === 's' ? 'lis_id' : 'bioguide_id';
      for (const m of Object.values(v.votes).flat() as Obj[]) {
        if (!m?.id || seen.has(m.id)) continue;
        seen.add(m.id);
        const row = (await db.pool.query(`SELECT people_id, bioguide_id FROM people WHERE ${col} = $1`, [m.id]))
          .rows[0];
        const p = await get(`/v1/legislators/${row.people_id}`);
        const cur = current.get(row.bioguide_id);
        const expectedParty = cur ? cur.terms.at(-1).party : party[m.party];
        expect([m.id, p.party_name]).toEqual([m.id, expectedParty]);
        if (m.first_name && !cur) expect([m.id, p.first_name]).toEqual([m.id, m.first_name.trim()]);
      }
    }
    for (const b of bills) {
      for (const sp of [b.sponsor, ...(b.cosponsors ?? [])].filter((x: Obj) => x?.bioguide_id)) {
        const p = (
          await db.pool.query(
            `SELECT first_name, district, state_id, external_ids->>'state' AS state FROM people WHERE bioguide_id = $1`,
            [sp.bioguide_id],
          )
        ).rows[0];
        const cur = current.get(sp.bioguide_id);
        const term = cur?.terms.at(-1);
        const district = term
          ? term.type === 'sen'
            ? term.state
            : `${term.state}-${term.district === 0 ? 'AL' : term.district}`
          : sp.district === null
            ? sp.state
            : `${sp.state}-${String(sp.district).replace(/^0$/, 'AL')}`;
        expect([sp.bioguide_id, p.district, p.first_name.length > 0, p.state]).toEqual([
          sp.bioguide_id,
          district,
          true,
          cur ? cur.terms.at(-1).state : sp.state,
        ]);
      }
    }
  }, 120_000);

  it('the 116th Congress is an ended session with its constitutional dates', async () => {
    const s = (await get('/v1/sessions?state=US')).find((x: Obj) => x.session_tag === '116');
    expect(s).toMatchObject({
      year_start: 2019,
      year_end: 2020,
      sine_die: 1,
      session_start_date: '2019-01-03',
      expected_sine_die_date: '2021-01-03',
      actual_sine_die_date: '2021-01-03',
      session_title: '116th Congress',
    });
  });
});
