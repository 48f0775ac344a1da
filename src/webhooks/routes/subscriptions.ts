// Subscription endpoints: create, list, delete, rotate the secret, reactivate.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.js';
import { callerKey, callerSubscription } from './key.js';
import { CreatedSubscription, IdParams, PAYLOAD_DOC, SubscriptionBody, SubscriptionSchema } from './schemas.js';
import { DISABLE_RULE_DOC } from '../delivery/disable.js';
import { generateSecret } from '../delivery/signing.js';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  publicSubscription,
  reactivate,
  rotateSecret,
} from '../subscriptions.js';
import { validateSubscription } from './validate.js';

const tags = ['Webhooks'];

export const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        summary: 'Create a webhook subscription',
        description:
          'Creates an active subscription and returns it with its signing secret, shown this once and never again. ' +
          'At most 25 active subscriptions (webhooks and push-mirrors together) per key; the 26th answers 429 subscription_limit with Retry-After: 60 (a slot frees only when one is deleted or deactivated). ' +
          'webhook_url must be https://, without credentials, and neither its literal address nor any address its name resolves to may be ' +
          'loopback, private, link-local, CGNAT, unique-local, multicast, reserved or IPv4 embedded in IPv6 (unless the operator lists the host in WEBHOOK_ALLOWED_HOSTS).\n\n' +
          PAYLOAD_DOC +
          '\n\n' +
          DISABLE_RULE_DOC,
        tags,
        body: SubscriptionBody,
        response: { 201: CreatedSubscription, ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const key = callerKey(req);
      const v = await validateSubscription(req.body, app.config.webhookAllowedHosts);
      const secret = generateSecret();
      const row = await createSubscription(app.db, {
        apiKeyId: key.api_key_id,
        orgName: key.org_name,
        kind: 'webhook',
        url: v.url,
        events: v.events,
        states: v.states,
        subjects: v.subjects,
        secret,
      });
      return reply.code(201).send({ data: publicSubscription(row), secret });
    },
  );

  app.get(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        summary: "List the organisation's subscriptions",
        description:
          "Every subscription of the calling key's organisation (keys of one organisation share them, so old and new keys overlap during key rotation), " +
          'oldest first, active and inactive, including push-mirrors (kind "push_mirror"). Secrets and mirror tokens are never returned.',
        tags,
        response: { 200: Type.Object({ data: Type.Array(SubscriptionSchema) }), ...errorResponses(401) },
      },
    },
    async (req) => {
      const key = callerKey(req);
      return { data: (await listSubscriptions(app.db, key.org_name)).map(publicSubscription) };
    },
  );

  app.get(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        summary: 'Get one subscription',
        tags,
        params: IdParams,
        response: { 200: Type.Object({ data: SubscriptionSchema }), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      return { data: publicSubscription(await callerSubscription(req, req.params.id)) };
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a subscription',
        description:
          'Removes the subscription (active or inactive) and cancels its pending deliveries. Answers 204 with no body; a second delete answers 404.',
        tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const sub = await callerSubscription(req, req.params.id);
      await deleteSubscription(app.db, sub);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Returns a new secret, shown once. Until previous_secret_expires_at (WEBHOOK_SECRET_OVERLAP_SECONDS, default 24 h) every delivery carries two signatures ' +
          'in webhook-signature, one per secret, so receivers can switch without dropping deliveries. 409 subscription_inactive on an inactive subscription.',
        tags,
        params: IdParams,
        response: { 200: CreatedSubscription, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => {
      const sub = await callerSubscription(req, req.params.id, { active: true });
      const secret = app.kinds.require(sub.kind).newSecret();
      const row = await rotateSecret(app.db, sub, secret, app.config.webhookSecretOverlapSeconds ?? 86_400);
      return { data: publicSubscription(row), secret };
    },
  );

  app.post(
    '/v1/webhooks/:id/reactivate',
    {
      schema: {
        operationId: 'reactivateWebhook',
        summary: 'Reactivate an inactive subscription',
        description:
          'Makes an inactive subscription (410 Gone, endpoint failing for 5 days, blocked address) active again; it counts toward the 25 active subscriptions ' +
          '(429 subscription_limit). Deliveries that failed meanwhile stay failed: redeliver them with /recover. Reactivating an active subscription is a no-op.',
        tags,
        params: IdParams,
        response: { 200: Type.Object({ data: SubscriptionSchema }), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const sub = await callerSubscription(req, req.params.id);
      return { data: publicSubscription(await reactivate(app.db, sub)) };
    },
  );
};
