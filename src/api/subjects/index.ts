// GET /v1/subjects: raw subject labels by bill count.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { clampLimit, LimitParam } from '../../http/paging.js';
import { parseState } from '../../http/params.js';
import { Int, responses, Str } from '../common/schemas.js';
import { text } from '../common/ids.js';
import { likeContains, Where } from '../common/sql.js';
import { stateIdOf } from '../reference/repository.js';

const Query = Type.Object({
  state: Type.Optional(Type.String({ description: 'jurisdiction code; 400 otherwise' })),
  q: Type.Optional(Type.String({ description: 'case-insensitive substring of the subject name' })),
  limit: LimitParam(100, 1000),
});
export const SubjectListRow = Type.Object({ subject_id: Int(), subject_name: Str(), bill_count: Int() });

export async function subjectRoutes(app: FastifyInstance) {
  app.get('/v1/subjects', {
    schema: {
      operationId: 'listSubjects', summary: 'Raw subject labels', tags: ['Topics and subjects'],
      description: 'Ordered by bill_count descending (then subject_id). Interface labels that portals use as tags (bill-text, first-reading, ...) are excluded. count is the number of rows returned.',
      querystring: Query,
      response: responses(Type.Object({ data: Type.Array(SubjectListRow), count: Type.Integer({ description: 'rows returned' }) }), 400),
    },
  }, async (req) => {
    const qs = req.query as Type.Static<typeof Query>;
    const state = parseState(qs.state);
    const w = new Where();
    w.add('NOT su.is_interface_label');
    if (state) w.add(`su.state_id = ${w.p(stateIdOf(state))}`);
    const q = text(qs.q);
    if (q) w.add(`lower(su.subject_name) LIKE ${w.p(likeContains(q.toLowerCase()))}`);
    const { rows } = await app.dbRead.query(
      `SELECT su.subject_id, su.subject_name, su.bill_count FROM subjects su ${w.sql()}
       ORDER BY su.bill_count DESC, su.subject_id LIMIT ${w.p(clampLimit(qs.limit, 100, 1000))}`, w.params);
    return { data: rows, count: rows.length };
  });
}
