// The 116th Congress imported twice from the real data in ../shared/data, without
// congress-legislators, so every member is a placeholder: the second run finds everything
// unchanged and asks the database a fixed handful of statements (what it knows is loaded once per
// run: members with their rows, committees, amendment ids, bill and roll call ids), not one or
// more per bill, vote or member. Skips with a message when the data folder is absent.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { freshDatabase, recordingPool, type TestDatabase } from '../helpers/db.js';

const ROOT = path.resolve(import.meta.dirname, '../../../shared/data/congress-116/data/116');
const present = existsSync(ROOT);
if (!present) console.warn(`Congress re-import test skipped: ${ROOT} is absent`);

let db: TestDatabase;
beforeAll(async () => {
  if (!present) return;
  db = await freshDatabase();
  const first = await importCongress(db.pool, ROOT);
  expect(first.problems).toEqual([]);
}, 300_000);
afterAll(async () => {
  await db?.drop();
});

describe.skipIf(!present)('Congress re-import', () => {
  it('finds every record unchanged with a fixed number of statements', async () => {
    // Every statement of every connection the import opens is recorded.
    const { pool, statements } = recordingPool(db.url);
    const before = (await db.pool.query('SELECT count(*)::int AS n, max(updated) AS at FROM people')).rows[0];
    try {
      const again = await importCongress(pool, ROOT);
      expect(again.problems).toEqual([]);
      expect(again.counts.get('bills')).toMatchObject({ inserted: 0, updated: 0, unchanged: 213 });
      expect(again.counts.get('roll_calls')).toMatchObject({ inserted: 0, updated: 0, unchanged: 59 });
    } finally {
      await pool.end();
    }
    // 213 bills, 170 vote files and 544 members: one or more look-ups each would be over a thousand.
    expect(statements.length).toBeLessThan(40);
    expect(statements.filter((s) => /FROM people WHERE (bioguide_id|lis_id) =/.test(s))).toEqual([]);
    expect(statements.filter((s) => /WHERE external_ids \? 'congress_(bill|vote)_id' AND/.test(s))).toEqual([]);
    // Nobody was rewritten either.
    expect((await db.pool.query('SELECT count(*)::int AS n, max(updated) AS at FROM people')).rows[0]).toEqual(before);
  });
});
