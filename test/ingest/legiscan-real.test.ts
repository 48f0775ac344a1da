// LegiScan importer on the real datasets in ../shared/data (MS 2014 XML, AK 2011 JSON), compared
// with the source files field by field through the read API, for every bill. Skips with a message
// when the data folder is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { XML_LISTS } from '../../src/ingest/legiscan/parse.js';
import { parseLegiscanXml } from '../../src/ingest/legiscan/xml.js';
import type { ImportReport } from '../../src/ingest/write/report.js';
import { runDiffRound } from '../../src/texts/worker.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

type Obj = Record<string, unknown>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data/legiscan');
const MS = path.join(DATA, 'xml-ms-2014-regular');
const AK = path.join(DATA, 'json-sample-ak-2011');
const present = existsSync(MS) && existsSync(AK);
if (!present) console.warn(`LegiScan real-data tests skipped: ${DATA} is absent`);

const arr = (v: unknown): Obj[] =>
  Array.isArray(v)
    ? v
    : v && typeof v === 'object'
      ? ((Object.values(v as Obj).find(Array.isArray) as Obj[] | undefined) ?? [])
      : [];
const msFile = (f: string) => parseLegiscanXml(readFileSync(path.join(MS, f), 'utf8'), XML_LISTS).legiscan as Obj;
const akFile = (f: string) => JSON.parse(readFileSync(path.join(AK, f), 'utf8')) as Obj;
const day = (d: unknown) =>
  typeof d === 'string' && /^\d{4}-\d{2}-\d{2}/.test(d) && !d.startsWith('0000') ? d.slice(0, 10) : null;
/** The source's own dates of a bill: status, history, progress, texts, votes. */
function sourceDates(b: Obj): string[] {
  return [
    b.status_date,
    ...arr(b.history).map((h) => h.date),
    ...arr(b.progress).map((p) => p.date),
    ...arr(b.texts).map((t) => t.date),
    ...arr(b.votes).map((v) => v.date),
  ]
    .map(day)
    .filter((d): d is string => !!d)
    .sort();
}

let db: TestDatabase;
let t: TestApp;
let msReport: ImportReport;
let akReport: ImportReport;
const get = async (url: string, status = 200) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  expect([url, res.statusCode]).toEqual([url, status]);
  return res.json();
};

beforeAll(async () => {
  if (!present) return;
  db = await freshDatabase();
  msReport = await importLegiscan(db.pool, MS);
  akReport = await importLegiscan(db.pool, AK);
  t = await testApp({ db });
}, 300_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe.skipIf(!present)('LegiScan real data through the API', () => {
  it('counts what happened: a first import inserts every roll call, people and bill', () => {
    expect(msReport.failed).toBe(false);
    expect(msReport.get('roll_calls')).toMatchObject({
      inserted: readdirSync(path.join(MS, 'vote')).length,
      updated: 0,
    });
    expect(msReport.get('bills')).toMatchObject({ inserted: readdirSync(path.join(MS, 'bill')).length, updated: 0 });
    // The AK sample's three roll calls are on bills outside the sample: skipped, not counted as written.
    expect(akReport.get('roll_calls')).toMatchObject({ inserted: 0, updated: 0, skipped: 3 });
  });

  it("every bill: updated / created are the source's latest / earliest dates, summary is its description", async () => {
    const check = async (b: Obj) => {
      const dates = sourceDates(b);
      const api = (await get(`/v1/bills/${b.bill_id}`)).data;
      expect([b.bill_id, api.updated.slice(0, 10), api.created.slice(0, 10), api.summary]).toEqual([
        b.bill_id,
        dates[dates.length - 1],
        dates[0],
        b.description || null,
      ]);
    };
    for (const f of readdirSync(path.join(MS, 'bill'))) await check(msFile(`bill/${f}`).bill as Obj);
    for (const f of readdirSync(path.join(AK, 'bill'))) await check(akFile(`bill/${f}`).bill as Obj);
    // A 2014 bill never ranks above the 2012 AK ones as "newest".
    const newest = (await get('/v1/bills?limit=1')).data[0];
    expect(newest.updated.slice(0, 4)).toBe('2014');
  }, 300_000);

  it('sessions: past sessions are ended, with tag and LegiScan address filled from the source', async () => {
    const sessions = (await get('/v1/sessions?limit=100')).data as Obj[];
    const ms = sessions.find((s) => s.session_id === 1083)!;
    expect(ms).toMatchObject({
      state_abbr: 'MS',
      year_start: 2014,
      year_end: 2014,
      session_name: '2014 Regular Session',
      session_tag: 'Regular Session',
      sine_die: 1,
      source_url: 'https://legiscan.com/MS/legislation/2014',
    });
    const ak = sessions.find((s) => s.session_id === 122)!;
    expect(ak).toMatchObject({
      year_start: 2011,
      year_end: 2012,
      session_name: '27th Legislature',
      sine_die: 1,
      source_url: 'https://legiscan.com/AK/legislation/2011',
    });
  });

  it("no placeholder names: people known only from roll calls have empty names and the chamber they voted in; sponsors keep the sponsor record's name", async () => {
    expect(
      Number((await db.pool.query(`SELECT count(*) AS n FROM people WHERE name ~* '^LegiScan person'`)).rows[0].n),
    ).toBe(0);
    const p6492 = (await get('/v1/legislators/6492')).data;
    expect([p6492.name, p6492.first_name, p6492.last_name, p6492.role_id, p6492.chamber]).toEqual([
      '',
      '',
      '',
      1,
      'House',
    ]);
    // AK HB1's sponsors have no person file in the sample: their names come from the sponsor records.
    const hb1 = akFile('bill/HB1.json').bill as Obj;
    for (const s of arr(hb1.sponsors)) {
      const p = (await get(`/v1/legislators/${s.people_id}`)).data;
      expect([p.name, p.first_name, p.last_name, p.role_id]).toEqual([s.name, s.first_name, s.last_name, s.role_id]);
    }
  });

  it("every AK bill pending in a committee points at a committee row carrying LegiScan's name and chamber", async () => {
    let n = 0;
    for (const f of readdirSync(path.join(AK, 'bill'))) {
      const b = akFile(`bill/${f}`).bill as Obj;
      const c = b.committee as Obj;
      if (!c || Array.isArray(c) || !c.committee_id) continue;
      n++;
      expect((await get(`/v1/bills/${b.bill_id}`)).data.pending_committee_id).toBe(c.committee_id);
      const api = (await get(`/v1/committees/${c.committee_id}`)).data;
      expect([api.committee_id, api.committee_name, api.chamber, api.state_abbr]).toEqual([
        c.committee_id,
        c.name,
        c.chamber === 'S' ? 'Senate' : 'House',
        'AK',
      ]);
    }
    expect(n).toBeGreaterThan(0);
  });

  it('texts without documents: the diff says the documents are absent instead of calling them identical', async () => {
    const hb2 = msFile('bill/HB1009.xml').bill as Obj;
    const texts = arr(hb2.texts);
    const ids = texts.map((x) => Number(x.doc_id));
    expect(ids.length).toBeGreaterThan(1);
    const body = await get(`/v1/bills/${hb2.bill_id}/diff?from=${ids[0]}&to=${ids[1]}`, 404);
    expect(body.error).toMatchObject({
      code: 'not_found',
      reason: 'document_absent',
      absent_text_ids: [...ids.slice(0, 2)].sort((a, b) => a - b),
    });
    // The diff worker never computes such pairs either (it used to store them as identical).
    await runDiffRound(db.pool);
    expect((await get(`/v1/bills/${hb2.bill_id}/changes?include_whitespace=1`)).data).toEqual([]);
    expect(
      Number(
        (
          await db.pool.query(
            'SELECT count(*) AS n FROM text_changes tc JOIN bill_texts t ON t.text_id = tc.to_text_id WHERE t.content IS NULL',
          )
        ).rows[0].n,
      ),
    ).toBe(0);
  });
});
