// GET /v1/bills/{bill_id} and its sub-resources (complete sets, no paging, each in the spec's order).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../http/errors.js';
import { ListOf, One, responses } from '../common/schemas.js';
import { intIdOr404, PathIntId } from '../common/ids.js';
import * as S from './schemas.js';
import { getBill, subresource, type SubresourceName } from './repository.js';
import { BillWithParts, embedParts, IncludeParam, parseInclude } from './parts.js';

export const BillParams = Type.Object({ bill_id: PathIntId });
const BillQuery = Type.Object({ include: IncludeParam });

const SUBRESOURCES: Array<{ path: SubresourceName; op: string; summary: string; order: string }> = [
  {
    path: 'sponsors',
    op: 'listBillSponsors',
    summary: 'Sponsors of a bill',
    order: 'In sponsor_order.',
  },
  {
    path: 'history',
    op: 'listBillHistory',
    summary: 'Actions on a bill',
    order: 'In history_step order.',
  },
  {
    path: 'texts',
    op: 'listBillTexts',
    summary: 'Text versions of a bill',
    order: 'Newest first (text_date, then text_id).',
  },
  {
    path: 'votes',
    op: 'listBillVotes',
    summary: 'Roll calls on a bill',
    order: 'Newest first (vote_date, then roll_call_id).',
  },
  {
    path: 'subjects',
    op: 'listBillSubjects',
    summary: 'Raw subject tags of a bill',
    order: 'Alphabetical by subject_name.',
  },
  {
    path: 'amendments',
    op: 'listBillAmendments',
    summary: 'Amendments to a bill',
    order: 'Newest first (amendment_date, then amendment_id).',
  },
  {
    path: 'referrals',
    op: 'listBillReferrals',
    summary: 'Committee referrals of a bill',
    order: 'In referral_step order.',
  },
  {
    path: 'calendar',
    op: 'listBillCalendar',
    summary: 'Calendar events of a bill',
    order: 'Newest first (event_date, event_time).',
  },
  {
    path: 'supplements',
    op: 'listBillSupplements',
    summary: 'Supplements (fiscal notes, analyses, ...) of a bill',
    order: 'Newest first (supplement_date, then supplement_id).',
  },
  {
    path: 'sast',
    op: 'listBillCrossReferences',
    summary: 'Cross-references (same-as, similar-to, ...) of a bill',
    order: 'By sast_type_id, then sast_bill_number.',
  },
  {
    path: 'citations',
    op: 'listBillCitations',
    summary: 'Statute citations of a bill',
    order: 'In publication order (id). Empty where the state does not publish citations.',
  },
  {
    path: 'analyses',
    op: 'listBillAnalyses',
    summary: 'Published analyses of a bill',
    order: 'Newest first (analysis_date, then id). Empty where the state does not publish analyses.',
  },
];

export const billDetailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/bills/:bill_id',
    {
      schema: {
        operationId: 'getBill',
        summary: 'One bill',
        description:
          'Finality is the completed flag (1 = terminal), not inferred from status_id. With include (e.g. ' +
          'include=all), the bill embeds the named parts, each under its own key with exactly the rows and order of its ' +
          'own sub-resource endpoint: the whole bill in one request.',
        tags: ['Bills'],
        params: BillParams,
        querystring: BillQuery,
        response: responses(One(BillWithParts), 400, 404),
      },
    },
    async (req) => {
      const { bill_id } = req.params;
      const include = parseInclude(req.query.include);
      const bill = await getBill(app.dbRead, intIdOr404(bill_id, 'bill'));
      if (!bill) throw notFound(`No bill with id ${bill_id}.`);
      if (include) await embedParts(app.dbRead, [bill], include);
      return { data: bill };
    },
  );

  for (const sr of SUBRESOURCES) {
    app.get(
      `/v1/bills/:bill_id/${sr.path}`,
      {
        schema: {
          operationId: sr.op,
          summary: sr.summary,
          description: `${sr.order} The complete set, no paging. 404 when the bill does not exist; 200 with an empty data array when it has no rows.`,
          tags: ['Bills'],
          params: BillParams,
          response: responses(ListOf(S.SUBRESOURCE_ROWS[sr.path]), 400, 404),
        },
      },
      async (req) => {
        const { bill_id } = req.params;
        const rows = await subresource(app.dbRead, sr.path, intIdOr404(bill_id, 'bill'));
        if (!rows) throw notFound(`No bill with id ${bill_id}.`);
        return { data: rows };
      },
    );
  }
};
