// The webhook and push-mirror endpoints are all in the OpenAPI document, valid, with responses.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

it('documents every webhook and push-mirror operation', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'x-api-key': t.key } });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  const ops = Object.entries(
    doc.paths as Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>,
  )
    .filter(([p]) => p.startsWith('/v1/webhooks') || p.startsWith('/v1/push-mirror'))
    .flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })));
  expect(ops.map((o) => o.key).sort()).toEqual([
    'DELETE /v1/webhooks/{id}',
    'GET /v1/webhooks',
    'GET /v1/webhooks/{id}',
    'GET /v1/webhooks/{id}/deliveries',
    'POST /v1/push-mirror',
    'POST /v1/push-mirror/test',
    'POST /v1/webhooks',
    'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry',
    'POST /v1/webhooks/{id}/reactivate',
    'POST /v1/webhooks/{id}/recover',
    'POST /v1/webhooks/{id}/rotate-secret',
    'POST /v1/webhooks/{id}/test',
  ]);
  for (const { key, op } of ops) {
    expect(op.operationId, key).toBeTruthy();
    expect(Object.keys(op.responses), key).toContain('401');
  }
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
});
