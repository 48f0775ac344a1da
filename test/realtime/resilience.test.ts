// Failures: a killed database connection mid-stream, a relay failover, a bus outage, two gateways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_LOCK_KEY, startRelay } from '../../src/changes/relay.js';
import type { ChangeBus, ChangeEvent } from '../../src/changes/events.js';
import { createPool } from '../../src/db/pool.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { change, newBus, realtimeEnv, silent, sleep, untilStamped, until, type Env } from './env.js';
import { changeEvents, openStream } from './sse-client.js';
import { pgProxy } from '../helpers/pg-proxy.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ streamHeartbeatMs: 300, relayPollMs: 100, streamRotateMs: 120_000 });
});
afterAll(async () => env?.close());

const stamped = async () => {
  const { rows } = await env.db.pool.query<{ t: string }>(
    `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE changed_at IS NOT NULL ORDER BY changed_at`,
  );
  return rows.map((r) => r.t);
};

describe('realtime under failure', () => {
  it('sends event: error when the database fails mid-stream, then recovers without loss', async () => {
    const target = new URL(env.db.url);
    const proxy = pgProxy(target);
    const port = await proxy.listen();
    const readUrl = new URL(env.db.url);
    readUrl.hostname = '127.0.0.1';
    readUrl.port = String(port);
    const readPool = createPool(readUrl.toString(), 4, 'lds-test-read');
    const cfg = testConfig({ streamHeartbeatMs: 300, streamRotateMs: 120_000 });
    const app = await buildTestApp(cfg, {
      db: env.db.pool,
      dbRead: readPool,
      logger: false,
      bus: env.relayBus,
      databaseUrl: env.db.url,
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const before = (await stamped()).at(-1) ?? '2000-01-01T00:00:00Z';
      proxy.down();
      await env.db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'lds-test-read'`,
      );
      const s = await openStream(`${url}/v1/stream?since=${before}&states=TX`, { 'x-api-key': env.key });
      expect(s.status).toBe(200);
      const err = await until(() => s.events().find((e) => e.event === 'error'));
      expect(JSON.parse(err.data!)).toMatchObject({
        reason: 'database_unavailable',
        cursor: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        retry_ms: expect.any(Number),
      });
      await change(env.db, 'TX', 'Amendment', 9);
      await change(env.db, 'TX', 'Amendment', 10);
      // Both are stamped and published while the stream's database is still unreachable.
      await untilStamped(env.db);
      proxy.up();
      await change(env.db, 'TX', 'Amendment', 11);
      await untilStamped(env.db);
      const expected = (
        await env.db.pool.query<{ t: string }>(
          `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE state_id = 43 AND changed_at > $1::timestamptz ORDER BY changed_at`,
          [before],
        )
      ).rows.map((r) => r.t);
      await until(async () => changeEvents(s).length >= expected.length && (await stamped()).length > 0);
      expect(changeEvents(s).map((e) => e.id)).toEqual(expected);
      s.close();
    } finally {
      await app.close();
      await readPool.end();
      await proxy.close();
    }
  });

  it('fails over to a standby relay when the active one loses its lock session, losing and duplicating nothing', async () => {
    const s = await openStream(`${env.url}/v1/stream?since=${(await stamped()).at(-1)}`, { 'x-api-key': env.key });
    const standby = await startRelay({
      config: env.config,
      db: env.db.pool,
      databaseUrl: env.db.url,
      bus: env.relayBus,
      log: silent,
    });
    try {
      expect(env.relay.isActive()).toBe(true);
      expect(standby.isActive()).toBe(false);
      const stampedBefore = (await stamped()).length;
      const writes = (async () => {
        for (let i = 0; i < 30; i++) {
          await change(env.db, 'NY', 'StatusChange', 1 + (i % 20));
          await sleep(50);
        }
      })();
      // The active relay has stamped some of the writes before it dies.
      await until(async () => (await stamped()).length >= stampedBefore + 3);
      // the active relay's process dies: its lock session is killed and it never comes back
      await env.db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [RELAY_LOCK_KEY],
      );
      await env.relay.stop();
      await until(() => standby.isActive());
      expect(env.relay.isActive()).toBe(false);
      await writes;
      const { rows } = await env.db.pool.query<{ n: number; max: number; unstamped: number }>(
        'SELECT count(seq)::int AS n, max(seq)::int AS max, count(*) FILTER (WHERE seq IS NULL)::int AS unstamped FROM changes',
      );
      await untilStamped(env.db);
      const after = await env.db.pool.query<{ n: number; max: number }>(
        'SELECT count(seq)::int AS n, max(seq)::int AS max FROM changes',
      );
      expect(after.rows[0].n).toBe(after.rows[0].max); // seq is gapless and unique
      expect(rows[0].n + rows[0].unstamped).toBe(after.rows[0].n);
      const nyCount = (
        await env.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM changes WHERE state_id = 32 AND detail = '{}' AND changed_at > now() - interval '1 minute'`,
        )
      ).rows[0].n;
      await until(() => changeEvents(s).filter((e) => JSON.parse(e.data!).state === 'NY').length >= 30);
      const ids = changeEvents(s).map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(nyCount).toBeGreaterThanOrEqual(30);
      s.close();
    } finally {
      await standby.stop();
      env.relay = await startRelay({
        config: env.config,
        db: env.db.pool,
        databaseUrl: env.db.url,
        bus: env.relayBus,
        log: silent,
      });
    }
  });

  it('loses nothing when the bus refuses publishes for a while', async () => {
    // a relay whose bus is down: publishes fail until restored (the outage), subscribers are the real bus's
    let down = true;
    const flaky: ChangeBus = {
      kind: env.relayBus.kind,
      publish: async (events: ChangeEvent[]) => {
        if (down) throw new Error('bus unavailable');
        return env.relayBus.publish(events);
      },
      subscribe: (h) => env.relayBus.subscribe(h),
      healthy: () => !down,
      close: async () => undefined,
    };
    await env.relay.stop();
    const since = (await stamped()).at(-1)!;
    const s = await openStream(`${env.url}/v1/stream?since=${since}&states=FL`, { 'x-api-key': env.key });
    const relay = await startRelay({
      config: env.config,
      db: env.db.pool,
      databaseUrl: env.db.url,
      bus: flaky,
      log: silent,
    });
    try {
      await until(() => relay.isActive());
      for (let i = 0; i < 10; i++) await change(env.db, 'FL', 'Vote', 1 + i);
      await untilStamped(env.db);
      const st = await env.db.pool.query<{ last_seq: number; published_seq: number }>(
        'SELECT last_seq, published_seq FROM relay_state',
      );
      expect(st.rows[0].published_seq).toBeLessThan(st.rows[0].last_seq);
      down = false;
      await until(async () => {
        const r = await env.db.pool.query<{ last_seq: number; published_seq: number }>(
          'SELECT last_seq, published_seq FROM relay_state',
        );
        return r.rows[0].published_seq === r.rows[0].last_seq;
      });
      await until(() => changeEvents(s).length >= 10);
      const ids = changeEvents(s).map((e) => e.id);
      const expected = (
        await env.db.pool.query<{ t: string }>(
          `SELECT to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM changes WHERE state_id = 9 AND changed_at > $1::timestamptz ORDER BY changed_at`,
          [since],
        )
      ).rows.map((r) => r.t);
      expect(ids).toEqual(expected);
      s.close();
    } finally {
      await relay.stop();
      env.relay = await startRelay({
        config: env.config,
        db: env.db.pool,
        databaseUrl: env.db.url,
        bus: env.relayBus,
        log: silent,
      });
    }
  });

  it('two gateway processes sharing the bus both deliver every change', async () => {
    // a second gateway with its own bus connection (its own NATS connection when NATS_URL is set)
    const cfg = testConfig({ streamHeartbeatMs: 300 });
    const ownBus = env.relayBus.kind === 'nats' ? await newBus(cfg, env.db.name) : env.relayBus;
    const app2 = await buildTestApp(cfg, { db: env.db.pool, logger: false, bus: ownBus, databaseUrl: env.db.url });
    const url2 = await app2.listen({ port: 0, host: '127.0.0.1' });
    try {
      const since = (await stamped()).at(-1)!;
      const a = await openStream(`${env.url}/v1/stream?states=CA`, { 'x-api-key': env.key, 'last-event-id': since });
      const b = await openStream(`${url2}/v1/stream?states=CA`, { 'x-api-key': env.key, 'last-event-id': since });
      // Both connections are registered with their hub (a heartbeat has reached each) before the writes.
      await until(() => a.text().includes(': ping') && b.text().includes(': ping'));
      for (let i = 0; i < 20; i++) await change(env.db, 'CA', 'Text', 1 + i);
      await until(() => changeEvents(a).length >= 20 && changeEvents(b).length >= 20);
      expect(changeEvents(a).map((e) => e.id)).toEqual(changeEvents(b).map((e) => e.id));
      expect(changeEvents(a)).toHaveLength(20);
      a.close();
      b.close();
    } finally {
      await app2.close();
      if (ownBus !== env.relayBus) await ownBus.close();
    }
  });
});
