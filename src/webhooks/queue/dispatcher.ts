// The dispatcher: stamped changes → delivery rows. It keeps its own cursor (dispatcher_state) and
// reads the change log by seq, so the bus is only a wake-up: a change committed while the bus or
// the dispatcher was down is still dispatched on the next catch-up (at start, on every live bus
// event, and on a slow poll). The cursor is the source of events; no durable bus consumer is
// needed beside it (at-least-once comes from the change log, not from the bus). Turning changes
// into rows is idempotent (UNIQUE (subscription_id, change_id, event_type)) and the cursor moves
// in the same transaction. Several dispatchers may run: a transaction-scoped advisory lock lets one
// work at a time; the others skip the round.
import type { Background, BackgroundContext } from '../../background.js';
import { retryLog } from '../../db/health.js';
import { withTransaction, type Pool, type PoolClient } from '../../db/pool.js';
import { eventsForChange } from '../../domain/events.js';
import { EVENT_COLUMNS, EVENT_FROM } from '../../changes/events.js';
import type { DeliveryKinds, DispatchChange, DispatchContext } from '../delivery/kinds.js';
import { enqueueDeliveries, type NewDelivery } from './enqueue.js';
import { Coalescer } from '../../jobs/coalesce.js';

const LOCK_KEY = 7310041;
const BATCH = 500;
/** Delivery rows per transaction: workers start on the first rows while later ones are still being written. */
const MAX_ROWS = 1000;

interface SubRow {
  id: number;
  kind: string;
  events: string[];
  filter_states: string[];
  filter_subjects: string[];
  created_at: Date;
}

/** Subjects filter: a case-insensitive match against the bill's raw subject names or its topic slugs. */
export function matchesFilters(
  sub: Pick<SubRow, 'filter_states' | 'filter_subjects'>,
  c: Pick<DispatchChange, 'state' | 'subjects' | 'topics'>,
): boolean {
  if (sub.filter_states.length > 0 && !sub.filter_states.includes(c.state)) return false;
  if (sub.filter_subjects.length > 0) {
    const have = new Set([...c.subjects, ...c.topics]);
    if (!sub.filter_subjects.some((s) => have.has(s.toLowerCase()))) return false;
  }
  return true;
}

/** Deliveries one change produces for one subscription: its kind turns the events it asked for into rows. */
function deliveriesFor(sub: SubRow, c: DispatchChange, ctx: DispatchContext): NewDelivery[] {
  if (new Date(c.changed_at) < sub.created_at) return [];
  const events = eventsForChange(c.reason, c.new_status).filter((e) => sub.events.includes(e));
  if (events.length === 0 || !matchesFilters(sub, c)) return [];
  return ctx.kinds.require(sub.kind).dispatch(sub.id, c, events, ctx);
}

async function dispatchBatch(
  client: PoolClient,
  to: Recipients,
): Promise<{ processed: number; created: number; more: boolean }> {
  const { rows: st } = await client.query<{ last_seq: number }>(
    'SELECT last_seq FROM dispatcher_state WHERE id = 1 FOR UPDATE',
  );
  const last = st[0]?.last_seq ?? 0;
  const { rows: changes } = await client.query<DispatchChange>(
    `SELECT ${EVENT_COLUMNS}, b.status_id, b.status_date::text AS status_date,
            to_char(b.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated,
            coalesce((SELECT array_agg(lower(sj.subject_name)) FROM bill_subjects bs JOIN subjects sj USING (subject_id) WHERE bs.bill_id = c.bill_id), '{}') AS subjects,
            coalesce((SELECT array_agg(t.slug) FROM bill_topics bt JOIN topics t USING (topic_id) WHERE bt.bill_id = c.bill_id), '{}') AS topics
     FROM ${EVENT_FROM}
     WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
    [last, BATCH],
  );
  if (changes.length === 0) return { processed: 0, created: 0, more: false };
  const { rows: subs } = await client.query<SubRow>(
    'SELECT id, kind, events, filter_states, filter_subjects, created_at FROM subscriptions WHERE active AND deleted_at IS NULL',
  );
  const ctx: DispatchContext = { ...to, payloads: new Map() };
  const rows: NewDelivery[] = [];
  let taken = 0;
  while (taken < changes.length && rows.length < MAX_ROWS) {
    const c = changes[taken++];
    for (const s of subs) rows.push(...deliveriesFor(s, c, ctx));
  }
  // the workers' notification is sent by this statement and delivered when the cursor commits
  const created = (await enqueueDeliveries(client, rows)).length;
  await client.query('UPDATE dispatcher_state SET last_seq = $1, updated_at = now() WHERE id = 1', [
    changes[taken - 1].seq,
  ]);
  return { processed: taken, created, more: taken < changes.length || changes.length === BATCH };
}

/** What dispatching needs besides the database: the public base URL of payloads and the kinds this process sends. */
export type Recipients = Pick<DispatchContext, 'baseUrl' | 'kinds'>;

/** Dispatches everything after the cursor; returns deliveries created. Safe to call concurrently. */
export async function catchUp(db: Pool, to: Recipients): Promise<number> {
  let total = 0;
  // Most calls (polls, wake-ups for changes already dispatched) find nothing: one statement then,
  // not a transaction of five.
  const { rows: due } = await db.query<{ due: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM changes WHERE seq > (SELECT last_seq FROM dispatcher_state WHERE id = 1)) AS due',
  );
  if (!due[0]?.due) return 0;
  for (;;) {
    const result = await withTransaction(db, async (client) => {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_KEY]);
      return rows[0].ok ? dispatchBatch(client, to) : undefined;
    });
    if (!result) return total;
    total += result.created;
    if (!result.more) return total;
  }
}

export interface DispatcherOptions {
  pollMs?: number;
}

/** What the dispatcher needs of the process: the pool, the bus that wakes it, the public base URL. */
export type DispatcherDeps = Pick<BackgroundContext, 'db' | 'bus' | 'log' | 'config'> & { kinds: DeliveryKinds };

export async function startDispatcher(ctx: DispatcherDeps, opts: DispatcherOptions = {}): Promise<Background> {
  const { db, log, config } = ctx;
  const pollMs = opts.pollMs ?? 2000;
  const failures = retryLog(log, 'dispatcher catch-up failed; will retry');
  // One catch-up at a time, and one more if anything arrived meanwhile.
  const catchUps = new Coalescer(
    async () => {
      await catchUp(db, { baseUrl: config.publicBaseUrl, kinds: ctx.kinds });
      failures.ok();
    },
    (err) => failures.failed(err),
  );
  const run = () => catchUps.wake();
  await run();
  // Live bus events only wake the catch-up; an event missed while disconnected is read by cursor.
  const unsubscribe = ctx.bus.subscribe(() => void run());
  const timer = setInterval(() => void run(), pollMs);
  timer.unref();
  return {
    name: 'dispatcher',
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await catchUps.stop();
    },
  };
}
