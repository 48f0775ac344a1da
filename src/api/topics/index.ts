// GET /v1/topics and /v1/topics/{slug}: the canonical topic taxonomy over raw subjects.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../../http/errors.js';
import { SLUG } from '../../http/params.js';
import { Int, ListOf, responses, Str } from '../common/schemas.js';

const topicFields = {
  slug: Type.String({ description: 'lowercase letters, digits, dashes' }), display_name: Str(), description: Str(), emoji: Str(),
  sort_order: Int(), bill_count: Type.Integer({ description: 'bills tagged with a subject mapped to this topic' }),
};
export const TopicSchema = Type.Object(topicFields);
export const TopicDetailSchema = Type.Object({
  ...topicFields,
  raw_subjects_mapped: Type.Integer({ description: 'raw subject labels folded into this topic (interface labels not counted)' }),
  sample_subjects: Type.Array(Type.String(), { maxItems: 25, description: 'up to 25 distinct raw subject names (a name used by several states, in any letter case, counts once with its bill counts summed, spelled as its most used form), by bill count descending', uniqueItems: true }),
});
const Params = Type.Object({ slug: Type.String({ description: 'topic slug' }) });

const BILL_COUNT = '(SELECT count(*)::int FROM bill_topics bt WHERE bt.topic_id = t.topic_id)';

export async function topicRoutes(app: FastifyInstance) {
  const tags = ['Topics and subjects'];
  app.get('/v1/topics', {
    schema: {
      operationId: 'listTopics', summary: 'Topic taxonomy', tags,
      description: 'Ordered by sort_order.',
      response: responses(ListOf(TopicSchema)),
    },
  }, async () => {
    const { rows } = await app.dbRead.query(
      `SELECT t.slug, t.display_name, t.description, t.emoji, t.sort_order, ${BILL_COUNT} AS bill_count
       FROM topics t ORDER BY t.sort_order, t.slug`);
    return { data: rows };
  });

  app.get('/v1/topics/:slug', {
    schema: {
      operationId: 'getTopic', summary: 'One topic with its raw subjects', tags, params: Params,
      description: 'The topic object at the top level (no data wrapper). Malformed slug: 400; unknown slug: 404.',
      response: responses(TopicDetailSchema, 400, 404),
    },
  }, async (req) => {
    const { slug } = req.params as Type.Static<typeof Params>;
    if (!SLUG.test(slug)) throw badRequest(`The topic slug must be lowercase letters, digits and dashes; got '${slug}'.`, 'slug');
    const row = (await app.dbRead.query(
      `SELECT t.slug, t.display_name, t.description, t.emoji, t.sort_order, ${BILL_COUNT} AS bill_count,
         (SELECT count(*)::int FROM subject_topics st JOIN subjects su ON su.subject_id = st.subject_id
          WHERE st.topic_id = t.topic_id AND NOT su.is_interface_label) AS raw_subjects_mapped,
         coalesce((SELECT array_agg(x.subject_name ORDER BY x.bill_count DESC, x.subject_name) FROM (
           SELECT (array_agg(su.subject_name ORDER BY su.bill_count DESC, su.subject_name))[1] AS subject_name, sum(su.bill_count) AS bill_count
           FROM subject_topics st JOIN subjects su ON su.subject_id = st.subject_id
           WHERE st.topic_id = t.topic_id AND NOT su.is_interface_label
           GROUP BY lower(su.subject_name)
           ORDER BY 2 DESC, 1 LIMIT 25) x), '{}') AS sample_subjects
       FROM topics t WHERE t.slug = $1`, [slug])).rows[0];
    if (!row) throw notFound(`No topic '${slug}'; GET /v1/topics lists them.`);
    return row;
  });
}
