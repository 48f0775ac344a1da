// The ladder in src/domain/status.ts is the spec's, and the statuses table the API joins agrees with it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STATUS, STATUS_NAMES, statusBucket } from '../../src/domain/status.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

it('has the spec ladder and buckets', () => {
  expect(Object.values(STATUS)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect([1, 2, 3, 4, 5, 6, 7, 8].map(statusBucket)).toEqual([
    'alive',
    'alive',
    'alive',
    'passed',
    'passed',
    'failed',
    'failed',
    'passed',
  ]);
});

it('matches the statuses table row for row', async () => {
  const { rows } = await db.pool.query<{ status_id: number; status_name: string; bucket: string }>(
    'SELECT status_id, status_name, bucket FROM statuses ORDER BY status_id',
  );
  expect(rows).toEqual(
    Object.entries(STATUS_NAMES).map(([id, name]) => ({
      status_id: Number(id),
      status_name: name,
      bucket: statusBucket(Number(id)),
    })),
  );
});
