// A bounded replay comes from memory (issue 25): the hub's ring holds at least the newest
// STREAM_REPLAY_MAX_EVENTS + 1 changes whatever their age, so a stream asking for the whole change
// log (`since=0001-01-01`, as a noisy tenant's 500 streams did) gets its reset and the newest
// changes without a query on the change log and without serializing them again per stream. The
// change log is locked from another connection meanwhile: a query on it would wait.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { recordChanges, type ChangeInput } from '../../src/changes/record.js';
import { withTransaction } from '../../src/db/pool.js';
import { testConfig } from '../helpers/app.js';
import { billOf, realtimeEnv, STATE_IDS, until, type Env } from './env.js';
import { openStream } from './sse-client.js';

const MAX = 50;
const SETTINGS = { streamReplayMaxEvents: MAX, streamRotateMs: 120_000, streamHeartbeatMs: 60_000, relayPollMs: 100 };

let env: Env;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  env = await realtimeEnv(SETTINGS);
  const inputs: ChangeInput[] = Array.from({ length: MAX + 30 }, (_, i) => ({ bill_id: billOf('CA', 1 + (i % 20)), state_id: STATE_IDS.CA, reason: 'StatusChange', detail: {} }));
  await withTransaction(env.db.pool, (c) => recordChanges(c, inputs));
  await until(async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0, 30_000);
  await env.relay.stop();
  // older than the ring's window (5 minutes): only the newest MAX + 1 are loaded, for their count
  await env.db.pool.query(`UPDATE changes SET changed_at = changed_at - interval '1 hour'`);
  await env.db.pool.query(`UPDATE relay_state SET high_water = high_water - interval '1 hour'`);
  app = await buildApp(testConfig(SETTINGS), { db: env.db.pool, logger: false, bus: env.relayBus, databaseUrl: env.db.url });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await env?.close();
});

describe('a replay of the whole change log', () => {
  it('is the reset and the newest STREAM_REPLAY_MAX_EVENTS changes, from memory', async () => {
    const { rows } = await env.db.pool.query<{ t: string }>(`SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes ORDER BY changed_at`);
    const all = rows.map((r) => r.t);
    const lock = await env.db.pool.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE changes IN ACCESS EXCLUSIVE MODE');
    try {
      const s = await openStream(`${url}/v1/stream?since=0001-01-01`, { 'x-api-key': env.key });
      expect(s.status).toBe(200);
      await until(() => s.events().filter((e) => e.event === 'bill_change').length === MAX);
      const events = s.events().filter((e) => e.event !== undefined);
      expect(events[0].event).toBe('reset');
      expect(JSON.parse(events[0].data ?? '{}')).toMatchObject({ reason: 'replay_limit', cursor: all[all.length - MAX - 1], max_events: MAX });
      expect(events.slice(1).map((e) => e.id)).toEqual(all.slice(-MAX));
      s.close();
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
  });
});
