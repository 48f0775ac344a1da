// SQL for the topic taxonomy.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/pool.js';
import type { TopicDetailSchema, TopicSchema } from './schemas.js';

const BILL_COUNT = '(SELECT count(*)::int FROM bill_topics bt WHERE bt.topic_id = t.topic_id)';

export async function listTopics(db: Queryable): Promise<Static<typeof TopicSchema>[]> {
  return (
    await db.query<Static<typeof TopicSchema>>(
      `SELECT t.slug, t.display_name, t.description, t.emoji, t.sort_order, ${BILL_COUNT} AS bill_count
     FROM topics t ORDER BY t.sort_order, t.slug`,
    )
  ).rows;
}

/** One topic with the count of raw subjects mapped to it and up to 25 of their names (a name
 * several states use, in any letter case, counts once, spelled as its most used form). */
export async function getTopic(db: Queryable, slug: string): Promise<Static<typeof TopicDetailSchema> | undefined> {
  return (
    await db.query<Static<typeof TopicDetailSchema>>(
      `SELECT t.slug, t.display_name, t.description, t.emoji, t.sort_order, ${BILL_COUNT} AS bill_count,
       (SELECT count(*)::int FROM subject_topics st JOIN subjects su ON su.subject_id = st.subject_id
        WHERE st.topic_id = t.topic_id AND NOT su.is_interface_label) AS raw_subjects_mapped,
       coalesce((SELECT array_agg(x.subject_name ORDER BY x.bill_count DESC, x.subject_name) FROM (
         SELECT (array_agg(su.subject_name ORDER BY su.bill_count DESC, su.subject_name))[1] AS subject_name, sum(su.bill_count) AS bill_count
         FROM subject_topics st JOIN subjects su ON su.subject_id = st.subject_id
         WHERE st.topic_id = t.topic_id AND NOT su.is_interface_label
         GROUP BY lower(su.subject_name)
         ORDER BY 2 DESC, 1 LIMIT 25) x), '{}') AS sample_subjects
     FROM topics t WHERE t.slug = $1`,
      [slug],
    )
  ).rows[0];
}
