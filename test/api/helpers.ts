// Shared by the read API tests: a test app on a fresh database loaded with the fixture corpus.
import { afterAll, beforeAll } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { buildFixture } from '../helpers/fixtures.js';

export interface Reader {
  t: TestApp;
  get(url: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

export function useFixtureApp(): Reader {
  const r = {} as Reader;
  beforeAll(async () => {
    r.t = await testApp();
    await buildFixture(r.t.db.pool);
    r.get = async (url: string) => {
      const res = await r.t.app.inject({ method: 'GET', url, headers: { 'x-api-key': r.t.key } });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
    };
  });
  afterAll(async () => {
    await r.t?.close();
  });
  return r;
}

export const keys = (o: object) => Object.keys(o).sort();
export const sorted = (a: string[]) => [...a].sort();
