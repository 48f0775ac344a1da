// A Congress import whose batch fails mid-way (a bill PostgreSQL refuses: a NUL character in its
// title) is replayed record by record: the bad bill is reported alone, and the others are written
// with their sponsors and voters, whose placeholders were being made in memory for the batch when
// it failed. Source files in the unitedstates/congress layout, written to a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { derivedPeopleId } from '../../src/ingest/write/ids.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
let dir: string;

const bill = (n: number, title: string, sponsor: string) => ({
  bill_id: `hr${n}-116`,
  bill_type: 'hr',
  number: String(n),
  congress: '116',
  status: 'REFERRED',
  status_at: '2019-01-03',
  introduced_at: '2019-01-03',
  updated_at: '2019-02-01T00:00:00Z',
  official_title: `To do thing ${n}.`,
  short_title: title,
  sponsor: { bioguide_id: sponsor, name: `Member${sponsor}, Pat`, state: 'MA', district: '2', type: 'person' },
  cosponsors: [],
  actions: [{ acted_at: '2019-01-03', text: 'Introduced in House', type: 'action' }],
  committees: [],
  subjects: ['Taxation'],
  subjects_top_term: 'Taxation',
});

function write(rel: string, body: unknown): void {
  const f = path.join(dir, rel, 'data.json');
  mkdirSync(path.dirname(f), { recursive: true });
  writeFileSync(f, JSON.stringify(body));
}

beforeAll(async () => {
  db = await freshDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'lds-congress-replay-'));
  write('bills/hr/hr1', bill(1, 'First bill', 'R000001'));
  write('bills/hr/hr2', bill(2, 'Bad\u0000title', 'R000002'));
  write('bills/hr/hr3', bill(3, 'Third bill', 'R000003'));
  write('votes/2019/h1', {
    vote_id: 'h1-116.2019',
    chamber: 'h',
    date: '2019-02-01T12:00:00-05:00',
    question: 'On Passage',
    result: 'Passed',
    source_url: '',
    bill: { type: 'hr', number: 1, congress: 116 },
    votes: {
      Yea: [
        {
          id: 'R000001',
          display_name: 'Member (D-MA)',
          first_name: 'Pat',
          last_name: 'MemberR000001',
          party: 'D',
          state: 'MA',
        },
        { id: 'R000004', display_name: 'Other (R-TX)', first_name: 'Sam', last_name: 'Other', party: 'R', state: 'TX' },
      ],
    },
  });
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Congress import replayed after a failed batch', () => {
  it('reports the bad bill alone and writes the others with every member mentioned', async () => {
    const r = await importCongress(db.pool, dir);
    expect(r.problems.map((p) => p.file)).toEqual([path.join(dir, 'bills/hr/hr2/data.json')]);
    expect(r.get('bills')).toMatchObject({ inserted: 2, errors: 1 });
    expect(r.get('roll_calls')).toMatchObject({ inserted: 1 });

    const bills = (await db.pool.query(`SELECT external_ids->>'congress_bill_id' AS k FROM bills ORDER BY 1`)).rows.map(
      (x) => x.k,
    );
    expect(bills).toEqual(['hr1-116', 'hr3-116']);
    const people = (
      await db.pool.query(
        `SELECT people_id, bioguide_id, first_name, last_name, party_id, district, import_hash FROM people ORDER BY bioguide_id`,
      )
    ).rows;
    // R000002 sponsored only the refused bill: its placeholder went with it.
    expect(people.map((p) => p.bioguide_id)).toEqual(['R000001', 'R000003', 'R000004']);
    for (const p of people) expect(Number(p.people_id)).toBe(derivedPeopleId('bioguide', p.bioguide_id));
    // The sponsor record's name and district, then the vote's party: merged into one row.
    expect(people[0]).toMatchObject({
      first_name: 'Pat',
      last_name: 'MemberR000001',
      party_id: 1,
      district: 'MA-2',
      import_hash: 'stub',
    });
    const sponsors = (
      await db.pool.query(
        `SELECT b.external_ids->>'congress_bill_id' AS k, s.people_id FROM bill_sponsors s JOIN bills b USING (bill_id) ORDER BY 1`,
      )
    ).rows;
    expect(sponsors.map((s) => [s.k, Number(s.people_id)])).toEqual([
      ['hr1-116', derivedPeopleId('bioguide', 'R000001')],
      ['hr3-116', derivedPeopleId('bioguide', 'R000003')],
    ]);
    const voters = (await db.pool.query('SELECT people_id FROM roll_call_votes ORDER BY people_id')).rows.map((v) =>
      Number(v.people_id),
    );
    expect(voters).toEqual(
      [derivedPeopleId('bioguide', 'R000001'), derivedPeopleId('bioguide', 'R000004')].sort((a, b) => a - b),
    );

    // And a second run changes nothing.
    const again = await importCongress(db.pool, dir);
    expect(again.get('bills')).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, errors: 1 });
    expect(again.get('roll_calls')).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
  });
});
