// Congress members met in bills and votes, against a real PostgreSQL: members imported from a
// full record are known from one query at the start of the run (no look-up per member), and a
// mention of them changes nothing; placeholders come with their rows, so a mention that fills
// their blanks writes and one that adds nothing (a re-import) asks nothing. A Congress bill's content hash does not depend on the id it is given before the
// write (it is written through the grouped bill write since it has one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { congressPerson, PeopleCache, preloadPeople, type Mention } from '../../src/ingest/congress/people.js';
import { billHash, type BillRecord } from '../../src/ingest/write/bills.js';
import { contentHash } from '../../src/ingest/write/ids.js';
import { upsertPerson, type PersonRecord } from '../../src/ingest/write/people.js';
import { BatchWriter } from '../../src/ingest/write/batch.js';
import { derivedPeopleId } from '../../src/ingest/write/ids.js';
import { ImportReport } from '../../src/ingest/write/report.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;

const person = (bioguide: string, stub: boolean, party_id: number): PersonRecord => ({
  source: stub ? 'congress' : 'congress-legislators',
  ids: { bioguide },
  state_id: 52,
  role_id: 1,
  chamber: 'House',
  body_id: 114,
  party_id,
  party_name: '',
  name: `Member ${bioguide}`,
  first_name: stub ? '' : 'Pat',
  middle_name: '',
  last_name: `Member${bioguide}`,
  suffix: '',
  nickname: '',
  district: '',
  active: true,
  stub,
});
const mention = (id: string): Mention => ({
  scheme: 'bioguide',
  id,
  name: `Member${id}, Pat`,
  first: 'Pat',
  last: `Member${id}`,
  party: 'D',
  state: 'MA',
  district: 2,
});

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('Congress people cache', () => {
  it('preloads members with a full record, and placeholders with their rows', async () => {
    const full = await upsertPerson(db.pool, person('Z000001', false, 1));
    const stub = await upsertPerson(db.pool, person('Z000002', true, 0));
    const cache = new PeopleCache();
    await preloadPeople(db.pool, cache);
    expect(cache.get('bioguide:Z000001')).toEqual({ people_id: full.people_id, party: true, first: true });
    expect(cache.get('bioguide:Z000002')).toMatchObject({
      people_id: stub.people_id,
      row: { bioguide_id: 'Z000002', import_hash: 'stub' },
    });

    const before = (
      await db.pool.query('SELECT people_id, updated, first_name, party_id FROM people ORDER BY people_id')
    ).rows;
    // Every query the mentions make is counted: the preloaded member needs none.
    let queries = 0;
    const counting = {
      query: ((...a: unknown[]) => {
        queries++;
        return (db.pool.query as (...x: unknown[]) => unknown)(...a);
      }) as typeof db.pool.query,
    };
    expect(await congressPerson(counting, cache, mention('Z000001'))).toBe(full.people_id);
    expect(queries).toBe(0);
    // The placeholder's blanks (first name, party) are filled from the mention.
    expect(await congressPerson(counting, cache, mention('Z000002'))).toBe(stub.people_id);
    expect(queries).toBeGreaterThan(0);
    const after = (
      await db.pool.query('SELECT people_id, updated, first_name, party_id FROM people ORDER BY people_id')
    ).rows;
    expect(after.find((r) => r.people_id === full.people_id)).toEqual(
      before.find((r) => r.people_id === full.people_id),
    );
    const filled = after.find((r) => r.people_id === stub.people_id);
    expect(filled).toMatchObject({ first_name: 'Pat', party_id: 1 });

    // The next run (a re-import): the same mention adds nothing, so nothing is asked or written.
    const again = new PeopleCache();
    await preloadPeople(db.pool, again);
    queries = 0;
    expect(await congressPerson(counting, again, mention('Z000002'))).toBe(stub.people_id);
    expect(queries).toBe(0);
    expect(
      (await db.pool.query('SELECT updated FROM people WHERE people_id = $1', [stub.people_id])).rows[0].updated,
    ).toEqual(filled.updated);
    // A placeholder over a placeholder only fills blanks: another district changes nothing either.
    expect(await congressPerson(counting, again, { ...mention('Z000002'), district: 5 })).toBe(stub.people_id);
    expect(queries).toBe(0);
    expect(
      (await db.pool.query('SELECT district FROM people WHERE people_id = $1', [stub.people_id])).rows[0].district,
    ).toBe('MA-2');
  });
});

describe('Congress placeholders of a batch', () => {
  const sponsor = (id: string): Mention => ({
    scheme: 'bioguide',
    id,
    name: 'Doe, Jane',
    first: '',
    last: '',
    party: '',
    state: 'CA',
    district: 12,
  });
  const voter = (id: string): Mention => ({
    scheme: 'bioguide',
    id,
    name: 'Jane Doe',
    first: 'Jane',
    last: 'Doe',
    party: 'R',
    state: 'CA',
    district: undefined,
  });
  const cols =
    'people_id, name, first_name, last_name, party_id, party_name, district, external_ids, source, import_hash';

  it('are made in memory, every mention merged, and written once with the batch: the same rows as one write per mention', async () => {
    // The old way, for comparison: no complete cache, so every mention looks up and writes.
    const one = new PeopleCache();
    await congressPerson(db.pool, one, sponsor('Z000010'));
    await congressPerson(db.pool, one, voter('Z000010'));

    const cache = new PeopleCache();
    await preloadPeople(db.pool, cache);
    const w = new BatchWriter(db.pool, new ImportReport('congress'), 500);
    const ids: number[] = [];
    let queries = 0;
    await w.run('bills', 'f', async (q, bw) => {
      const counting = {
        query: ((...a: unknown[]) => {
          queries++;
          return (q.query as (...x: unknown[]) => unknown)(...a);
        }) as typeof q.query,
      };
      ids.push(await congressPerson(counting, cache, sponsor('Z000011'), bw));
      ids.push(await congressPerson(counting, cache, voter('Z000011'), bw));
      ids.push(await congressPerson(counting, cache, voter('Z000011'), bw));
    });
    // one look-up of the derived ids in use, nothing per mention; nothing written before the commit
    expect(queries).toBe(1);
    expect(ids).toEqual(Array(3).fill(derivedPeopleId('bioguide', 'Z000011')));
    expect((await db.pool.query('SELECT 1 FROM people WHERE bioguide_id = $1', ['Z000011'])).rows).toEqual([]);
    await w.close();
    const [made] = (await db.pool.query(`SELECT ${cols} FROM people WHERE bioguide_id = 'Z000011'`)).rows;
    const [old] = (await db.pool.query(`SELECT ${cols} FROM people WHERE bioguide_id = 'Z000010'`)).rows;
    expect(made).toMatchObject({
      first_name: 'Jane',
      last_name: 'Doe',
      party_id: 2,
      district: 'CA-12',
      import_hash: 'stub',
    });
    expect({ ...made, people_id: 0 }).toEqual({ ...old, people_id: 0 });
  });
});

describe('Congress bill hash', () => {
  const rec = (withId: boolean): BillRecord => ({
    externalKey: ['congress_bill_id', 'hr1-116'],
    bill: {
      state_id: 52,
      session_id: 1,
      bill_number: 'HR1',
      bill_type_id: 1,
      body_id: 114,
      current_body_id: 114,
      status_id: 1,
      status_date: null,
      title: 't',
      description: 'd',
      state_url: '',
      url: '',
      change_hash: 'x',
      summary: null,
      last_action: null,
      last_action_date: null,
      completed: 0,
      pending_committee_id: null,
      legiscan_status: null,
      external_ids: { congress_bill_id: 'hr1-116' },
      source: 'congress',
      ...(withId ? { bill_id: 100000123 } : {}),
    },
    sponsors: [],
    history: [],
    texts: [],
    votes: [],
    amendments: [],
    supplements: [],
    sasts: [],
    subjects: [],
    calendar: [],
    referrals: [],
  });

  it('is the same with or without the id given before the write (hashes stored by earlier imports stay valid)', () => {
    expect(billHash(rec(true))).toBe(billHash(rec(false)));
    expect(billHash(rec(false))).toBe(contentHash(rec(false)));
  });

  it('still covers the id of a bill that has no external key (LegiScan)', () => {
    const a = rec(true);
    const b = rec(true);
    delete a.externalKey;
    delete b.externalKey;
    b.bill.bill_id = 100000124;
    expect(billHash(a)).not.toBe(billHash(b));
  });
});
