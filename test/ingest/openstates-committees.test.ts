// Open States committees against a real PostgreSQL, from files in the Open States layout written
// to a temporary folder: a subcommittee whose file sorts before its parent's still gets its parent
// on the first import; a committee PostgreSQL refuses (a NUL character in its name) fails its
// batch, which is replayed record by record, so it is reported alone and the others are written
// with their members; a second run changes nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenStatesPeople } from '../../src/ingest/openstates/import.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
let dir: string;

const person = (id: string, name: string) => `id: ocd-person/${id}
name: ${name}
party:
- name: Democratic
roles:
- start_date: 2023-01-17
  type: lower
  jurisdiction: ocd-jurisdiction/country:us/state:ak/government
  district: '1'
`;
const committee = (id: string, name: string, extra = '') => `id: ocd-organization/${id}
name: ${name}
chamber: lower
classification: committee
${extra}members:
- name: Pat One
  role: Chair
  person_id: ocd-person/00000000-0000-0000-0000-000000000001
- name: Sam Two
  role: Member
  person_id: ocd-person/00000000-0000-0000-0000-000000000002
`;

beforeAll(async () => {
  db = await freshDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'lds-openstates-'));
  const ak = path.join(dir, 'data/ak');
  mkdirSync(path.join(ak, 'legislature'), { recursive: true });
  mkdirSync(path.join(ak, 'committees'), { recursive: true });
  writeFileSync(path.join(ak, 'legislature/Pat-One.yml'), person('00000000-0000-0000-0000-000000000001', 'Pat One'));
  writeFileSync(path.join(ak, 'legislature/Sam-Two.yml'), person('00000000-0000-0000-0000-000000000002', 'Sam Two'));
  // "a-…" sorts before its parent "b-…"
  writeFileSync(
    path.join(ak, 'committees/a-sub.yml'),
    committee('sub', 'Fisheries Subcommittee', 'parent: ocd-organization/parent\n'),
  );
  writeFileSync(path.join(ak, 'committees/b-parent.yml'), committee('parent', 'Resources'));
  writeFileSync(path.join(ak, 'committees/c-bad.yml'), committee('bad', '"Bad\\0name"'));
  writeFileSync(path.join(ak, 'committees/d-other.yml'), committee('other', 'Finance'));
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Open States committees', () => {
  it('sets parents on the first import, reports a refused committee alone, and re-imports as a no-op', async () => {
    const r = await importOpenStatesPeople(db.pool, path.join(dir, 'data'));
    expect(r.problems.map((p) => path.basename(p.file))).toEqual(['c-bad.yml']);
    expect(r.get('committees')).toMatchObject({ inserted: 3, errors: 1 });
    const rows = (
      await db.pool
        .query(`SELECT c.external_ids->>'openstates' AS id, c.committee_name, c.committee_type, p.external_ids->>'openstates' AS parent,
        (SELECT array_agg(m.member_role || ':' || pe.last_name ORDER BY pe.last_name) FROM committee_members m JOIN people pe USING (people_id) WHERE m.committee_id = c.committee_id) AS members
      FROM committees c LEFT JOIN committees p ON p.committee_id = c.parent_id ORDER BY 1`)
    ).rows;
    expect(rows).toEqual([
      {
        id: 'ocd-organization/other',
        committee_name: 'Finance',
        committee_type: 'standing',
        parent: null,
        members: ['chair:One', 'member:Two'],
      },
      {
        id: 'ocd-organization/parent',
        committee_name: 'Resources',
        committee_type: 'standing',
        parent: null,
        members: ['chair:One', 'member:Two'],
      },
      {
        id: 'ocd-organization/sub',
        committee_name: 'Fisheries Subcommittee',
        committee_type: 'subcommittee',
        parent: 'ocd-organization/parent',
        members: ['chair:One', 'member:Two'],
      },
    ]);

    const again = await importOpenStatesPeople(db.pool, path.join(dir, 'data'));
    expect(again.get('committees')).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, errors: 1 });
    expect(again.get('people')).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
  });
});
