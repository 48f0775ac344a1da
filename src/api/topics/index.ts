// GET /v1/topics and /v1/topics/{slug}: the canonical topic taxonomy over raw subjects.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { SLUG } from '../../http/params.js';
import { ListOf, responses } from '../common/schemas.js';
import { getTopic, listTopics } from './repository.js';
import { TopicSchema, TopicDetailSchema } from './schemas.js';

const Params = Type.Object({ slug: Type.String({ description: 'topic slug' }) });

export const topicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Topics and subjects'];
  app.get(
    '/v1/topics',
    {
      schema: {
        operationId: 'listTopics',
        summary: 'Topic taxonomy',
        tags,
        description: 'Ordered by sort_order.',
        response: responses(ListOf(TopicSchema)),
      },
    },
    async () => {
      const rows = await listTopics(app.dbRead);
      return { data: rows };
    },
  );

  app.get(
    '/v1/topics/:slug',
    {
      schema: {
        operationId: 'getTopic',
        summary: 'One topic with its raw subjects',
        tags,
        params: Params,
        description: 'The topic object at the top level (no data wrapper). Malformed slug: 400; unknown slug: 404.',
        response: responses(TopicDetailSchema, 400, 404),
      },
    },
    async (req) => {
      const { slug } = req.params;
      if (!SLUG.test(slug))
        throw badRequest(`The topic slug must be lowercase letters, digits and dashes; got '${slug}'.`, 'slug');
      const row = await getTopic(app.dbRead, slug);
      if (!row) throw notFound(`No topic '${slug}'; GET /v1/topics lists them.`);
      return row;
    },
  );
};
