// GET /v1/bills/{bill_id}/changes and /diff: text changes computed by the diff worker (src/texts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { One, responses } from '../common/schemas.js';
import { intIdOr404 } from '../common/ids.js';
import { enqueuePair } from '../../texts/store.js';
import { DiffSchema, TextChangeRow } from './schemas.js';
import { BillParams } from './detail.js';
import { billExists, textChange, textChangesOf, textsOfBill } from './repository.js';

const ChangesQuery = Type.Object({
  include_whitespace: Type.Optional(
    Type.String({ description: "'1' includes whitespace-only changes; any other value (or none) excludes them" }),
  ),
});
const DiffQuery = Type.Object({
  from: Type.String({ description: 'text_id of the older version (required; see /texts)' }),
  to: Type.String({ description: 'text_id of the newer version (required)' }),
});

function textIdParam(raw: string | undefined, name: string): number {
  if (raw === undefined || !/^\s*[0-9]{1,10}\s*$/.test(raw) || Number(raw) > 2_147_483_647) {
    throw badRequest(`Parameter '${name}' is required and must be an integer text_id of this bill.`, name);
  }
  return Number(raw);
}

export const textChangeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/bills/:bill_id/changes',
    {
      // The spec: '1' includes, any other value excludes; an empty value is one of those.
      config: { emptyParams: ['include_whitespace'] },
      schema: {
        operationId: 'listBillTextChanges',
        summary: 'Changes between consecutive text versions of a bill',
        description:
          'Oldest first. One element per pair of consecutive versions (ordered by text_date, then text_id) that the diff worker has computed; pairs not yet computed are absent until it does, and pairs where either version has no document (listed by the source without its content) are never computed, so they never appear. Whitespace-only changes (including re-publication of an identical text) are excluded unless include_whitespace=1.',
        tags: ['Bills'],
        params: BillParams,
        querystring: ChangesQuery,
        response: responses(
          Type.Object({
            data: Type.Array(TextChangeRow),
            summary: Type.Object({
              bill_id: Type.Integer(),
              count: Type.Integer({ description: 'number of elements in data' }),
            }),
          }),
          400,
          404,
        ),
      },
    },
    async (req) => {
      const billId = intIdOr404(req.params.bill_id, 'bill');
      const rows = await textChangesOf(app.dbRead, [billId], req.query.include_whitespace === '1');
      if (rows.length === 0 && !(await billExists(app.dbRead, billId))) throw notFound(`No bill with id ${billId}.`);
      return { data: rows, summary: { bill_id: billId, count: rows.length } };
    },
  );

  app.get(
    '/v1/bills/:bill_id/diff',
    {
      schema: {
        operationId: 'getBillTextDiff',
        summary: 'Unified diff between two text versions of a bill',
        description:
          'from and to are text_id values of this bill (any two versions). 400 when either is missing or not an integer; 404 not_found for a missing bill or a text of another bill; 404 not_found with reason document_absent (and absent_text_ids) when either version is listed without its document (metadata only): there is nothing to compare; 404 diff_not_computed when the pair has not been processed yet: it is queued and a retry a few seconds later succeeds. Unified diffs are capped at 200 KB (diff_truncated).',
        tags: ['Bills'],
        params: BillParams,
        querystring: DiffQuery,
        response: responses(One(DiffSchema), 400, 404),
      },
    },
    async (req) => {
      const billId = intIdOr404(req.params.bill_id, 'bill');
      const from = textIdParam(req.query.from, 'from');
      const to = textIdParam(req.query.to, 'to');
      const row = await textChange(app.dbRead, billId, from, to);
      if (row) return { data: row };
      if (!(await billExists(app.dbRead, billId))) throw notFound(`No bill with id ${billId}.`);
      const owned = await textsOfBill(app.dbRead, billId, [from, to]);
      if (owned.length < (from === to ? 1 : 2))
        throw notFound(`Text ${from} or ${to} does not belong to bill ${billId}.`);
      // Listed versions whose documents the source did not deliver cannot be compared: say so,
      // rather than diff two empty strings into "identical".
      const absent = owned
        .filter((t) => t.absent)
        .map((t) => t.text_id)
        .sort((a, b) => a - b);
      if (absent.length) {
        throw new ApiError(
          'not_found',
          `The document of text ${absent.join(' and ')} is not available (the source lists the version without its content), so there is nothing to compare.`,
          { reason: 'document_absent', absent_text_ids: absent },
        );
      }
      await enqueuePair(app.db, billId, from, to);
      throw new ApiError(
        'diff_not_computed',
        `The diff from text ${from} to text ${to} has not been computed yet; it is queued, retry in a few seconds.`,
      );
    },
  );
};
