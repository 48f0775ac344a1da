// Delivery endpoints: test delivery, attempt log, replay of one delivery, recover since a time.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Queryable } from '../../db/pool.js';
import { Type } from 'typebox';
import { badRequest } from '../../http/errors.js';
import { clampLimit, checkOffset, LimitParam, OffsetParam, PaginationSchema, pagination } from '../../http/paging.js';
import { parseTimestamp } from '../../http/params.js';
import { errorResponses } from '../../http/schemas.js';
import { attemptDelivery, type DeliveryContext } from '../delivery/attempt.js';
import { enqueueDeliveries, newMessageId, notifyWorkers } from '../queue/enqueue.js';
import { PAYLOAD_VERSION } from '../queue/events.js';
import { callerKey, callerSubscription } from './key.js';
import { claimDue } from '../queue/claims.js';
import { DeliveryParams, DeliverySchema, IdParams, TestResult } from './schemas.js';
import { latestBill, listDeliveries, recoverFailed, replayDelivery } from '../queue/repository.js';

const tags = ['Webhooks'];

export const deliveryRoutes: FastifyPluginAsyncTypebox<{ dctx: () => DeliveryContext }> = async (app, { dctx }) => {
  app.post(
    '/v1/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a synthetic test delivery now',
        description:
          'Sends one delivery of type "test" (a sample bill, change reason "Test") through the real delivery path (signing, address guard, attempt log) ' +
          'synchronously, and answers 200 with what happened. A test delivery gets one attempt, is never retried and never deactivates the subscription; ' +
          'it appears in the attempt log. For a push-mirror the sample is a LegiScan-format bill push. 409 subscription_inactive on an inactive subscription.',
        tags,
        params: IdParams,
        response: { 200: TestResult, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => {
      const sub = await callerSubscription(req, req.params.id, { active: true });
      const msgId = newMessageId();
      const payload = await samplePayload(app.dbRead, app.config.publicBaseUrl, msgId);
      // no wake-up: this call claims and sends its own row
      const [row] = await enqueueDeliveries(
        app.db,
        [
          {
            public_id: msgId,
            subscription_id: sub.id,
            change_id: null,
            event_type: 'test',
            bill_id: null,
            payload: JSON.stringify(payload),
            target: app.kinds.require(sub.kind).testTarget,
            is_test: true,
          },
        ],
        { wake: false },
      );
      const [claimed] = await claimDue(app.db, 1, 1_000_000, app.config.webhookTimeoutMs + 15_000, row.id);
      if (!claimed)
        return { delivery_id: msgId, delivered: false, http_status: null, duration_ms: 0, error: 'not claimed' };
      const r = await attemptDelivery(dctx(), claimed);
      return {
        delivery_id: msgId,
        delivered: r.status === 'delivered',
        http_status: r.statusCode,
        duration_ms: r.durationMs,
        error: r.error,
      };
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries and their attempt log',
        description:
          'Newest first. Each delivery lists every attempt: start time, HTTP status, duration, error and the next attempt time. Allowed on inactive subscriptions.',
        tags,
        params: IdParams,
        querystring: Type.Object({
          status: Type.Optional(
            Type.Union(['pending', 'in_flight', 'delivered', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
          ),
          limit: LimitParam(50, 200),
          offset: OffsetParam,
        }),
        response: {
          200: Type.Object({ data: Type.Array(DeliverySchema), pagination: PaginationSchema }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (req) => {
      const sub = await callerSubscription(req, req.params.id);
      const q = req.query;
      const limit = clampLimit(q.limit, 50, 200);
      const offset = checkOffset(q.offset);
      const data = await listDeliveries(app.dbRead, sub.id, q.status, limit, offset);
      return { data, pagination: pagination(limit, offset, data.length) };
    },
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    {
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Redeliver one delivery',
        description:
          'Queues the delivery again now with the same webhook-id (a delivered one too: replay), restarting its retry schedule. Answers 202 with the delivery. 409 on an inactive subscription.',
        tags,
        params: DeliveryParams,
        response: { 202: Type.Object({ data: DeliverySchema }), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const p = req.params;
      const sub = await callerSubscription(req, p.id, { active: true });
      const d = await replayDelivery(app.db, sub.id, p.delivery_id);
      await notifyWorkers(app.db);
      return reply.code(202).send({ data: d });
    },
  );

  app.post(
    '/v1/webhooks/:id/recover',
    {
      schema: {
        operationId: 'recoverWebhookDeliveries',
        summary: 'Redeliver every failed delivery since a time',
        description:
          'Queues again every delivery of this subscription that ended failed and was created at or after since (and before until, when given). Answers 202 with the count. 409 on an inactive subscription: reactivate first.',
        tags,
        params: IdParams,
        body: Type.Object(
          {
            since: Type.String({ description: 'ISO 8601 date or timestamp' }),
            until: Type.Optional(Type.String({ description: 'ISO 8601 date or timestamp' })),
          },
          { additionalProperties: false },
        ),
        response: {
          202: Type.Object({
            recovered: Type.Integer(),
            since: Type.String(),
            until: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(400, 401, 404, 409),
        },
      },
    },
    async (req, reply) => {
      // the key first: a caller without one hears 401, not a complaint about the body
      callerKey(req);
      const body = req.body;
      const since = parseTimestamp(body.since, 'since');
      const until = parseTimestamp(body.until, 'until');
      if (!since) throw badRequest('since is required.', 'since');
      const sub = await callerSubscription(req, req.params.id, { active: true });
      const recovered = await recoverFailed(app.db, sub.id, since, until);
      await notifyWorkers(app.db);
      return reply.code(202).send({ recovered, since, until: until ?? null });
    },
  );
};

async function samplePayload(db: Queryable, baseUrl: string, msgId: string) {
  const bill = (await latestBill(db)) ?? {
    bill_id: 0,
    state: 'US',
    bill_number: 'HR0',
    title: 'Sample bill',
    status_id: 1,
    status_date: null,
    updated: new Date().toISOString(),
  };
  return {
    type: 'test',
    id: `evt_test_${msgId.slice(4)}`,
    api_version: PAYLOAD_VERSION,
    occurred_at: new Date().toISOString(),
    data: {
      bill: { ...bill, url: `${baseUrl}/v1/bills/${bill.bill_id}` },
      change: { reason: 'Test', reason_id: 0, old_status_id: null, new_status_id: null },
    },
  };
}
