// Member votes assembled as text for the bulk files (src/bulk/member-votes.ts) against the
// endpoint's own query (memberVotes, GET /v1/votes/{id}/details), byte for byte, on names that
// sort, quote and escape awkwardly, a party named only on the person, a vote id that names no
// vote type, a vote by no one in people, a roll call without votes, and people from outside
// the jurisdiction the texts were loaded for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { buildFixture, F } from '../helpers/fixtures.js';
import { memberVotes } from '../../src/api/votes/repository.js';
import { csvLines } from '../../src/bulk/csv.js';
import { MemberVoteText, withRendered } from '../../src/bulk/member-votes.js';

let db: TestDatabase;
const RC = { many: 77001, empty: 77002 };

beforeAll(async () => {
  db = await freshDatabase();
  await buildFixture(db.pool);
  // people whose order needs the collation (accents, case, particles), with quotes, commas, a
  // line feed and a backslash in their fields, and one whose party is named only on the person
  const people: Array<[number, string, string, string, number, string, string]> = [
    [91001, 'Ávila', 'Ana', 'Ana Ávila', 1, 'Democrat', 'HD-"9"'],
    [91002, 'avila', 'Bo', 'Bo avila', 2, 'Republican', 'HD, 10'],
    [91003, 'de la Cruz', 'Cy', 'Cy "CJ" de la Cruz', 0, 'Green', 'HD-11\nwest'],
    [91004, 'Zed', 'Di', 'Di Zed \\ Jr', 0, '', 'SD-1'],
    [91005, 'Adams', 'Al', 'Al Adams', 3, 'Independent', ''],
  ];
  for (const [id, last, first, name, party, partyName, district] of people)
    await db.pool.query(
      `INSERT INTO people (people_id, state_id, role_id, chamber, body_id, party_id, party_name, name, first_name, middle_name,
         last_name, suffix, nickname, district, ballotpedia, followthemoney_eid, votesmart_id, opensecrets_id, updated)
       VALUES ($1, 43, 1, 'House', 91, $2, $3, $4, $5, '', $6, '', '', $7, '', '', '', '', now())`,
      [id, party, partyName, name, first, last, district],
    );
  // one of them from another jurisdiction: whichever is loaded, some voters are read later
  await db.pool.query('UPDATE people SET state_id = 13 WHERE people_id = 91004');
  await db.pool.query(
    `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url)
     VALUES ($1, $3, 91, '2026-03-01', 'Many', 1, 1, 1, 1, 5, 1, ''), ($2, $3, 91, '2026-03-02', 'None', 0, 0, 0, 0, 0, 0, '')`,
    [RC.many, RC.empty, F.bills.hb1],
  );
  await db.pool.query(
    `INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) VALUES
       ($1, 91005, 1), ($1, 91004, 2), ($1, 91003, 3), ($1, 91002, 4), ($1, 91001, 9), ($1, $2, 1), ($1, 99999, 1)`,
    [RC.many, F.people.alice],
  );
});
afterAll(async () => db?.drop());

describe('member votes as text', () => {
  // texts loaded for either jurisdiction: the other's voters are read when first met
  it.each([43, 13])(
    'are the endpoint rows, in its order, as JSON and as roll_call_votes lines, byte for byte (texts of state %i)',
    async (stateId) => {
      const text = await MemberVoteText.load(db.pool, stateId);
      const ids = [RC.many, RC.empty, F.rollCalls.house, F.rollCalls.senate];
      const lists = await text.of(db.pool, ids);
      for (const id of ids) {
        const rows = (await memberVotes(db.pool, [id])).map(({ _rc, ...vote }) => vote);
        const list = lists.get(id);
        if (rows.length === 0) {
          expect(list).toBeUndefined();
          continue;
        }
        expect(list!.rows).toBe(rows.length);
        expect(list!.json).toBe(JSON.stringify(rows));
        expect(list!.csv).toBe(csvLines(rows.map((r) => [id, r.people_id, r.name, r.party_name, r.district, r.vote])));
      }
      const many = JSON.parse(lists.get(RC.many)!.json) as Array<{
        people_id: number;
        vote: string;
        party_name: string;
      }>;
      // the fixture holds what it means to: a vote id without a vote type, a party named on the person,
      // a vote by no one in people (left out, as the endpoint's join leaves it)
      expect(many.find((m) => m.people_id === 91001)?.vote).toBe('Not Voting');
      expect(many.find((m) => m.people_id === 91003)?.party_name).toBe('Green');
      expect(many).toHaveLength(6);
      // asked again, the people met the first time are known (and the absent one known absent)
      expect((await text.of(db.pool, [RC.many])).get(RC.many)).toEqual(lists.get(RC.many));
    },
  );

  it('puts the list after the record keys, as JSON.stringify of the whole record', () => {
    const list = { key: 'member_votes', table: 'roll_call_votes', json: '[{"a":1}]', csv: '', rows: 1 };
    const data = { roll_call_id: 1, description: 'x "y"' };
    expect(withRendered(data, list)).toBe(JSON.stringify({ ...data, member_votes: [{ a: 1 }] }));
    expect(withRendered({}, list)).toBe(JSON.stringify({ member_votes: [{ a: 1 }] }));
  });
});
