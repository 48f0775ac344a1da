// Push-mirror endpoints: register a mirror (a subscription of kind push_mirror) and a synchronous
// test push. Mirrors are listed, deleted, tested, rotated and reactivated through /v1/webhooks/{id}.
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.js';
import { EVENT_NAMES } from '../domain/events.js';
import {
  callerKey,
  createSubscription,
  publicSubscription,
  SubscriptionSchema,
  validateSubscription,
  validateUrl,
} from '../webhooks/kit.js';
import { generateToken, judgeMirror, receiverStatus, samplePush } from './handler.js';
import { MIRROR_DOC } from './docs.js';

const tags = ['Push-mirror'];

const mirror: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/push-mirror',
    {
      schema: {
        operationId: 'createPushMirror',
        summary: 'Register a push-mirror (LegiScan Push wire format)',
        description:
          "Registers a mirror whose deliveries use LegiScan Push's wire format, so a receiver built for LegiScan Push works unchanged. Same URL validation and the same " +
          'cap as webhooks (mirrors count toward the 25 active subscriptions of a key). events defaults to all events. Answers 201 with the mirror (kind "push_mirror") ' +
          'and its auth token, shown this once: every push carries Authorization: Token <token>, plus Standard Webhooks headers signed with the token as the secret ' +
          '(new Webhook(token) in the standardwebhooks library). List, delete, test, rotate the token and reactivate through /v1/webhooks/{id}.\n\n' +
          MIRROR_DOC,
        tags,
        body: Type.Object(
          {
            webhook_url: Type.String(),
            events: Type.Optional(
              Type.Array(Type.String(), { description: `default: all of ${EVENT_NAMES.join(', ')}` }),
            ),
            filters: Type.Optional(
              Type.Object(
                {
                  states: Type.Optional(Type.Array(Type.String())),
                  subjects: Type.Optional(Type.Array(Type.String())),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            data: SubscriptionSchema,
            token: Type.String({ description: 'sent as Authorization: Token <token>; shown once' }),
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (req, reply) => {
      const key = callerKey(req);
      const body = req.body;
      const v = await validateSubscription(
        { ...body, events: body.events ?? [...EVENT_NAMES] },
        app.config.webhookAllowedHosts,
      );
      const token = generateToken();
      const row = await createSubscription(app.db, {
        apiKeyId: key.api_key_id,
        orgName: key.org_name,
        kind: 'push_mirror',
        url: v.url,
        events: v.events,
        states: v.states,
        subjects: v.subjects,
        secret: token,
      });
      return reply.code(201).send({ data: publicSubscription(row), token });
    },
  );

  app.post(
    '/v1/push-mirror/test',
    {
      schema: {
        operationId: 'testPushMirror',
        summary: 'Send one sample push to a URL now',
        description:
          'Sends one real-format sample push (root key bill: the most recently updated bill) to webhook_url synchronously, with the same URL validation, and answers 200 ' +
          'with what happened: http_status, the receiver\'s reply status ("OK", "ERROR", or null for a non-JSON reply), duration_ms, error, and ok (true when the receiver ' +
          'accepted it, as a real push would count it). token, when given, is sent as Authorization: Token <token>. Nothing is stored.',
        tags,
        body: Type.Object(
          { webhook_url: Type.String(), token: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ok: Type.Boolean(),
            http_status: Type.Union([Type.Integer(), Type.Null()]),
            receiver_status: Type.Union([Type.String(), Type.Null()]),
            duration_ms: Type.Integer(),
            error: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (req) => {
      callerKey(req);
      const body = req.body;
      const url = await validateUrl(body.webhook_url, app.config.webhookAllowedHosts);
      const push = JSON.stringify(await samplePush(app.db, app.config.publicBaseUrl));
      const res = await app.outbound.post(url, body.token ? { authorization: `Token ${body.token}` } : {}, push);
      const failure = judgeMirror(res);
      return {
        ok: failure === undefined,
        http_status: res.status,
        receiver_status: receiverStatus(res.body).status ?? null,
        duration_ms: res.duration_ms,
        error: failure ?? null,
      };
    },
  );
};

export const mirrorPlugin = fp(mirror, {
  name: 'lds-mirror',
  fastify: '5.x',
  encapsulate: true,
  // subscriptions are the webhooks' (the same table, cap and /v1/webhooks/{id} endpoints)
  dependencies: ['lds-envelope', 'lds-http', 'lds-webhooks'],
  decorators: { fastify: ['config', 'db'] },
});
