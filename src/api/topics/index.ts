// GET /v1/topics and /v1/topics/{slug}: the canonical topic taxonomy over raw subjects.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { SLUG } from '../../http/params.js';
import { Int, ListOf, responses, Str } from '../common/schemas.js';
import { getTopic, listTopics } from './repository.js';

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

export const topicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Topics and subjects'];
  app.get('/v1/topics', {
    schema: {
      operationId: 'listTopics', summary: 'Topic taxonomy', tags,
      description: 'Ordered by sort_order.',
      response: responses(ListOf(TopicSchema)),
    },
  }, async () => {
    const rows = await listTopics(app.dbRead);
    return { data: rows };
  });

  app.get('/v1/topics/:slug', {
    schema: {
      operationId: 'getTopic', summary: 'One topic with its raw subjects', tags, params: Params,
      description: 'The topic object at the top level (no data wrapper). Malformed slug: 400; unknown slug: 404.',
      response: responses(TopicDetailSchema, 400, 404),
    },
  }, async (req) => {
    const { slug } = req.params;
    if (!SLUG.test(slug)) throw badRequest(`The topic slug must be lowercase letters, digits and dashes; got '${slug}'.`, 'slug');
    const row = await getTopic(app.dbRead, slug);
    if (!row) throw notFound(`No topic '${slug}'; GET /v1/topics lists them.`);
    return row;
  });
};
