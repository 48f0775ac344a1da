// Request and response schemas of the webhook endpoints (also used by the push-mirror routes).
import { Type } from 'typebox';
import { EVENT_NAMES, EVENT_TABLE_DOC } from '../../domain/events.js';
import { PAYLOAD_VERSION } from '../queue/events.js';

export const SubscriptionBody = Type.Object(
  {
    webhook_url: Type.String({
      description: 'https:// URL of your receiver; no credentials; must not be an internal or private host',
    }),
    events: Type.Array(Type.String(), { description: `event names: ${EVENT_NAMES.join(', ')}. ${EVENT_TABLE_DOC}` }),
    filters: Type.Optional(
      Type.Object(
        {
          states: Type.Optional(
            Type.Array(Type.String(), { description: 'state codes (two letters, DC, US); empty = all' }),
          ),
          subjects: Type.Optional(
            Type.Array(Type.String(), {
              description: "case-insensitive match against a bill's raw subject names or its topic slugs; empty = all",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SubscriptionSchema = Type.Object(
  {
    id: Type.Integer({ description: 'subscription id (an integer, as every id in a path)' }),
    kind: Type.Union([Type.Literal('webhook'), Type.Literal('push_mirror')], {
      description: 'webhook (signed JSON events) or push_mirror (LegiScan Push wire format)',
    }),
    webhook_url: Type.String(),
    events: Type.Array(Type.String()),
    filters: Type.Object({ states: Type.Array(Type.String()), subjects: Type.Array(Type.String()) }),
    active: Type.Boolean(),
    deactivated_reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'gone (receiver answered 410), endpoint_failing (every attempt failed for 5 days), address_blocked, deleted; retries_exhausted on subscriptions disabled before that rule',
    }),
    deactivated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'while set, deliveries carry a signature with the previous secret too',
    }),
    last_delivery: Type.Union([
      Type.Object({
        at: Type.String({ format: 'date-time' }),
        status: Type.String({ description: 'delivered, pending (will retry) or failed' }),
        status_code: Type.Union([Type.Integer(), Type.Null()]),
      }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);

export const CreatedSubscription = Type.Object({
  data: SubscriptionSchema,
  secret: Type.String({ description: 'signing secret (whsec_...), shown this once' }),
});

// Ids in paths are integers (spec): anything else is 400 bad_request, an integer matching no
// subscription of the caller's organisation 404 not_found.
const SubscriptionId = Type.String({ pattern: '^[0-9]+$', description: 'subscription id (integer)' });
export const IdParams = Type.Object({ id: SubscriptionId });
export const DeliveryParams = Type.Object({
  id: SubscriptionId,
  delivery_id: Type.String({
    pattern: '^msg_[A-Za-z0-9_-]{1,64}$',
    description: 'delivery id (msg_...), the webhook-id header',
  }),
});

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  started_at: Type.String({ format: 'date-time' }),
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'msg_..., sent as webhook-id, stable across retries' }),
  event_type: Type.String(),
  event_id: Type.Union([Type.String(), Type.Null()]),
  bill_id: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String({ description: 'pending, in_flight, delivered, failed or cancelled' }),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  attempt_log: Type.Array(AttemptSchema),
});

export const TestResult = Type.Object({
  delivery_id: Type.String(),
  delivered: Type.Boolean(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const PAYLOAD_DOC = `Delivery payload (api_version "${PAYLOAD_VERSION}"), POSTed as application/json and signed with Standard Webhooks headers
(webhook-id = the delivery id msg_..., stable across retries; webhook-timestamp = unix seconds of the attempt;
webhook-signature = "v1,<base64 HMAC-SHA256(base64-decoded secret without whsec_, id.timestamp.body)>", two space-separated
signatures during a secret-rotation overlap). Example:
{"type":"signed","id":"evt_812_signed","api_version":"v1","occurred_at":"2026-11-20T14:03:11.512301Z",
 "data":{"bill":{"bill_id":10000042,"state":"TX","bill_number":"HB12","title":"...","status_id":5,"status_date":"2026-11-20",
 "updated":"2026-11-20T14:03:11Z","url":"https://api.example.org/v1/bills/10000042"},
 "change":{"reason":"StatusChange","reason_id":2,"old_status_id":4,"new_status_id":5}}}
change carries text_id, roll_call_id or amendment_id for Text, Vote and Amendment changes. ${EVENT_TABLE_DOC}`;
