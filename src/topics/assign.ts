// Writers' side of the topic fold: raw subjects become rows of `subjects` (per state), each new
// subject gets its topics from the rule set (rules.ts) in subject_topics, and a bill's subjects
// materialise into bill_topics. Subject bill counts are refreshed for touched subjects at the end.
import type { Queryable } from '../db/pool.js';
import { isInterfaceLabel, topicsForSubject } from './rules.js';

export interface RawSubject {
  subject_id?: number;
  name: string;
}

/** A subject as a state knows it: labels differing only in case are one subject. */
const subjectKey = (stateId: number | null, name: string) => `${stateId ?? 0}:${name.toLowerCase()}`;

type SubjectRow = { subject_id: number; state_id: number | null; subject_name: string };

/** The topic ids the rule set gives a new subject's label. */
const topicIdsFor = (topics: Map<string, number>, name: string) =>
  topicsForSubject(name)
    .map((slug) => topics.get(slug))
    .filter((t): t is number => t !== undefined);

export class SubjectIndex {
  private readonly ids = new Map<string, number>();
  private topicIds?: Map<string, number>;
  readonly touched = new Set<number>();

  private async topics(db: Queryable): Promise<Map<string, number>> {
    if (!this.topicIds) {
      const { rows } = await db.query<{ slug: string; topic_id: number }>('SELECT slug, topic_id FROM topics');
      this.topicIds = new Map(rows.map((r) => [r.slug, r.topic_id]));
    }
    return this.topicIds;
  }

  /** subject_id for a raw label in a state, creating the subject (and its topic links) if new. */
  async resolve(db: Queryable, stateId: number, s: RawSubject): Promise<number> {
    const name = s.name.trim();
    const key = subjectKey(stateId, name);
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const find = () =>
      db.query<{ subject_id: number }>(
        'SELECT subject_id FROM subjects WHERE coalesce(state_id, 0) = $1 AND lower(subject_name) = lower($2)',
        [stateId, name],
      );
    let { rows } = await find();
    if (!rows[0]) {
      const topicIds = topicIdsFor(await this.topics(db), name);
      // A source's own subject id is kept when free; otherwise the import sequence issues one.
      // The subject and its topic links go in one statement.
      ({ rows } = await db.query<{ subject_id: number }>(
        `WITH ins AS (
           INSERT INTO subjects (subject_id, state_id, subject_name, is_interface_label)
           VALUES (CASE WHEN $1::int IS NOT NULL AND NOT EXISTS (SELECT 1 FROM subjects WHERE subject_id = $1::int) THEN $1::int
                        ELSE nextval('import_ids')::int END, $2, $3, $4)
           ON CONFLICT DO NOTHING RETURNING subject_id),
         links AS (INSERT INTO subject_topics (subject_id, topic_id) SELECT subject_id, unnest($5::smallint[]) FROM ins ON CONFLICT DO NOTHING)
         SELECT subject_id FROM ins`,
        [s.subject_id ?? null, stateId, name, isInterfaceLabel(name), topicIds],
      ));
      if (!rows[0]) ({ rows } = await find());
    }
    const id = rows[0]!.subject_id;
    this.ids.set(key, id);
    return id;
  }

  /** subject_ids for a bill's raw labels (blank labels dropped). */
  async resolveAll(db: Queryable, stateId: number, subjects: RawSubject[]): Promise<number[]> {
    await this.prefetch(db, [{ stateId, subjects }]);
    const ids: number[] = [];
    for (const s of subjects) if (s.name.trim()) ids.push(await this.resolve(db, stateId, s));
    return ids;
  }

  /**
   * Learns the ids of every label of many bills in at most two statements: one finds the stored
   * subjects, one creates the rest with their topic links. A source (Congress) can bring hundreds
   * of new subjects in a batch, which resolve() alone would create with two round trips each.
   * Whatever this leaves unknown (a label two bills spell in different cases, a source id two new
   * subjects claim) is resolved one by one by resolve(), as before.
   */
  async prefetch(db: Queryable, bills: { stateId: number; subjects: RawSubject[] }[]): Promise<void> {
    const wanted = new Map<string, { stateId: number; s: RawSubject; name: string }>();
    for (const { stateId, subjects } of bills) {
      for (const s of subjects) {
        const name = s.name.trim();
        const key = subjectKey(stateId, name);
        if (name && !this.ids.has(key) && !wanted.has(key)) wanted.set(key, { stateId, s, name });
      }
    }
    if (wanted.size === 0) return;
    const list = [...wanted.values()];
    const learn = (rows: SubjectRow[]) => {
      for (const r of rows) {
        const key = subjectKey(r.state_id, r.subject_name);
        if (wanted.delete(key)) this.ids.set(key, r.subject_id);
      }
    };
    learn(
      (
        await db.query<SubjectRow>(
          `SELECT s.subject_id, s.state_id, s.subject_name FROM subjects s
       JOIN unnest($1::int[], $2::text[]) AS w(state_id, name) ON coalesce(s.state_id, 0) = w.state_id AND lower(s.subject_name) = lower(w.name)`,
          [list.map((x) => x.stateId), list.map((x) => x.name)],
        )
      ).rows,
    );
    const fresh = [...wanted.values()];
    if (!fresh.length) return;
    const topics = await this.topics(db);
    const links = fresh.flatMap((x) => topicIdsFor(topics, x.name).map((t) => [x.stateId, x.name, t] as const));
    // As in resolve(): a source's own subject id is kept when free, otherwise the sequence issues one.
    learn(
      (
        await db.query<SubjectRow>(
          `WITH ins AS (
         INSERT INTO subjects (subject_id, state_id, subject_name, is_interface_label)
         SELECT CASE WHEN n.sid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM subjects x WHERE x.subject_id = n.sid) THEN n.sid
                     ELSE nextval('import_ids')::int END, n.state_id, n.name, n.label
         FROM unnest($1::int[], $2::int[], $3::text[], $4::bool[]) WITH ORDINALITY AS n(sid, state_id, name, label, i) ORDER BY n.i
         ON CONFLICT DO NOTHING RETURNING subject_id, state_id, subject_name),
       links AS (
         INSERT INTO subject_topics (subject_id, topic_id)
         SELECT ins.subject_id, l.topic_id FROM ins JOIN unnest($5::int[], $6::text[], $7::smallint[]) AS l(state_id, name, topic_id)
           ON ins.state_id = l.state_id AND ins.subject_name = l.name
         ON CONFLICT DO NOTHING)
       SELECT * FROM ins`,
          [
            fresh.map((x) => x.s.subject_id ?? null),
            fresh.map((x) => x.stateId),
            fresh.map((x) => x.name),
            fresh.map((x) => isInterfaceLabel(x.name)),
            links.map((l) => l[0]),
            links.map((l) => l[1]),
            links.map((l) => l[2]),
          ],
        )
      ).rows,
    );
  }

  /** Marks subjects whose bill counts need refreshing at the end of the import. */
  touch(ids: number[]): void {
    for (const id of ids) this.touched.add(id);
  }

  /** Forgets ids learnt in a transaction that rolled back. */
  reset(): void {
    this.ids.clear();
  }

  /** Brings subjects.bill_count up to date for every subject this import touched. */
  async refreshCounts(db: Queryable): Promise<void> {
    if (this.touched.size === 0) return;
    await db.query(
      `UPDATE subjects s SET bill_count = (SELECT count(*) FROM bill_subjects b WHERE b.subject_id = s.subject_id)
       WHERE s.subject_id = ANY($1::int[])`,
      [[...this.touched]],
    );
    this.touched.clear();
  }
}

type UnmappedSubject = { subject_id: number; state: string | null; subject_name: string; bill_count: number };

/** Raw subjects reaching no topic, with bill counts (for `lds topics unmapped`). */
export async function unmappedSubjects(db: Queryable, limit = 100): Promise<UnmappedSubject[]> {
  const { rows } = await db.query<UnmappedSubject>(
    `SELECT s.subject_id, st.state_abbr AS state, s.subject_name, s.bill_count
       FROM subjects s LEFT JOIN states st USING (state_id)
      WHERE NOT s.is_interface_label AND NOT EXISTS (SELECT 1 FROM subject_topics t WHERE t.subject_id = s.subject_id)
      ORDER BY s.bill_count DESC, s.subject_name LIMIT $1`,
    [limit],
  );
  return rows;
}
