// The relay: change log -> public order -> bus. Exactly one relay stamps at a time (a PostgreSQL
// advisory lock held by a dedicated session; standbys retry every second and take over when that
// session dies). Stamping is one transaction: lock relay_state, pick unstamped rows in change_id
// order, give them seq and strictly increasing changed_at above high_water, move high_water, commit.
// Readers only see stamped rows with changed_at <= high_water, so a writer that commits late can
// never land behind a cursor a client already holds. Publishing happens after commit from the
// published_seq cursor, so a bus outage or a relay crash delays events but never loses them.
import pg from 'pg';
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import { NOTIFY_CHANNEL } from '../changes/record.js';
import { eventsBySeq, isoUs } from '../changes/events.js';
import type { ChangeEvent } from './types.js';
import { listen, type Listener } from './listener.js';

/** Advisory lock key of the active relay (below 2^32, so pg_locks shows it as objid with classid 0). */
export const RELAY_LOCK_KEY = 7310006;
const BATCH = 500;
const LOCK_RETRY_MS = 1000;

export interface Relay extends Background {
  /** true while this relay holds the lock */
  isActive(): boolean;
  /** asks for a stamp/publish cycle now */
  kick(): void;
  /** backend pid of the session holding the lock (tests kill it to force a failover) */
  lockPid(): number | undefined;
}

export async function startRelay(ctx: BackgroundContext): Promise<Relay> {
  const { db, bus, log, config } = ctx;
  let stopped = false;
  let lockClient: pg.Client | undefined;
  let pid: number | undefined;
  let active = false;
  let lastSeq = 0;
  let publishedSeq = 0;
  let running: Promise<void> | undefined;
  let again = false;
  let retryPublish: NodeJS.Timeout | undefined;
  // While the database is down every lock check and cycle fails: one warning each per outage.
  const lockFailures = retryLog(log, 'relay lock check failed');
  const cycleFailures = retryLog(log, 'relay cycle failed; retrying');

  const dropLock = (why: string) => {
    if (active) log.warn({ why }, 'relay lost its lock; standing by');
    active = false;
    pid = undefined;
    const c = lockClient;
    lockClient = undefined;
    c?.end().catch(() => undefined);
  };

  // Runs on a one-second timer: acquire the lock when standing by, check the session when active.
  let tending = false;
  const tendLock = async () => {
    if (stopped || tending) return;
    tending = true;
    try {
      if (!lockClient) {
        const c = new pg.Client({ connectionString: ctx.databaseUrl, application_name: 'lds-relay-lock' });
        c.on('error', () => dropLock('lock session error'));
        c.on('end', () => { if (lockClient === c) dropLock('lock session ended'); });
        lockClient = c;
        await c.connect();
      }
      const c = lockClient;
      if (active) {
        await c.query('SELECT 1');
        lockFailures.ok();
        return;
      }
      const { rows } = await c.query<{ ok: boolean; pid: number }>('SELECT pg_try_advisory_lock($1) AS ok, pg_backend_pid() AS pid', [RELAY_LOCK_KEY]);
      lockFailures.ok();
      if (!rows[0].ok || stopped) return;
      const st = await db.query<{ last_seq: number; published_seq: number }>('SELECT last_seq, published_seq FROM relay_state WHERE id = 1');
      lastSeq = st.rows[0].last_seq;
      publishedSeq = st.rows[0].published_seq;
      pid = rows[0].pid;
      active = true;
      log.info({ lastSeq, publishedSeq }, 'relay active');
      kick();
    } catch (err) {
      lockFailures.failed(err);
      dropLock('lock session failed');
    } finally {
      tending = false;
    }
  };

  /** One transaction: stamp up to BATCH rows. Returns the stamped events (empty when idle). */
  const stamp = async (): Promise<ChangeEvent[]> => {
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      // Holding relay_state's row lock serializes stampers even if two relays overlap for a moment
      // during a failover; checking the advisory lock here stops a relay that lost it.
      const st = await client.query<{ last_seq: number; held: boolean }>(
        `SELECT last_seq, EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND pid = $2 AND granted) AS held
         FROM relay_state WHERE id = 1 FOR UPDATE`,
        [RELAY_LOCK_KEY, pid ?? -1],
      );
      if (!st.rows[0].held) {
        await client.query('ROLLBACK');
        dropLock('advisory lock not held');
        return [];
      }
      lastSeq = st.rows[0].last_seq;
      const ids = await client.query<{ change_id: number }>(
        'SELECT change_id FROM changes WHERE seq IS NULL ORDER BY change_id LIMIT $1 FOR UPDATE SKIP LOCKED',
        [BATCH],
      );
      if (ids.rows.length === 0) {
        // Nothing new: keep high_water (the feed's server_now) close to the wall clock.
        await client.query('UPDATE relay_state SET high_water = greatest(high_water, clock_timestamp()) WHERE id = 1');
        await client.query('COMMIT');
        return [];
      }
      const { rows } = await client.query<ChangeEvent>(
        `WITH rs AS (
           SELECT last_seq, greatest(clock_timestamp(), high_water + interval '1 microsecond') AS base FROM relay_state WHERE id = 1
         ), t AS (
           SELECT change_id, rn::int AS rn FROM unnest($1::bigint[]) WITH ORDINALITY AS u(change_id, rn)
         ), upd AS (
           UPDATE changes c SET seq = rs.last_seq + t.rn, changed_at = rs.base + (t.rn - 1) * interval '1 microsecond'
           FROM t, rs WHERE c.change_id = t.change_id
           RETURNING c.*
         ), st AS (
           UPDATE relay_state SET last_seq = last_seq + $2, high_water = (SELECT max(changed_at) FROM upd) WHERE id = 1
         )
         SELECT c.change_id, c.seq, ${isoUs('c.changed_at')} AS changed_at, c.bill_id,
           coalesce(b.bill_number, '') AS bill_number, s.state_abbr AS state, coalesce(b.title, '') AS title,
           c.reason_id::int AS reason_id, r.reason_name AS reason, c.old_status::int AS old_status,
           c.new_status::int AS new_status, c.detail
         FROM upd c JOIN states s ON s.state_id = c.state_id JOIN change_reasons r ON r.reason_id = c.reason_id
           LEFT JOIN bills b ON b.bill_id = c.bill_id
         ORDER BY c.seq`,
        [ids.rows.map((r) => r.change_id), ids.rows.length],
      );
      await client.query('COMMIT');
      lastSeq += rows.length;
      return rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };

  const publish = async (fresh: ChangeEvent[]) => {
    while (publishedSeq < lastSeq && active && !stopped) {
      // The freshly stamped batch is published as is when it directly follows the cursor; after an
      // outage or a takeover the backlog is re-read from the change log.
      const batch = fresh.length > 0 && fresh[0].seq === publishedSeq + 1 ? fresh : await eventsBySeq(db, publishedSeq, BATCH, lastSeq);
      fresh = [];
      if (batch.length === 0) return;
      try {
        await bus.publish(batch);
      } catch (err) {
        log.warn({ err, publishedSeq }, 'bus publish failed; retrying from the change log');
        clearTimeout(retryPublish);
        retryPublish = setTimeout(kick, 1000);
        return;
      }
      publishedSeq = batch[batch.length - 1].seq;
      await db.query('UPDATE relay_state SET published_seq = greatest(published_seq, $1) WHERE id = 1', [publishedSeq]);
    }
  };

  const cycle = async () => {
    for (;;) {
      const fresh = await stamp();
      await publish(fresh);
      if (fresh.length < BATCH || !active || stopped) return;
    }
  };

  function kick() {
    if (!active || stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await cycle();
        } while (again && active && !stopped);
        cycleFailures.ok();
      } catch (err) {
        cycleFailures.failed(err);
        clearTimeout(retryPublish);
        retryPublish = setTimeout(kick, 1000);
      } finally {
        running = undefined;
      }
    })();
  }

  const listener: Listener = listen(ctx.databaseUrl, NOTIFY_CHANNEL, kick, log);
  const lockTimer = setInterval(() => void tendLock(), LOCK_RETRY_MS);
  const pollTimer = setInterval(kick, config.relayPollMs);
  await tendLock();

  return {
    name: 'relay',
    isActive: () => active,
    kick,
    lockPid: () => pid,
    async stop() {
      stopped = true;
      clearInterval(lockTimer);
      clearInterval(pollTimer);
      clearTimeout(retryPublish);
      await running?.catch(() => undefined);
      await listener.close();
      active = false;
      const c = lockClient;
      lockClient = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
