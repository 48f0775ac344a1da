// Source-to-API comparison on the real LegiScan datasets (MS 2014 XML, AK/AR 2011 JSON sample): every
// bill, roll call and person file is read from ../shared/data and compared with what the read API
// answers, field by field. Mismatches are collected by field, so a fidelity bug shows up here as
// "field: count, first examples", not in a reader's complaint. Skips with a message when the data
// folder is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { XML_LISTS } from '../../src/ingest/legiscan/parse.js';
import { parseLegiscanXml } from '../../src/ingest/legiscan/xml.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, unknown>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data/legiscan');
const SETS = [path.join(DATA, 'xml-ms-2014-regular'), path.join(DATA, 'json-sample-ak-2011')];
const present = SETS.every((d) => existsSync(d));
if (!present) console.warn(`LegiScan fidelity comparison skipped: ${DATA} is absent`);

const arr = (v: unknown): Obj[] =>
  Array.isArray(v)
    ? v
    : v && typeof v === 'object'
      ? ((Object.values(v as Obj).find(Array.isArray) as Obj[] | undefined) ?? [])
      : [];
const num = (v: unknown) => (v === undefined || v === null || v === '' ? 0 : Number(v));
const str = (v: unknown) => (v === undefined || v === null || typeof v === 'object' ? '' : String(v));
const day = (v: unknown) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !v.startsWith('0000') ? v.slice(0, 10) : null;

/** Every payload of one folder of a dataset, parsed as the files are published. */
function payloads(dir: string, folder: string, root: string): Obj[] {
  const at = path.join(dir, folder);
  if (!existsSync(at)) return [];
  return readdirSync(at)
    .sort()
    .map((f) => {
      const text = readFileSync(path.join(at, f), 'utf8');
      const doc = f.endsWith('.xml') ? (parseLegiscanXml(text, XML_LISTS).legiscan as Obj) : (JSON.parse(text) as Obj);
      return doc[root] as Obj;
    });
}

/**
 * The ladder step a reader expects from what the source says (README, "Status"): Chaptered when
 * LegiScan records a chaptering (progress 8); Signed into Law for a passed bill (status 4) or a
 * resolution whose history shows enactment; a passed resolution needing no signature stays Passed
 * Both Chambers; Enrolled (3) is Passed Both Chambers; vetoed, failed, engrossed as named.
 */
function expectedStatus(b: Obj): number {
  const events = arr(b.progress).map((p) => num(p.event));
  const status = num(b.status);
  const actions = arr(b.history).map((h) => str(h.action));
  if (events.includes(8)) return 8;
  if (status === 4)
    return str(b.bill_type) === 'B' || actions.some((a) => /approved by governor|now act \d/i.test(a)) ? 5 : 4;
  if (status === 5) return events.lastIndexOf(7) > events.lastIndexOf(5) ? 5 : 6;
  const table: Record<number, number> = { 1: 1, 2: 3, 3: 4, 6: 7 };
  const step = table[status] ?? 1;
  const pending = num(b.pending_committee_id) > 0 || num((b.committee as Obj | undefined)?.committee_id) > 0;
  return step === 1 && (pending || [9, 10].includes(events[events.length - 1] ?? 0)) ? 2 : step;
}

const VOTE_NAMES: Record<number, string> = { 1: 'Yea', 2: 'Nay', 3: 'Not Voting', 4: 'Absent' };

let t: TestApp;
const mismatches = new Map<string, { count: number; examples: string[] }>();
function check(field: string, where: string, api: unknown, source: unknown) {
  if (JSON.stringify(api) === JSON.stringify(source)) return;
  const m = mismatches.get(field) ?? { count: 0, examples: [] };
  m.count += 1;
  if (m.examples.length < 3) m.examples.push(`${where}: api ${JSON.stringify(api)} source ${JSON.stringify(source)}`);
  mismatches.set(field, m);
}
const report = () =>
  Object.fromEntries([...mismatches].map(([f, m]) => [f, `${m.count} × e.g. ${m.examples.join(' | ')}`]));
async function get(url: string): Promise<{ status: number; body: Obj }> {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  return { status: res.statusCode, body: res.json() as Obj };
}
/** Runs fn over items, a few at a time (the app answers in parallel; the order of checks does not matter). */
async function each<T>(items: T[], fn: (item: T) => Promise<void>, width = 16) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

const bills = SETS.flatMap((d) => payloads(d, 'bill', 'bill'));
const rollCalls = SETS.flatMap((d) => payloads(d, 'vote', 'roll_call'));
const people = SETS.flatMap((d) => payloads(d, 'people', 'person'));

beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  for (const dir of SETS) {
    const r = await importLegiscan(t.db.pool, dir);
    expect(r.failed).toBe(false);
  }
}, 600_000);
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!present)('LegiScan source files against the API, every record', () => {
  it('every bill, with its history, sponsors, texts, votes, amendments and subjects', async () => {
    const billIds = new Set(bills.map((b) => num(b.bill_id)));
    await each(bills, async (b) => {
      const id = num(b.bill_id);
      const w = `bill ${id} ${str(b.bill_number)}`;
      // One request per bill: its parts embedded with exactly the rows of their own endpoints.
      const { status, body } = await get(`/v1/bills/${id}?include=history,sponsors,texts,votes,amendments,subjects`);
      check('bill.found', w, status, 200);
      if (status !== 200) return;
      const a = body.data as Obj;
      check('bill.bill_number', w, a.bill_number, str(b.bill_number));
      check('bill.title', w, a.title, str(b.title));
      check('bill.description', w, a.description, str(b.description));
      check('bill.state_abbr', w, a.state_abbr, str(b.state));
      check('bill.session_id', w, a.session_id, num((b.session as Obj | undefined)?.session_id ?? b.session_id));
      check('bill.status_id', w, a.status_id, expectedStatus(b));
      check('bill.status_date', w, a.status_date, day(b.status_date));
      check('bill.completed', w, a.completed, num(b.completed));
      check('bill.change_hash', w, a.change_hash, str(b.change_hash));
      check('bill.state_url', w, a.state_url, str(b.state_link));
      check('bill.body_id', w, a.body_id, num(b.body_id));
      check('bill.current_body_id', w, a.current_body_id, num(b.current_body_id));

      const history = a.history as Obj[];
      const srcHistory = arr(b.history);
      check('history.count', w, history.length, srcHistory.length);
      srcHistory.forEach((h, i) => {
        check('history.action', `${w} step ${i + 1}`, history[i]?.history_action, str(h.action));
        check('history.date', `${w} step ${i + 1}`, history[i]?.history_date, day(h.date));
        // A step published without a chamber stays body-less (0, ""), as published.
        if (num(h.chamber_id) || str(h.chamber) === '')
          check('history.body_id', `${w} step ${i + 1}`, history[i]?.history_body_id, num(h.chamber_id));
        check('history.major', `${w} step ${i + 1}`, history[i]?.history_major, num(h.importance));
      });

      const sponsors = a.sponsors as Obj[];
      const srcSponsors = arr(b.sponsors);
      check('sponsors.count', w, sponsors.length, srcSponsors.length);
      for (const s of srcSponsors) {
        const committee = num(s.committee_sponsor) === 1;
        // A committee sponsor is named by its committee with people_id 0; a person by their id.
        const row = committee
          ? sponsors.find((r) => r.people_id === 0 && r.name === str(s.name))
          : sponsors.find((r) => r.people_id === num(s.people_id));
        check(committee ? 'sponsors.committee' : 'sponsors.person', `${w} sponsor ${str(s.people_id)}`, !!row, true);
        if (row && !committee) check('sponsors.name', `${w} sponsor ${str(s.people_id)}`, row.name, str(s.name));
        if (row)
          check(
            'sponsors.type',
            `${w} sponsor ${str(s.people_id)}`,
            row.sponsor_type_id,
            num(s.sponsor_type_id) === 2 ? 2 : 1,
          );
      }

      const texts = a.texts as Obj[];
      check(
        'texts.ids',
        w,
        texts.map((x) => x.text_id).sort(),
        arr(b.texts)
          .map((x) => num(x.doc_id))
          .sort(),
      );
      for (const x of arr(b.texts))
        check(
          'texts.date',
          `${w} text ${str(x.doc_id)}`,
          texts.find((r) => r.text_id === num(x.doc_id))?.text_date,
          day(x.date),
        );

      const votes = a.votes as Obj[];
      check(
        'votes.ids',
        w,
        votes.map((x) => x.roll_call_id).sort(),
        arr(b.votes)
          .map((x) => num(x.roll_call_id))
          .sort(),
      );
      for (const v of arr(b.votes)) {
        const row = votes.find((r) => r.roll_call_id === num(v.roll_call_id));
        check('votes.description', `${w} roll call ${str(v.roll_call_id)}`, row?.description, str(v.desc));
        check('votes.date', `${w} roll call ${str(v.roll_call_id)}`, row?.vote_date, day(v.date));
        check('votes.passed', `${w} roll call ${str(v.roll_call_id)}`, row?.passed, num(v.passed));
      }

      const amendments = a.amendments as Obj[];
      check(
        'amendments.ids',
        w,
        amendments.map((x) => x.amendment_id).sort(),
        arr(b.amendments)
          .map((x) => num(x.amendment_id))
          .sort(),
      );
      for (const am of arr(b.amendments)) {
        const row = amendments.find((r) => r.amendment_id === num(am.amendment_id));
        check('amendments.adopted', `${w} amendment ${str(am.amendment_id)}`, row?.adopted, num(am.adopted));
        check('amendments.date', `${w} amendment ${str(am.amendment_id)}`, row?.amendment_date, day(am.date));
        check('amendments.title', `${w} amendment ${str(am.amendment_id)}`, row?.amendment_title, str(am.title));
      }

      const subjects = a.subjects as Obj[];
      check(
        'subjects.names',
        w,
        subjects.map((x) => x.subject_name).sort(),
        arr(b.subjects)
          .map((x) => str(x.subject_name))
          .filter(Boolean)
          .sort(),
      );
    });
    expect(billIds.size).toBe(bills.length);
    expect(report()).toEqual({});
  }, 900_000);

  it('every roll call, with its members', async () => {
    const ours = new Set(bills.map((b) => num(b.bill_id)));
    const onOurBills = rollCalls.filter((r) => ours.has(num(r.bill_id)));
    expect(onOurBills.length).toBeGreaterThan(1_900);
    await each(onOurBills, async (r) => {
      const id = num(r.roll_call_id);
      const w = `roll call ${id}`;
      const { status, body } = await get(`/v1/votes/${id}`);
      check('roll_call.found', w, status, 200);
      if (status !== 200) return;
      const a = body.data as Obj;
      for (const k of ['yea', 'nay', 'nv', 'absent', 'passed'] as const) check(`roll_call.${k}`, w, a[k], num(r[k]));
      check('roll_call.total', w, a.total, num(r.total) || num(r.yea) + num(r.nay) + num(r.nv) + num(r.absent));
      check('roll_call.bill_id', w, a.bill_id, num(r.bill_id));
      check('roll_call.description', w, a.description, str(r.desc));
      check('roll_call.date', w, a.vote_date, day(r.date));
      const details = (await get(`/v1/votes/${id}/details`)).body.data as Obj[];
      const got = Object.fromEntries(details.map((d) => [String(d.people_id), d.vote]).sort());
      const want = Object.fromEntries(
        arr(r.votes)
          .map((v) => [str(v.people_id), VOTE_NAMES[num(v.vote_id)]])
          .sort(),
      );
      check('roll_call.members', w, got, want);
    });
    expect(report()).toEqual({});
  }, 900_000);

  it('every person file, and no committee among the legislators', async () => {
    // A person file of a committee sponsor (committee_sponsor 1) is a committee: checked below.
    await each(
      people.filter((p) => num(p.committee_sponsor) !== 1),
      async (p) => {
        const id = num(p.people_id);
        const w = `person ${id}`;
        const { status, body } = await get(`/v1/legislators/${id}`);
        check('person.found', w, status, 200);
        if (status !== 200) return;
        const a = body.data as Obj;
        for (const k of ['name', 'first_name', 'middle_name', 'last_name', 'suffix', 'nickname'] as const)
          check(`person.${k}`, w, a[k], str(p[k]));
        check('person.role_id', w, a.role_id, num(p.role_id));
        check('person.party_id', w, a.party_id, num(p.party_id));
        if (p.district !== undefined) check('person.district', w, a.district, str(p.district));
      },
    );
    expect(report()).toEqual({});

    // Committee sponsors ("Joint Budget Committee" in the AR sample) are committees, never legislators.
    const committeeSponsors = [...bills.flatMap((b) => arr(b.sponsors)), ...people].filter(
      (s) => num(s.committee_sponsor) === 1,
    );
    expect(committeeSponsors.length).toBeGreaterThan(0);
    for (const s of committeeSponsors) {
      expect((await get(`/v1/legislators/${num(s.people_id)}`)).status).toBe(404);
      const committee = await get(`/v1/committees/${num(s.committee_id)}`);
      expect(committee.status).toBe(200);
      expect((committee.body.data as Obj).name ?? (committee.body.data as Obj).committee_name).toBe(str(s.name));
    }
    let offset = 0;
    const roster: Obj[] = [];
    for (;;) {
      const page = (await get(`/v1/legislators?limit=500&offset=${offset}`)).body.data as Obj[];
      roster.push(...page);
      if (page.length < 500) break;
      offset += 500;
    }
    // (People known only from a roll call keep an empty name until a record brings one: they are
    // legislators, just unnamed; a committee is never among them.)
    const committeeIds = new Set(committeeSponsors.map((s) => num(s.people_id)));
    expect(roster.filter((l) => committeeIds.has(num(l.people_id)) || /committee/i.test(str(l.name)))).toEqual([]);
  }, 300_000);

  it('signed laws are on the Signed or Chaptered step, so status filters find them', async () => {
    const signedMs = bills.filter(
      (b) => str(b.state) === 'MS' && arr(b.history).some((h) => str(h.action) === 'Approved by Governor'),
    );
    expect(signedMs.length).toBe(393);
    const count = async (q: string) => {
      let n = 0;
      for (let offset = 0; ; offset += 500) {
        const page = (await get(`/v1/bills?state=MS&${q}&limit=500&offset=${offset}`)).body.data as Obj[];
        n += page.length;
        if (page.length < 500) return n;
      }
    };
    expect(await count('status_id=5')).toBe(393);
    const ar = bills.find((b) => str(b.bill_number) === 'HB1044' && str(b.state) !== 'MS')!;
    expect(((await get(`/v1/bills/${num(ar.bill_id)}`)).body.data as Obj).status_id).toBe(8);
  });
});
