// Importers on the real public data in ../shared/data (never copied into the repository).
// Only these cases skip, with a message, when that folder is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { importCongressLegislators } from '../../src/ingest/congress/legislators.js';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { importOpenStatesPeople } from '../../src/ingest/openstates/import.js';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import { testApp } from '../helpers/app.js';
import { freshDatabase, recordingPool, type TestDatabase } from '../helpers/db.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const present = existsSync(DATA);
if (!present) console.warn(`real-data importer tests skipped: ${DATA} is absent`);

let db: TestDatabase;
beforeAll(async () => {
  if (present) db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const count = async (sql: string, params: unknown[] = []) => Number((await db.pool.query(sql, params)).rows[0].n);

describe.skipIf(!present)('real data', () => {
  it('congress-legislators: 537 current members with id blocks, committees with members; re-import is a no-op', async () => {
    const r = await importCongressLegislators(db.pool, path.join(DATA, 'congress-legislators'));
    expect(r.failed).toBe(false);
    expect(r.get('people').inserted).toBe(537);
    const p = (
      await db.pool.query(
        `SELECT bioguide_id, lis_id, votesmart_id, opensecrets_id, fec_ids, chamber, external_ids->>'govtrack' AS govtrack FROM people WHERE bioguide_id = 'C000127'`,
      )
    ).rows[0];
    expect(p).toEqual({
      bioguide_id: 'C000127',
      lis_id: 'S275',
      votesmart_id: '27122',
      opensecrets_id: 'N00007836',
      fec_ids: ['S8WA00194', 'H2WA01054'],
      chamber: 'Senate',
      govtrack: '300018',
    });
    const chair = (
      await db.pool
        .query(`SELECT p.bioguide_id, m.member_role FROM committees c JOIN committee_members m USING (committee_id) JOIN people p USING (people_id)
      WHERE c.external_ids->>'thomas_id' = 'SSAF' AND m.member_role = 'chair'`)
    ).rows;
    expect(chair).toEqual([{ bioguide_id: 'B001236', member_role: 'chair' }]);
    const again = await importCongressLegislators(db.pool, path.join(DATA, 'congress-legislators'));
    expect(again.get('people')).toMatchObject({ inserted: 0, updated: 0, unchanged: 537 });
  }, 120_000);

  it('congress 116: bills and the votes on them with every member row, joined to current members by bioguide / LIS id', async () => {
    const root = path.join(DATA, 'congress-116/data/116');
    const r = await importCongress(db.pool, root);
    expect(r.failed).toBe(false);
    expect(r.get('bills').inserted).toBe(213);
    let votes = 0;
    let memberRows = 0;
    for (const d of readdirSync(path.join(root, 'votes/2019'))) {
      const v = JSON.parse(readFileSync(path.join(root, 'votes/2019', d, 'data.json'), 'utf8'));
      if (!v.bill) continue;
      votes++;
      for (const list of Object.values(v.votes) as { id?: string }[][])
        memberRows += list.filter((m) => m && m.id).length;
    }
    expect(await count(`SELECT count(*) AS n FROM roll_calls WHERE external_ids ? 'congress_vote_id'`)).toBe(votes);
    expect(
      await count(
        `SELECT count(*) AS n FROM roll_call_votes v JOIN roll_calls r USING (roll_call_id) WHERE r.external_ids ? 'congress_vote_id'`,
      ),
    ).toBe(memberRows);
    // Sen. Cantwell (LIS S275) voted in Senate roll calls: her votes land on the congress-legislators person.
    expect(
      await count(
        `SELECT count(*) AS n FROM roll_call_votes v JOIN people p USING (people_id) WHERE p.bioguide_id = 'C000127'`,
      ),
    ).toBeGreaterThan(0);
    const sjres68 = (
      await db.pool.query(
        `SELECT bill_id, status_id, bill_number FROM bills WHERE external_ids->>'congress_bill_id' = 'sjres68-116'`,
      )
    ).rows[0];
    expect(sjres68).toMatchObject({ status_id: 6, bill_number: 'SJRES68' });
    expect(
      await count(
        'SELECT count(*) AS n FROM bill_sponsors s JOIN people p USING (people_id) WHERE bill_id = $1 AND sponsor_type_id = 1 AND p.bioguide_id = $2',
        [sjres68.bill_id, 'K000384'],
      ),
    ).toBe(1);
    const withTopic = await count(
      `SELECT count(DISTINCT bill_id) AS n FROM bill_topics JOIN bills USING (bill_id) WHERE source = 'congress'`,
    );
    console.log(`congress bills with at least one topic: ${withTopic}/213 (${((withTopic / 213) * 100).toFixed(1)}%)`);
    expect(withTopic / 213).toBeGreaterThan(0.8);
    const rerun = await importCongress(db.pool, root);
    expect(rerun.get('bills')).toMatchObject({ inserted: 0, updated: 0 });
    expect(rerun.get('roll_calls')).toMatchObject({ inserted: 0, updated: 0 });
  }, 180_000);

  it("Open States: every jurisdiction's legislator count; Congress members join the congress-legislators people by bioguide", async () => {
    const root = path.join(DATA, 'openstates-people/data');
    const r = await importOpenStatesPeople(db.pool, root);
    expect(r.problems).toEqual([]);
    for (const st of readdirSync(root)) {
      if (st === 'pr') continue;
      const expected = readdirSync(path.join(root, st, 'legislature')).length;
      const stateId = st === 'us' ? 52 : undefined;
      const n = await count(
        `SELECT count(*) AS n FROM people p JOIN states s USING (state_id) WHERE p.active AND p.openstates_id IS NOT NULL AND (s.state_abbr = $1 OR s.state_id = $2)`,
        [st.toUpperCase(), stateId ?? -1],
      );
      expect([st, n]).toEqual([st, expected]);
    }
    // 536 Open States Congress members: all joined to the 537 congress-legislators people, no duplicates.
    expect(
      await count(
        `SELECT count(*) AS n FROM people WHERE state_id = 52 AND openstates_id IS NOT NULL AND source = 'congress-legislators'`,
      ),
    ).toBe(536);
    const ms = (
      await db.pool.query(
        `SELECT first_name, last_name, chamber, district, party_name FROM people WHERE openstates_id = 'ocd-person/c012fed5-c753-4a01-9c3c-9924d178c24d'`,
      )
    ).rows[0];
    expect(ms).toEqual({
      first_name: 'Albert',
      last_name: 'Butler',
      chamber: 'Senate',
      district: '37',
      party_name: 'Democrat',
    });
    expect(r.get('people').skipped).toBe(readdirSync(path.join(root, 'pr/legislature')).length);

    // Every subcommittee points at its parent after the first import, whatever the file order
    // (189 files name a parent; many sort before it).
    const parents = new Map<string, string>();
    for (const st of readdirSync(root).filter((x) => x !== 'pr' && existsSync(path.join(root, x, 'committees')))) {
      for (const f of readdirSync(path.join(root, st, 'committees'))) {
        const text = readFileSync(path.join(root, st, 'committees', f), 'utf8');
        const parent = /^parent: (\S+)$/m.exec(text)?.[1];
        if (parent) parents.set(/^id: (\S+)$/m.exec(text)![1]!, parent);
      }
    }
    expect(parents.size).toBeGreaterThan(100);
    const stored = new Map(
      (
        await db.pool.query(`SELECT c.external_ids->>'openstates' AS id, p.external_ids->>'openstates' AS parent
      FROM committees c LEFT JOIN committees p ON p.committee_id = c.parent_id WHERE c.external_ids ? 'openstates' AND c.committee_type = 'subcommittee'`)
      ).rows.map((x) => [x.id, x.parent]),
    );
    expect(stored).toEqual(parents);
    // …so a re-import finds every committee as it left it, from one query for the run: no
    // look-up per committee (every statement of the import's connections is seen here).
    const { pool, statements } = recordingPool(db.url);
    const again = await importOpenStatesPeople(pool, root).finally(() => pool.end());
    expect(again.get('committees')).toMatchObject({ inserted: 0, updated: 0 });
    expect(again.get('people')).toMatchObject({ inserted: 0, updated: 0 });
    expect(statements.filter((q) => /FROM committees WHERE external_ids \? 'openstates' AND/.test(q))).toEqual([]);
  }, 300_000);

  it('LegiScan MS 2014 XML: 2,998 bills, 1,923 roll calls with member votes, sponsors and history', async () => {
    const r = await importLegiscan(db.pool, path.join(DATA, 'legiscan/xml-ms-2014-regular'));
    expect(r.failed).toBe(false);
    expect(await count(`SELECT count(*) AS n FROM bills WHERE state_id = 24 AND source = 'legiscan'`)).toBe(2998);
    expect(
      await count(`SELECT count(*) AS n FROM roll_calls r JOIN bills b USING (bill_id) WHERE b.state_id = 24`),
    ).toBe(1923);
    const hb1 = (
      await db.pool.query('SELECT status_id, legiscan_status, completed, bill_number FROM bills WHERE bill_id = 577821')
    ).rows[0];
    expect(hb1).toEqual({ status_id: 7, legiscan_status: 6, completed: 1, bill_number: 'HB1' });
    expect(
      (
        await db.pool.query('SELECT history_action FROM bill_history WHERE bill_id = 577821 ORDER BY history_step')
      ).rows.map((x) => x.history_action),
    ).toEqual(['Referred To Judiciary A', 'Died In Committee']);
    expect(
      (await db.pool.query('SELECT people_id, sponsor_type_id FROM bill_sponsors WHERE bill_id = 577821')).rows,
    ).toEqual([{ people_id: 6530, sponsor_type_id: 1 }]);
    expect(await count('SELECT count(*) AS n FROM roll_call_votes WHERE roll_call_id = 307055')).toBe(122);
  }, 300_000);

  // Field by field through the read API, against the source files parsed here independently.
  it("HTTP API: a bill's sponsors, history and votes, a roll call's members, a senator's join keys, a committee's members", async () => {
    const t = await testApp({ db });
    try {
      const get = async (url: string) => {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
        expect([url, res.statusCode]).toEqual([url, 200]);
        return res.json().data;
      };
      const xml = new XMLParser({
        parseTagValue: false,
        isArray: (name) => ['step', 'sponsor', 'vote', 'text'].includes(name),
      });
      const ms = (f: string) =>
        xml.parse(readFileSync(path.join(DATA, 'legiscan/xml-ms-2014-regular', f), 'utf8')).legiscan;

      const hb1 = ms('bill/HB1.xml').bill;
      const sponsors = await get(`/v1/bills/${hb1.bill_id}/sponsors`);
      expect(
        sponsors.map((x: Record<string, unknown>) => [x.people_id, x.sponsor_order, x.sponsor_type_id, x.name]),
      ).toEqual(
        hb1.sponsors.sponsor.map((x: Record<string, string>) => [
          Number(x.people_id),
          Number(x.sponsor_order),
          Number(x.sponsor_type_id),
          x.name,
        ]),
      );
      const history = await get(`/v1/bills/${hb1.bill_id}/history`);
      expect(
        history.map((h: Record<string, unknown>) => [
          h.history_step,
          h.history_date,
          h.history_action,
          h.history_body_id,
          h.history_major,
        ]),
      ).toEqual(
        hb1.history.step.map((h: Record<string, string>, i: number) => [
          i + 1,
          h.date,
          h.action,
          Number(h.chamber_id),
          Number(h.importance),
        ]),
      );
      const bill = await get(`/v1/bills/${hb1.bill_id}`);
      expect([bill.bill_number, bill.title, bill.status_date, bill.change_hash, bill.completed]).toEqual([
        hb1.bill_number,
        hb1.title,
        hb1.status_date,
        hb1.change_hash,
        Number(hb1.completed),
      ]);

      const hc7 = ms('bill/HC7.xml').bill;
      const votes = await get(`/v1/bills/${hc7.bill_id}/votes`);
      const headers = hc7.votes.vote as Record<string, string>[];
      expect(votes.map((v: Record<string, unknown>) => v.roll_call_id).sort()).toEqual(
        headers.map((v) => Number(v.roll_call_id)).sort(),
      );
      for (const h of headers) {
        const rc = ms(`vote/${h.roll_call_id}.xml`).roll_call;
        const v = votes.find((x: Record<string, unknown>) => x.roll_call_id === Number(h.roll_call_id));
        expect([v.vote_date, v.description, v.passed, v.yea, v.nay, v.nv, v.absent, v.state_url]).toEqual([
          h.date,
          h.desc,
          Number(h.passed),
          Number(rc.yea),
          Number(rc.nay),
          Number(rc.nv),
          Number(rc.absent),
          h.state_link,
        ]);
        const members = await get(`/v1/votes/${h.roll_call_id}/details`);
        const names: Record<string, string> = { 1: 'Yea', 2: 'Nay', 3: 'Not Voting', 4: 'Absent' };
        const byId = (a: [number, string], b: [number, string]) => a[0] - b[0];
        const expected = (rc.votes.vote as Record<string, string>[])
          .map((m): [number, string] => [Number(m.people_id), names[m.vote_id!]!])
          .sort(byId);
        expect(
          members.map((m: { people_id: number; vote: string }): [number, string] => [m.people_id, m.vote]).sort(byId),
        ).toEqual(expected);
      }

      const legislators = parseYaml(
        readFileSync(path.join(DATA, 'congress-legislators/legislators-current.yaml'), 'utf8'),
      ) as { id: Record<string, unknown> }[];
      const cantwell = legislators.find((m) => m.id.bioguide === 'C000127')!.id;
      const pid = (await db.pool.query(`SELECT people_id FROM people WHERE bioguide_id = 'C000127'`)).rows[0].people_id;
      const person = await get(`/v1/legislators/${pid}`);
      expect([
        person.votesmart_id,
        person.opensecrets_id,
        person.ballotpedia,
        person.chamber,
        person.last_name,
      ]).toEqual([String(cantwell.votesmart), cantwell.opensecrets, cantwell.ballotpedia, 'Senate', 'Cantwell']);

      const membership = parseYaml(
        readFileSync(path.join(DATA, 'congress-legislators/committee-membership-current.yaml'), 'utf8'),
      ) as Record<string, { bioguide: string; title?: string }[]>;
      const cid = (await db.pool.query(`SELECT committee_id FROM committees WHERE external_ids->>'thomas_id' = 'SSAF'`))
        .rows[0].committee_id;
      const members = await get(`/v1/committees/${cid}/members`);
      const byPeople = new Map(
        (await db.pool.query(`SELECT people_id, bioguide_id FROM people WHERE bioguide_id IS NOT NULL`)).rows.map(
          (r) => [r.people_id, r.bioguide_id],
        ),
      );
      const role = (title?: string) =>
        /vice/i.test(title ?? '') ? 'vice chair' : /chair/i.test(title ?? '') ? 'chair' : 'member';
      expect(members.map((m: Record<string, unknown>) => [byPeople.get(m.people_id), m.member_role]).sort()).toEqual(
        membership.SSAF!.map((m) => [m.bioguide, role(m.title)]).sort(),
      );
    } finally {
      await t.close();
    }
  }, 60_000);
});
