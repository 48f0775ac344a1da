// Members of Congress from every source that makes them (the 116th Congress bills and votes,
// congress-legislators, Open States data/us), imported in the order that used to leave them split
// (bills and votes first): one district form for all ("ST-N", "ST-AL", senators "ST"), senators
// named by sponsor records are senators, a Senate vote's LIS placeholder joins its member's full
// record, and a first name is empty only where no source gives one.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { congressDistrict } from '../../src/domain/congress-district.js';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { importCongressLegislators } from '../../src/ingest/congress/legislators.js';
import { importOpenStatesPeople } from '../../src/ingest/openstates/import.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, any>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const ROOT = path.join(DATA, 'congress-116/data/116');
const US = path.join(DATA, 'openstates-people/data/us');
const present = existsSync(ROOT) && existsSync(path.join(DATA, 'congress-legislators')) && existsSync(US);
if (!present) console.warn(`Congress members real-data test skipped: ${DATA} is absent`);

const json = (dir: string): Obj[] =>
  readdirSync(dir).flatMap((t) =>
    readdirSync(path.join(dir, t)).map(
      (b) => JSON.parse(readFileSync(path.join(dir, t, b, 'data.json'), 'utf8')) as Obj,
    ),
  );
const bills = present ? json(path.join(ROOT, 'bills')) : [];
const votes = present ? json(path.join(ROOT, 'votes')) : [];
const current: Obj[] = present
  ? parseYaml(readFileSync(path.join(DATA, 'congress-legislators/legislators-current.yaml'), 'utf8'))
  : [];

describe('congressDistrict', () => {
  it.each([
    [false, 'AL', 4, 'AL-4'],
    [false, 'CA', '04', 'CA-4'],
    [false, 'VT', 0, 'VT-AL'],
    [false, 'DC', '0', 'DC-AL'],
    [false, 'AK', 'At-Large', 'AK-AL'],
    [false, '', 'AL-4', 'AL-4'],
    [false, '', 'VT-AL', 'VT-AL'],
    [false, 'IN', null, 'IN'],
    [false, 'in', undefined, 'IN'],
    [true, 'CO', null, 'CO'],
    [true, '', 'California', 'CA'],
    [true, '', 'New Hampshire', 'NH'],
    [true, '', '', ''],
    [false, '', 7, '7'],
  ])('senate=%s state=%s district=%s → %s', (senate, state, district, out) => {
    expect(congressDistrict(senate, state, district)).toBe(out);
  });
});

let t: TestApp;
let tmp = '';
const byId = new Map<string, Obj>();

beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  // Open States reads a data/ folder of jurisdictions: a copy holding data/us alone.
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lds-osus-'));
  cpSync(US, path.join(tmp, 'us'), { recursive: true });
  for (const r of [
    await importCongress(t.db.pool, ROOT),
    await importCongressLegislators(t.db.pool, path.join(DATA, 'congress-legislators')),
    await importOpenStatesPeople(t.db.pool, tmp),
  ])
    expect(r.problems).toEqual([]);
  for (let offset = 0; ; offset += 500) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/legislators?state=US&limit=500&offset=${offset}`,
      headers: { 'x-api-key': t.key },
    });
    const page = res.json().data as Obj[];
    for (const p of page) byId.set(String(p.people_id), p);
    if (page.length < 500) break;
  }
}, 300_000);
afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const personBy = async (col: 'bioguide_id' | 'lis_id', id: string): Promise<Obj[]> =>
  (await t.db.pool.query(`SELECT people_id::text AS id FROM people WHERE ${col} = $1`, [id])).rows.map((r) =>
    byId.get(r.id)!,
  );

describe.skipIf(!present)('Congress members from every source', () => {
  it('every House member is "ST-N" or "ST-AL", every senator "ST"; a bare state for a House seat only where no source gives its number', async () => {
    // House members whose district nobody publishes: only in House vote files (state, no district).
    const numbered = new Set([
      ...bills
        .flatMap((b) => [b.sponsor, ...(b.cosponsors ?? [])])
        .filter((s: Obj) => s?.district !== null && s?.district !== undefined)
        .map((s: Obj) => s.bioguide_id),
      ...current.map((m) => m.id.bioguide),
    ]);
    const osBioguide = new Set(
      readdirSync(path.join(US, 'legislature'))
        .concat(readdirSync(path.join(US, 'retired')).map((f) => `../retired/${f}`))
        .flatMap(
          (f) => (parseYaml(readFileSync(path.join(US, 'legislature', f), 'utf8')).other_identifiers ?? []) as Obj[],
        )
        .filter((o) => o.scheme === 'bioguide')
        .map((o) => o.identifier),
    );
    const wrong: unknown[] = [];
    for (const p of byId.values()) {
      const ok =
        p.chamber === 'Senate'
          ? /^[A-Z]{2}$/.test(p.district)
          : /^[A-Z]{2}-(\d+|AL)$/.test(p.district) || /^[A-Z]{2}$/.test(p.district);
      if (!ok) wrong.push([p.people_id, p.name, p.chamber, p.district]);
    }
    expect(wrong).toEqual([]);
    expect(byId.size).toBeGreaterThan(700);
    const bare = (
      await t.db.pool.query(
        `SELECT bioguide_id FROM people WHERE state_id = 52 AND chamber = 'House' AND district ~ '^[A-Z]{2}$'`,
      )
    ).rows.map((r) => r.bioguide_id);
    expect(bare.filter((b) => numbered.has(b) || osBioguide.has(b))).toEqual([]);
  });

  it("congress-legislators members carry their term's state and district", async () => {
    const wrong: unknown[] = [];
    for (const m of current) {
      const term = m.terms.at(-1);
      const expected = term.type === 'sen' ? term.state : `${term.state}-${term.district === 0 ? 'AL' : term.district}`;
      const found = await personBy('bioguide_id', m.id.bioguide);
      if (
        found.length !== 1 ||
        found[0]!.district !== expected ||
        found[0]!.chamber !== (term.type === 'sen' ? 'Senate' : 'House')
      ) {
        wrong.push([m.id.bioguide, expected, found.map((p) => [p.chamber, p.district])]);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('senators in sponsor records are senators of their state; every Senate voter is one person with the full record when one exists', async () => {
    const wrong: unknown[] = [];
    for (const sp of bills
      .flatMap((b) => [b.sponsor, ...(b.cosponsors ?? [])])
      .filter((s: Obj) => s?.title === 'Sen')) {
      const [p] = await personBy('bioguide_id', sp.bioguide_id);
      if (p?.chamber !== 'Senate' || p.district !== sp.state) wrong.push([sp.bioguide_id, p?.chamber, p?.district]);
    }
    const lisOf = new Map(current.filter((m) => m.id.lis).map((m) => [m.id.lis, m]));
    for (const m of votes.filter((v) => v.chamber === 's').flatMap((v) => Object.values(v.votes).flat() as Obj[])) {
      if (!m?.id) continue;
      const found = await personBy('lis_id', m.id);
      const full = lisOf.get(m.id);
      if (found.length !== 1 || found[0]!.district !== m.state || (full && found[0]!.first_name !== full.name.first))
        wrong.push([m.id, found.map((p) => [p.name, p.district])]);
    }
    expect([...new Set(wrong.map((w) => JSON.stringify(w)))]).toEqual([]);
  }, 120_000);

  it('a first name is empty only for members no source names (House vote files give the surname alone)', async () => {
    const named = new Set([
      ...bills
        .flatMap((b) => [b.sponsor, ...(b.cosponsors ?? [])])
        .filter(Boolean)
        .map((s: Obj) => s.bioguide_id),
      ...current.map((m) => m.id.bioguide),
      ...votes
        .flatMap((v) => Object.values(v.votes).flat() as Obj[])
        .filter((m) => m?.first_name || /,/.test(m?.display_name ?? ''))
        .map((m) => m.id),
    ]);
    const empty = (
      await t.db.pool.query(
        `SELECT people_id::text AS id, bioguide_id, lis_id FROM people WHERE state_id = 52 AND first_name = ''`,
      )
    ).rows;
    expect(empty.filter((r) => named.has(r.bioguide_id) || named.has(r.lis_id))).toEqual([]);
    // Each of them is a roster row with its surname and state: "Brooks", "IN".
    expect(empty.map((r) => byId.get(r.id)).every((p) => p && p.last_name && /^[A-Z]{2}$/.test(p.district))).toBe(true);
    expect(empty.length).toBe(8);
  });
});
