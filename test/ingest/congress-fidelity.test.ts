// Source-to-API comparison for Congress: the whole 116th Congress dataset (bills and votes) and
// congress-legislators imported, then EVERY bill, roll call and person of the source files is
// compared with what the API answers, through the real app. Mismatches are collected by field
// (with a few examples each) and the test fails on any, so the next fidelity bug is found here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { congressLadder } from '../../src/domain/congress-status.js';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { importCongressLegislators } from '../../src/ingest/congress/legislators.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, any>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const ROOT = path.join(DATA, 'congress-116/data/116');
const present = existsSync(ROOT) && existsSync(path.join(DATA, 'congress-legislators'));
if (!present) console.warn(`Congress fidelity test skipped: ${DATA} is absent`);

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

const PARTY: Record<string, string> = { D: 'Democrat', R: 'Republican', I: 'Independent', ID: 'Independent' };
const VOTE: Record<string, string> = {
  yea: 'Yea',
  aye: 'Yea',
  guilty: 'Yea',
  nay: 'Nay',
  no: 'Nay',
  'not guilty': 'Nay',
  'not voting': 'Not Voting',
  present: 'Not Voting',
};
const AMDT: Record<string, string> = { samdt: 'S.Amdt.', hamdt: 'H.Amdt.', supamdt: 'S.Up.Amdt.' };
const day = (v: unknown) => (v ? String(v).slice(0, 10) : null);
const seat = (state: string, district: unknown) =>
  district === null || district === undefined
    ? state
    : `${state}-${String(district) === '0' ? 'AL' : Number(district)}`;

/** Mismatches by field: count and the first few examples. */
class Mismatches {
  readonly byField = new Map<string, { n: number; examples: unknown[] }>();
  checks = 0;
  check(field: string, where: string, api: unknown, source: unknown): void {
    this.checks++;
    if (JSON.stringify(api) === JSON.stringify(source)) return;
    let m = this.byField.get(field);
    if (!m) this.byField.set(field, (m = { n: 0, examples: [] }));
    if (m.n++ < 3) m.examples.push({ where, api, source });
  }
  report(): Record<string, { n: number; examples: unknown[] }> {
    return Object.fromEntries([...this.byField].sort(([a], [b]) => a.localeCompare(b)));
  }
}

let t: TestApp;
const billIds = new Map<string, number>();
const voteIds = new Map<string, number>();
const get = async (url: string): Promise<any> => {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
};

beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  for (const r of [
    await importCongressLegislators(t.db.pool, path.join(DATA, 'congress-legislators')),
    await importCongress(t.db.pool, ROOT),
  ]) {
    expect(r.problems).toEqual([]);
  }
  for (const r of (await t.db.pool.query(`SELECT bill_id, external_ids->>'congress_bill_id' AS k FROM bills`)).rows)
    billIds.set(r.k, r.bill_id);
  for (const r of (await t.db.pool.query(`SELECT roll_call_id, external_ids->>'congress_vote_id' AS k FROM roll_calls`))
    .rows)
    voteIds.set(r.k, r.roll_call_id);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const peopleBy = async (col: 'bioguide_id' | 'lis_id'): Promise<Map<string, string>> =>
  new Map(
    (await t.db.pool.query(`SELECT ${col} AS k, people_id::text AS id FROM people WHERE ${col} IS NOT NULL`)).rows.map(
      (r) => [r.k, r.id],
    ),
  );

describe.skipIf(!present)('Congress: every source record against the API', () => {
  it('every bill and its parts', async () => {
    const m = new Mismatches();
    const bioguide = await peopleBy('bioguide_id');
    const rollCallsOf = new Map<string, Obj[]>();
    for (const v of votes)
      if (v.bill)
        rollCallsOf.set(`${v.bill.type}${v.bill.number}-${v.bill.congress}`, [
          ...(rollCallsOf.get(`${v.bill.type}${v.bill.number}-${v.bill.congress}`) ?? []),
          v,
        ]);
    for (const b of bills) {
      const id = billIds.get(b.bill_id);
      m.check('bill.present', b.bill_id, id !== undefined, true);
      if (id === undefined) continue;
      const api = await get(`/v1/bills/${id}`);
      const law = !!b.enacted_as?.number || b.actions.some((a: Obj) => a.type === 'enacted' && a.number);
      const step = congressLadder(b.status, law)!;
      const last = b.actions.at(-1);
      const want: Obj = {
        state_abbr: 'US',
        bill_number: `${b.bill_type.toUpperCase()}${b.number}`,
        body_id: b.bill_type.startsWith('s') ? 115 : 114,
        status_id: step.status_id,
        completed: step.final ? 1 : 0,
        status_date: day(b.status_at),
        title: b.short_title || b.popular_title || b.official_title,
        description: b.official_title,
        summary: b.summary?.text || null,
        last_action: last?.text ?? null,
        created: b.introduced_at,
        updated: Date.parse(b.updated_at),
      };
      const have: Obj = { ...api, created: day(api.created), updated: Date.parse(api.updated) };
      for (const k of Object.keys(want)) m.check(`bill.${k}`, b.bill_id, have[k], want[k]);

      const sponsors = await get(`/v1/bills/${id}/sponsors`);
      const listed = [b.sponsor, ...(b.cosponsors ?? []).filter((c: Obj) => !c.withdrawn_at)].filter(
        (x: Obj) => x?.bioguide_id,
      );
      m.check(
        'sponsors.people',
        b.bill_id,
        sponsors.map((s: Obj) => String(s.people_id)),
        listed.map((s: Obj) => bioguide.get(s.bioguide_id)),
      );
      m.check(
        'sponsors.type',
        b.bill_id,
        sponsors.map((s: Obj) => s.sponsor_type_id),
        listed.map((_: Obj, i: number) => (i === 0 && b.sponsor ? 1 : 2)),
      );
      const cur = new Map(current.map((c) => [c.id.bioguide, c]));
      for (const [i, s] of listed.entries()) {
        const term = cur.get(s.bioguide_id)?.terms.at(-1);
        // congress-legislators owns a current member's seat; a former member's is the record's.
        const district = term
          ? term.type === 'sen'
            ? term.state
            : seat(term.state, term.district)
          : s.title === 'Sen'
            ? s.state
            : seat(s.state, s.district);
        m.check('sponsors.district', `${b.bill_id} ${s.bioguide_id}`, sponsors[i]?.district, district);
        if (!term)
          m.check(
            'sponsors.last_name',
            `${b.bill_id} ${s.bioguide_id}`,
            sponsors[i]?.last_name,
            s.name.split(',')[0].trim(),
          );
      }

      const history = await get(`/v1/bills/${id}/history`);
      m.check(
        'history.steps',
        b.bill_id,
        history.map((h: Obj) => [h.history_date, h.history_action]),
        b.actions.map((a: Obj) => [day(a.acted_at), a.text]),
      );

      const subjects = await get(`/v1/bills/${id}/subjects`);
      // Subjects are one row per name in any letter case, spelled as first met ("Armed forces and national security").
      const lower = (xs: string[]) => [...new Set(xs.map((x) => x.toLowerCase()))].sort();
      m.check(
        'subjects',
        b.bill_id,
        lower(subjects.map((s: Obj) => s.subject_name)),
        lower([b.subjects_top_term, ...(b.subjects ?? [])].filter(Boolean)),
      );

      const amendments = await get(`/v1/bills/${id}/amendments`);
      m.check(
        'amendments.titles',
        b.bill_id,
        amendments.map((a: Obj) => a.amendment_title).sort(),
        (b.amendments ?? []).map((a: Obj) => `${AMDT[a.amendment_type]} ${a.number}`).sort(),
      );
      for (const a of amendments)
        m.check(
          'amendments.unpublished',
          `${b.bill_id} ${a.amendment_title}`,
          [a.adopted, a.amendment_date, a.amendment_mime_id, a.amendment_size],
          [null, null, null, null],
        );

      const rcs = await get(`/v1/bills/${id}/votes`);
      m.check(
        'votes.roll_calls',
        b.bill_id,
        rcs.map((r: Obj) => r.roll_call_id).sort(),
        (rollCallsOf.get(b.bill_id) ?? []).map((v) => voteIds.get(v.vote_id)).sort(),
      );
    }
    console.log(`bills: ${bills.length} bills, ${m.checks} checks`);
    expect(m.report()).toEqual({});
    expect(billIds.size).toBe(bills.length);
  }, 180_000);

  it('every roll call on a bill of the dataset, with every member vote', async () => {
    const m = new Mismatches();
    const bioguide = await peopleBy('bioguide_id');
    const lis = await peopleBy('lis_id');
    let n = 0;
    for (const v of votes) {
      const onBill = v.bill && billIds.has(`${v.bill.type}${v.bill.number}-${v.bill.congress}`);
      m.check('roll_call.present', v.vote_id, voteIds.has(v.vote_id), !!onBill);
      const id = voteIds.get(v.vote_id);
      if (!onBill || id === undefined) continue;
      n++;
      const members = Object.entries(v.votes as Record<string, unknown[]>).flatMap(([option, list]) =>
        list
          .filter((x): x is Obj => !!x && typeof x === 'object' && !!(x as Obj).id)
          .map((x): Obj => ({ ...x, vote: VOTE[option.toLowerCase()] ?? 'Not Voting' })),
      );
      const api = await get(`/v1/votes/${id}`);
      const tally = (name: string) => members.filter((x) => x.vote === name).length;
      const want: Obj = {
        bill_id: billIds.get(`${v.bill.type}${v.bill.number}-${v.bill.congress}`),
        roll_call_body_id: v.chamber === 's' ? 115 : 114,
        vote_date: day(v.date),
        description: v.question,
        yea: tally('Yea'),
        nay: tally('Nay'),
        nv: tally('Not Voting'),
        absent: 0,
        total: members.length,
        passed: /agreed|passed|confirmed/i.test(v.result) ? 1 : 0,
        state_url: v.source_url,
      };
      for (const k of Object.keys(want)) m.check(`roll_call.${k}`, v.vote_id, api[k], want[k]);
      const details = await get(`/v1/votes/${id}/details`);
      const ids = v.chamber === 's' ? lis : bioguide;
      const byPerson = new Map(details.map((d: Obj) => [String(d.people_id), d]));
      m.check('details.count', v.vote_id, details.length, members.length);
      for (const x of members) {
        const d = byPerson.get(ids.get(x.id) ?? '') as Obj | undefined;
        m.check('details.vote', `${v.vote_id} ${x.id}`, d?.vote, x.vote);
        m.check('details.district_state', `${v.vote_id} ${x.id}`, d?.district?.slice(0, 2), x.state);
      }
    }
    console.log(`roll calls: ${n} compared, ${m.checks} checks`);
    expect(m.report()).toEqual({});
    expect(n).toBe(59);
  }, 180_000);

  it('every person: congress-legislators members and every member the bills and votes name', async () => {
    const m = new Mismatches();
    const bioguide = await peopleBy('bioguide_id');
    const lis = await peopleBy('lis_id');
    const cur = new Map(current.map((c) => [c.id.bioguide, c]));
    for (const c of current) {
      const term = c.terms.at(-1);
      const id = bioguide.get(c.id.bioguide);
      m.check('person.present', c.id.bioguide, id !== undefined, true);
      if (!id) continue;
      const p = await get(`/v1/legislators/${id}`);
      const want: Obj = {
        state_abbr: 'US',
        chamber: term.type === 'sen' ? 'Senate' : 'House',
        party_name: term.party,
        name: c.name.official_full || `${c.name.first} ${c.name.last}`,
        first_name: c.name.first,
        middle_name: c.name.middle ?? '',
        last_name: c.name.last,
        suffix: c.name.suffix ?? '',
        nickname: c.name.nickname ?? '',
        district: term.type === 'sen' ? term.state : seat(term.state, term.district),
        votesmart_id: c.id.votesmart ? String(c.id.votesmart) : '',
        opensecrets_id: c.id.opensecrets ?? '',
        ballotpedia: c.id.ballotpedia ?? '',
      };
      for (const k of Object.keys(want)) m.check(`person.${k}`, c.id.bioguide, p[k], want[k]);
      if (c.id.lis) m.check('person.lis_joined', c.id.bioguide, lis.get(c.id.lis), id);
    }
    // Members the 116th files name but congress-legislators does not hold: their record is the mentions'.
    const mentioned = new Map<string, Obj>();
    for (const b of bills)
      for (const s of [b.sponsor, ...(b.cosponsors ?? [])])
        if (s?.bioguide_id && !cur.has(s.bioguide_id))
          mentioned.set(`bioguide:${s.bioguide_id}`, { ...mentioned.get(`bioguide:${s.bioguide_id}`), sponsor: s });
    for (const v of votes) {
      if (!v.bill || !billIds.has(`${v.bill.type}${v.bill.number}-${v.bill.congress}`)) continue;
      for (const x of Object.values(v.votes).flat() as Obj[]) {
        if (!x?.id) continue;
        const key = `${v.chamber === 's' ? 'lis' : 'bioguide'}:${x.id}`;
        const full = v.chamber === 's' ? current.find((c) => c.id.lis === x.id) : cur.get(x.id);
        if (!full) mentioned.set(key, { ...mentioned.get(key), voter: x });
      }
    }
    for (const [key, { sponsor, voter }] of mentioned) {
      const [scheme, ref] = key.split(':') as ['bioguide' | 'lis', string];
      const id = (scheme === 'lis' ? lis : bioguide).get(ref);
      m.check('mentioned.present', key, id !== undefined, true);
      if (!id) continue;
      const p = await get(`/v1/legislators/${id}`);
      const senate = scheme === 'lis' || sponsor?.title === 'Sen';
      m.check('mentioned.chamber', key, p.chamber, senate ? 'Senate' : 'House');
      const state = sponsor?.state ?? voter?.state;
      m.check(
        'mentioned.district',
        key,
        p.district,
        senate ? state : sponsor ? seat(sponsor.state, sponsor.district) : state,
      );
      if (voter?.party) m.check('mentioned.party_name', key, p.party_name, PARTY[voter.party] ?? p.party_name);
      const afterComma = (n: string | undefined) =>
        n
          ?.replace(/\s*\(.*\)$/, '')
          .split(',')[1]
          ?.trim()
          .split(/\s+/)[0] ?? '';
      const first = (voter?.first_name ?? '').trim() || afterComma(sponsor?.name) || afterComma(voter?.display_name);
      if (first) m.check('mentioned.first_name', key, p.first_name, first);
      else m.check('mentioned.first_name_unpublished', key, p.first_name, '');
    }
    console.log(`people: ${current.length} current, ${mentioned.size} mentioned only, ${m.checks} checks`);
    expect(m.report()).toEqual({});
  }, 180_000);
});
