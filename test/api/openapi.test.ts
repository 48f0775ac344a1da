// The OpenAPI document describes every read route with operationId, summary, tags and responses.
import { describe, expect, it } from 'vitest';
import { useFixtureApp } from './helpers.js';

const r = useFixtureApp();
const READ_ROUTES = [
  '/v1/states',
  '/v1/sessions',
  '/v1/bills',
  '/v1/bills/{bill_id}',
  ...[
    'sponsors',
    'history',
    'texts',
    'votes',
    'subjects',
    'amendments',
    'referrals',
    'calendar',
    'supplements',
    'sast',
    'citations',
    'analyses',
    'changes',
    'diff',
  ].map((s) => `/v1/bills/{bill_id}/${s}`),
  '/v1/votes/{roll_call_id}',
  '/v1/votes/{roll_call_id}/details',
  '/v1/legislators',
  '/v1/legislators/{people_id}',
  '/v1/legislators/{people_id}/votes',
  '/v1/legislators/{people_id}/bills',
  '/v1/committees',
  '/v1/committees/{committee_id}',
  '/v1/committees/{committee_id}/members',
  '/v1/committees/{committee_id}/hearings',
  '/v1/hearings',
  '/v1/topics',
  '/v1/topics/{slug}',
  '/v1/subjects',
  '/v1/candidates',
  '/v1/candidates/{id}',
];

describe('OpenAPI', () => {
  it("documents all 34 read routes (the spec's 46 endpoints less 4 meta and 8 realtime)", async () => {
    expect(READ_ROUTES).toHaveLength(34);
    const res = await r.t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    const opIds = new Set<string>();
    for (const path of READ_ROUTES) {
      const op = doc.paths[path]?.get;
      expect(op, path).toBeDefined();
      expect(op.operationId, path).toBeTruthy();
      expect(op.summary, path).toBeTruthy();
      expect(op.tags?.length, path).toBeGreaterThan(0);
      expect(op.responses['200'], path).toBeDefined();
      opIds.add(op.operationId);
    }
    expect(opIds.size).toBe(34);
    for (const path of READ_ROUTES.filter((p) => p.includes('{'))) {
      expect(doc.paths[path].get.responses['404'], path).toBeDefined();
      expect(doc.paths[path].get.responses['400'], path).toBeDefined();
    }
  });
});
