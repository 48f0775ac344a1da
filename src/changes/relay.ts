// The relay: change log -> public order -> bus. Exactly one relay stamps at a time (a PostgreSQL
// advisory lock held by a dedicated session; standbys retry every second and take over when that
// session dies). Stamping is one transaction: lock relay_state, pick unstamped rows in change_id
// order, give them seq and strictly increasing changed_at above high_water, move high_water, commit.
// Readers only see stamped rows with changed_at <= high_water, so a writer that commits late can
// never land behind a cursor a client already holds. Publishing happens after commit from the
// published_seq cursor, so a bus outage or a relay crash delays events but never loses them.
import type { Background, BackgroundContext } from '../background.js';
import { retryLog } from '../db/health.js';
import { NOTIFY_CHANNEL } from './record.js';
import { EVENT_COLUMNS, eventFrom, eventsBySeq, type ChangeEvent } from './events.js';
import { listen, type Listener } from '../db/listen.js';
import { relayPublishFailing } from '../metrics/registry.js';
import { Backoff } from '../jobs/backoff.js';
import { Coalescer } from '../jobs/coalesce.js';
import { SessionLock } from '../jobs/session-lock.js';

/** Advisory lock key of the active relay (below 2^32, so pg_locks shows it as objid with classid 0). */
export const RELAY_LOCK_KEY = 7310006;
const BATCH = 500;
const LOCK_RETRY_MS = 1000;
const RETRY_MS = 1000;
const PERSIST_RETRY_MIN_MS = 500;
const PERSIST_RETRY_MAX_MS = 10_000;

// rs: relay_state's row, locked, only while this session ($2) holds the advisory lock ($1); base is
// computed once (a CTE with a volatile function is never inlined). ids: up to $3 unstamped rows in
// change_id order; rows another transaction stamped meanwhile are re-checked under FOR UPDATE and
// drop out. st moves last_seq and high_water (to the wall clock when idle, so the feed's server_now
// stays current) and records the published cursor $4. The outer row carries held and the previous
// last_seq even when nothing was stamped.
const STAMP_SQL = `WITH rs AS (
    SELECT last_seq, greatest(clock_timestamp(), high_water + interval '1 microsecond') AS base FROM relay_state
    WHERE id = 1 AND EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND pid = $2 AND granted)
    FOR UPDATE
  ), ids AS (
    SELECT change_id FROM changes WHERE seq IS NULL AND EXISTS (SELECT 1 FROM rs) ORDER BY change_id LIMIT $3 FOR UPDATE SKIP LOCKED
  ), t AS (
    SELECT change_id, (row_number() OVER (ORDER BY change_id))::int AS rn FROM ids
  ), upd AS (
    UPDATE changes c SET seq = rs.last_seq + t.rn, changed_at = rs.base + (t.rn - 1) * interval '1 microsecond'
    FROM t, rs WHERE c.change_id = t.change_id
    RETURNING c.*
  ), st AS (
    UPDATE relay_state r SET last_seq = r.last_seq + (SELECT count(*) FROM upd),
      high_water = coalesce((SELECT max(changed_at) FROM upd), greatest(r.high_water, clock_timestamp())),
      published_seq = greatest(r.published_seq, $4)
    FROM rs WHERE r.id = 1
  ), ev AS (
    SELECT ${EVENT_COLUMNS} FROM ${eventFrom('upd')}
  )
  SELECT h.held, h.prev_seq, ev.* FROM (SELECT EXISTS (SELECT 1 FROM rs) AS held, (SELECT last_seq FROM rs) AS prev_seq) h
    LEFT JOIN ev ON true ORDER BY ev.seq`;

export interface Relay extends Background {
  /** true while this relay holds the lock */
  isActive(): boolean;
  /** resolves once NOTIFY wake-ups arrive (until then only the lock timer and the poll wake it) */
  listening(): Promise<void>;
  /** asks for a stamp/publish cycle now */
  kick(): void;
  /** true while this relay is active and its publishes to the bus fail (readiness, metrics) */
  publishFailing(): boolean;
}

/** What the relay needs of the process: its own session for the lock and NOTIFY, the pool, the bus. */
export type RelayDeps = Pick<BackgroundContext, 'db' | 'bus' | 'log' | 'config' | 'databaseUrl'>;

export async function startRelay(ctx: RelayDeps): Promise<Relay> {
  const { db, bus, log, config } = ctx;
  let stopped = false;
  /** holds the lock and has read relay_state: stamps and publishes */
  let active = false;
  let lastSeq = 0;
  let publishedSeq = 0;
  /** published_seq as last written to relay_state */
  let persistedSeq = 0;
  // While the database is down every lock check and cycle fails: one warning each per outage.
  const lockFailures = retryLog(log, 'relay lock check failed');
  const cycleFailures = retryLog(log, 'relay cycle failed; retrying');
  const publishFailures = retryLog(log, 'bus publish failed; retrying from the change log');
  const persistFailures = retryLog(log, 'relay could not record its published cursor');
  let failingPublish = false;
  const setPublishFailing = (v: boolean) => {
    failingPublish = v;
    relayPublishFailing.set(v ? 1 : 0);
  };

  const lock = new SessionLock({
    databaseUrl: ctx.databaseUrl,
    key: RELAY_LOCK_KEY,
    name: 'lds-relay-lock',
    onDrop: (why) => {
      if (active) log.warn({ why }, 'relay lost its lock; standing by');
      active = false;
      // a standby publishes nothing, so nothing of its own fails
      setPublishFailing(false);
    },
  });

  // Runs on a one-second timer: acquire the lock when standing by, check the session when active.
  const tendLock = async () => {
    if (stopped) return;
    try {
      const got = await lock.tend();
      lockFailures.ok();
      if (got !== 'acquired' || stopped) return;
      const st = await db.query<{ last_seq: number; published_seq: number }>(
        'SELECT last_seq, published_seq FROM relay_state WHERE id = 1',
      );
      lastSeq = st.rows[0].last_seq;
      publishedSeq = st.rows[0].published_seq;
      persistedSeq = publishedSeq;
      active = true;
      log.info({ lastSeq, publishedSeq }, 'relay active');
      kick();
    } catch (err) {
      lockFailures.failed(err);
      if (lock.held) lock.drop('relay state unreadable');
    }
  };

  /**
   * Stamps up to BATCH rows in ONE statement (one round trip, an implicit transaction): under load
   * every round trip waits behind the event loop's fan-out work, so each extra one showed up in
   * the commit-to-client latency. The statement locks relay_state's row (serializing stampers if
   * two relays overlap for a moment during a failover) and only changes anything while this
   * session's advisory lock is held; it also records how far publishing has got, so the published
   * cursor costs no statement of its own while changes flow. Returns the stamped events, or
   * undefined when the lock is no longer held.
   */
  const stamp = async (): Promise<ChangeEvent[] | undefined> => {
    const recorded = publishedSeq;
    const { rows } = await db.query<ChangeEvent & { held: boolean; prev_seq: number | null }>(STAMP_SQL, [
      RELAY_LOCK_KEY,
      lock.pid ?? -1,
      BATCH,
      recorded,
    ]);
    if (!rows[0].held) {
      lock.drop('advisory lock not held');
      return undefined;
    }
    if (recorded > persistedSeq) persistedSeq = recorded;
    // the statement recorded the cursor: a failing stand-alone write is over too
    persistFailures.ok();
    if (rows[0].seq === null) {
      lastSeq = rows[0].prev_seq ?? lastSeq;
      return [];
    }
    lastSeq = rows[rows.length - 1].seq;
    for (const r of rows) {
      delete (r as Partial<typeof r>).held;
      delete (r as Partial<typeof r>).prev_seq;
    }
    return rows;
  };

  /**
   * Writes the published cursor when no stamp is coming to carry it (the relay went idle). Not
   * awaited by the cycle, so the next change never waits for it; a stale cursor after a crash only
   * means a republish, which the hub (by seq) and JetStream (by message id) drop. A failed write is
   * retried after a growing pause (0.5 s up to 10 s), never at once: during a database outage an
   * immediate retry fails in a millisecond and turned into a loop of over a thousand log lines a
   * second. The outage costs one warning, and the recovery one info line.
   */
  let persisting: Promise<void> | undefined;
  const persistRetry = new Backoff(PERSIST_RETRY_MIN_MS, PERSIST_RETRY_MAX_MS);
  const persistPublished = () => {
    if (persisting || persistRetry.pending || publishedSeq <= persistedSeq) return;
    const seq = publishedSeq;
    let failed = false;
    persisting = db
      .query('UPDATE relay_state SET published_seq = greatest(published_seq, $1) WHERE id = 1', [seq])
      .then(
        () => {
          if (seq > persistedSeq) persistedSeq = seq;
          persistRetry.reset();
          persistFailures.ok();
        },
        (err) => {
          failed = true;
          persistFailures.failed(err, { publishedSeq: seq });
        },
      )
      .finally(() => {
        persisting = undefined;
        if (stopped || publishedSeq <= persistedSeq) return;
        // after a success a running cycle's stamp carries the cursor; a failure always retries on
        // its timer (a cycle may not come: the relay may lose its lock in the same outage)
        if (!failed) {
          if (!cycles.busy) persistPublished();
          return;
        }
        persistRetry.retry(persistPublished);
      });
  };

  // a failed publish or cycle is tried again after a second (the change log keeps what failed)
  const retryCycle = new Backoff(RETRY_MS, RETRY_MS);

  const publish = async (fresh: ChangeEvent[]) => {
    while (publishedSeq < lastSeq && active && !stopped) {
      // The freshly stamped batch is published as is when it directly follows the cursor; after an
      // outage or a takeover the backlog is re-read from the change log.
      const batch =
        fresh.length > 0 && fresh[0].seq === publishedSeq + 1
          ? fresh
          : await eventsBySeq(db, publishedSeq, BATCH, lastSeq);
      fresh = [];
      if (batch.length === 0) return;
      try {
        await bus.publish(batch);
      } catch (err) {
        publishFailures.failed(err, { publishedSeq });
        setPublishFailing(true);
        retryCycle.retry(kick);
        return;
      }
      publishedSeq = batch[batch.length - 1].seq;
      publishFailures.ok();
      if (failingPublish) setPublishFailing(false);
    }
  };

  const cycle = async () => {
    for (;;) {
      const fresh = await stamp();
      if (fresh === undefined) return;
      await publish(fresh);
      if (fresh.length < BATCH || !active || stopped) return;
    }
  };

  // One stamp/publish cycle at a time; wake-ups meanwhile buy one more.
  const cycles = new Coalescer(
    async () => {
      await cycle();
      cycleFailures.ok();
    },
    (err) => {
      cycleFailures.failed(err);
      retryCycle.retry(kick);
    },
    () => active && !stopped,
  );

  function kick() {
    if (!active || stopped) return;
    // also after losing the lock: what this relay published is worth recording either way
    void cycles.wake().then(() => {
      if (!stopped && !cycles.busy) persistPublished();
    });
  }

  const listener: Listener = listen(ctx.databaseUrl, NOTIFY_CHANNEL, kick, log);
  const lockTimer = setInterval(() => void tendLock(), LOCK_RETRY_MS);
  const pollTimer = setInterval(kick, config.relayPollMs);
  await tendLock();

  return {
    name: 'relay',
    isActive: () => active,
    listening: () => listener.ready,
    kick,
    publishFailing: () => active && failingPublish,
    async stop() {
      stopped = true;
      clearInterval(lockTimer);
      clearInterval(pollTimer);
      retryCycle.cancel();
      persistRetry.cancel();
      await cycles.stop();
      await persisting;
      if (active && publishedSeq > persistedSeq) {
        await db
          .query('UPDATE relay_state SET published_seq = greatest(published_seq, $1) WHERE id = 1', [publishedSeq])
          .catch(() => undefined);
      }
      await listener.close();
      active = false;
      setPublishFailing(false);
      await lock.release();
    },
  };
}
