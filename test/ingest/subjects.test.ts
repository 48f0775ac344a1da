// Subjects met by importers, against a real PostgreSQL: a batch's labels are resolved in at most
// two statements (find the stored ones, create the rest with their topic links), and what that
// leaves undecided falls back to one label at a time with the same result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubjectIndex } from '../../src/topics/assign.js';
import { topicsForSubject } from '../../src/topics/rules.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

function counting() {
  const seen: string[] = [];
  const q = {
    query: ((text: string, ...rest: unknown[]) => {
      seen.push(text);
      return (db.pool.query as (...x: unknown[]) => unknown)(text, ...rest);
    }) as typeof db.pool.query,
  };
  return { q, seen };
}

const subject = async (state: number, name: string) =>
  (
    await db.pool.query(
      'SELECT subject_id, subject_name FROM subjects WHERE coalesce(state_id, 0) = $1 AND lower(subject_name) = lower($2)',
      [state, name],
    )
  ).rows;

describe('SubjectIndex.prefetch', () => {
  it('finds and creates the subjects of many bills in two statements, with their topic links', async () => {
    await db.pool.query("INSERT INTO subjects (subject_id, state_id, subject_name) VALUES (900001, 52, 'Taxation')");
    const index = new SubjectIndex();
    const { q, seen } = counting();
    const bills = [
      {
        stateId: 52,
        subjects: [{ name: 'taxation' }, { name: 'Health' }, { name: '  Public lands and natural resources ' }],
      },
      { stateId: 52, subjects: [{ name: 'Health' }, { name: 'Education' }, { name: '' }] },
      { stateId: 1, subjects: [{ name: 'Health' }] },
    ];
    await index.prefetch(q, bills);
    // the topic table is read once per index; the rest is one find and one insert
    expect(seen.filter((s) => !/FROM topics/.test(s))).toHaveLength(2);

    // Nothing is left to ask: every label resolves from the index, the stored one to its row.
    seen.length = 0;
    const ids = await index.resolveAll(q, 52, bills[0]!.subjects);
    expect(seen).toEqual([]);
    expect(ids[0]).toBe(900001);
    for (const [state, name] of [
      [52, 'Health'],
      [52, 'Public lands and natural resources'],
      [52, 'Education'],
      [1, 'Health'],
    ] as const) {
      const rows = await subject(state, name);
      expect(rows, name).toHaveLength(1);
      const links = (
        await db.pool.query(
          'SELECT t.slug FROM subject_topics st JOIN topics t USING (topic_id) WHERE st.subject_id = $1 ORDER BY t.slug',
          [rows[0].subject_id],
        )
      ).rows.map((r) => r.slug);
      expect(links, name).toEqual([...topicsForSubject(name)].sort());
    }
    expect(await subject(52, '')).toEqual([]);
  });

  it('keeps a source id when free, and settles what one statement cannot (two new subjects claiming one id)', async () => {
    const index = new SubjectIndex();
    await index.prefetch(db.pool, [
      {
        stateId: 24,
        subjects: [
          { subject_id: 700001, name: 'Agriculture' },
          { subject_id: 700001, name: 'Appropriations' },
        ],
      },
    ]);
    const ids = await index.resolveAll(db.pool, 24, [
      { subject_id: 700001, name: 'Agriculture' },
      { subject_id: 700001, name: 'Appropriations' },
    ]);
    expect(ids[0]).toBe(700001);
    expect(ids[1]).not.toBe(700001);
    expect(await subject(24, 'Appropriations')).toEqual([{ subject_id: ids[1], subject_name: 'Appropriations' }]);
  });

  it('gives the same ids as resolving one label at a time', async () => {
    const labels = [{ name: 'Crime' }, { name: 'Transportation' }, { name: 'crime' }];
    const one = new SubjectIndex();
    const before = [];
    for (const s of labels) before.push(await one.resolve(db.pool, 30, s));
    const batched = new SubjectIndex();
    await batched.prefetch(db.pool, [{ stateId: 30, subjects: labels }]);
    expect(await batched.resolveAll(db.pool, 30, labels)).toEqual(before);
  });
});
