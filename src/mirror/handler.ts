// Push-mirror deliveries through the webhook machinery (queue, retries, address guard, attempt
// log), rendered in LegiScan's Push wire format at send time, so a retry pushes the bill as it is
// now. A receiver's reply decides the outcome the way LegiScan's reference listener answers:
// {"status":"OK"} delivered; {"status":"OK","missing":{...}} delivered, then the requested bills,
// sponsors (as person) and votes (as roll_call) are pushed; {"status":"ERROR"}, non-JSON or
// non-2xx is a failed attempt retried on the webhook schedule.
import type { Config } from '../config.js';
import type { Pool, Queryable } from '../db/pool.js';
import {
  enqueueDeliveries,
  type ClaimedDelivery,
  type KindHandler,
  type NewDelivery,
  type OutboundResult,
} from '../webhooks/kit.js';
import { fitPush } from './columns.js';
import { IdMap, localIds, type IdKind } from './ids.js';
import { renderDoc, renderPerson, renderRollCall } from './records.js';
import { toWire } from './remap.js';
import { REASON_NAMES, renderBill } from './wire.js';

/** LegiScan datetime: "YYYY-MM-DD HH:MM:SS" (UTC); never pushed yet = "0000-00-00 00:00:00". */
const lsDateTime = (t: Date | null) => (t ? t.toISOString().slice(0, 19).replace('T', ' ') : '0000-00-00 00:00:00');

/** The map of the synchronous test push, which belongs to no mirror. */
export const TEST_MAP = 0;

/** Our ids as they are before the wire mapping: one push with exactly one root key. */
async function renderLocal(
  db: Queryable,
  target: Record<string, unknown>,
  lastPush: Date | null,
  reasonIds: number[],
  base: string,
): Promise<Record<string, unknown>> {
  const root = String(target.root);
  const one = <T>(v: T | undefined, what: string): T => {
    if (!v) throw new Error(`${what} not found`);
    return v;
  };
  switch (root) {
    case 'bill': {
      const reasons = Object.fromEntries(reasonIds.map((r) => [String(r), REASON_NAMES[r] ?? 'Unknown']));
      return {
        bill: one(
          await renderBill(db, Number(target.bill_id), reasons, lsDateTime(lastPush), base),
          `bill ${target.bill_id}`,
        ),
      };
    }
    case 'roll_call':
      return {
        roll_call: one(await renderRollCall(db, Number(target.roll_call_id), base), `roll call ${target.roll_call_id}`),
      };
    case 'person':
      return { person: one(await renderPerson(db, Number(target.people_id)), `person ${target.people_id}`) };
    case 'text':
    case 'amendment':
    case 'supplement':
      return { [root]: one(await renderDoc(db, root, Number(target.id), base), `${root} ${target.id}`) };
    default:
      return samplePushLocal(db, base);
  }
}

/** A push body with exactly one root key, in the mirror's wire ids. */
export async function renderPush(
  pool: Pool,
  subscriptionId: number,
  target: Record<string, unknown>,
  lastPush: Date | null,
  reasonIds: number[],
  base: string,
): Promise<Record<string, unknown>> {
  const push = await renderLocal(pool, target, lastPush, reasonIds, base);
  const [root, body] = Object.entries(push)[0]!;
  // bills fit themselves before their change_hash is taken (wire.ts); the others here
  if (root !== 'bill') fitPush(root, body as Record<string, unknown>);
  await toWire(new IdMap(pool, subscriptionId), root, body as Record<string, unknown>);
  return push;
}

async function samplePushLocal(db: Queryable, base: string): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ bill_id: number }>(
    'SELECT bill_id FROM bills ORDER BY updated DESC, bill_id DESC LIMIT 1',
  );
  const bill = rows[0]
    ? await renderBill(db, rows[0].bill_id, { '2': 'StatusChange' }, lsDateTime(null), base)
    : undefined;
  return { bill: bill ?? { ...SAMPLE_BILL, url: `${base}/v1/bills` } };
}

/** A real-format bill push of the most recently updated bill, for test calls (ids mapped like a mirror's). */
export async function samplePush(pool: Pool, base: string): Promise<Record<string, unknown>> {
  return renderPush(pool, TEST_MAP, { root: 'sample' }, null, [], base);
}

const SAMPLE_BILL = {
  bill_id: 0,
  change_hash: 'd41d8cd98f00b204e9800998ecf8427e',
  session_id: 0,
  session: {
    session_id: 0,
    state_id: 52,
    year_start: 2026,
    year_end: 2026,
    prefile: 0,
    sine_die: 0,
    prior: 0,
    special: 0,
    session_tag: '',
    session_title: 'Sample',
    session_name: 'Sample',
  },
  url: '',
  state_link: '',
  completed: 0,
  status: 1,
  status_date: '0000-00-00',
  progress: [{ date: '0000-00-00', event: 1 }],
  state: 'US',
  state_id: 52,
  bill_number: 'HR0',
  bill_type: 'B',
  bill_type_id: '1',
  body: 'H',
  body_id: 114,
  current_body: 'H',
  current_body_id: 114,
  title: 'Sample bill',
  description: 'Sample bill',
  pending_committee_id: 0,
  committee: [],
  referrals: [],
  history: [],
  sponsors: [],
  sasts: [],
  subjects: [],
  texts: [],
  votes: [],
  amendments: [],
  supplements: [],
  calendar: [],
  last_push: '0000-00-00 00:00:00',
  reasons: { '2': 'StatusChange' },
};

/** The receiver's `status`, or undefined for a non-JSON reply. */
export function receiverStatus(body: string): { status?: string; message?: string; missing?: Record<string, unknown> } {
  try {
    const j = JSON.parse(body) as { status?: unknown; alert?: { message?: unknown }; missing?: unknown };
    return {
      status: typeof j.status === 'string' ? j.status : undefined,
      message: typeof j.alert?.message === 'string' ? j.alert.message : undefined,
      missing: j.missing && typeof j.missing === 'object' ? (j.missing as Record<string, unknown>) : undefined,
    };
  } catch {
    return {};
  }
}

export function judgeMirror(res: OutboundResult): string | undefined {
  if (res.error) return res.error;
  if (res.status === null || res.status < 200 || res.status >= 300) return `HTTP ${res.status}`;
  const r = receiverStatus(res.body);
  if (r.status === undefined) return 'receiver reply is not JSON with a status';
  if (r.status.toUpperCase() !== 'OK') return `receiver replied ${r.status}${r.message ? `: ${r.message}` : ''}`;
  return undefined;
}

const ids = (v: unknown): number[] =>
  Array.isArray(v)
    ? v
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0)
        .slice(0, 500)
    : [];

/** What a receiver may ask for in `missing`, the push type that answers it and the id kind of its ids. */
const MISSING: [key: string, root: string, kind: IdKind, idField: string][] = [
  ['bills', 'bill', 'bill', 'bill_id'],
  ['sponsors', 'person', 'people', 'people_id'],
  ['votes', 'roll_call', 'roll_call', 'roll_call_id'],
  ['texts', 'text', 'text', 'id'],
  ['amendments', 'amendment', 'amendment', 'id'],
  ['supplements', 'supplement', 'supplement', 'id'],
];

/** Queues the pushes a receiver asked for, its wire ids turned back into ours. */
export async function queueMissing(
  db: Queryable,
  d: Pick<ClaimedDelivery, 'subscription_id' | 'change_id' | 'is_test' | 'bill_id' | 'lane'>,
  missing: Record<string, unknown>,
): Promise<number> {
  const rows: { type: string; target: object; bill_id: number | null; lane: number | null }[] = [];
  for (const [key, root, kind, field] of MISSING) {
    const wire = ids(missing[key]);
    const local = await localIds(db, Number(d.subscription_id), kind, wire);
    // event_type keeps the id asked for, so a repeated request for the same record is one delivery
    // a bill's documents and roll calls follow it in its lane and after its earlier pushes (they
    // write the bill's rows too); people have no lane: they write only their own row
    local.forEach((id, i) =>
      rows.push({
        type: `${root}:${wire[i]}`,
        target: { root, [field]: id },
        bill_id: root === 'bill' ? id : root === 'person' ? null : d.bill_id,
        lane: root === 'person' ? null : d.lane,
      }),
    );
  }
  if (rows.length === 0) return 0;
  const created = await enqueueDeliveries(
    db,
    rows.map((r) => ({
      subscription_id: d.subscription_id,
      change_id: d.change_id,
      event_type: r.type,
      bill_id: r.bill_id,
      lane: r.lane,
      payload: JSON.stringify({ requested: true }),
      target: r.target,
      is_test: d.is_test,
    })),
  );
  return created.length;
}

/** Whether an earlier attempt of this delivery may have reached the receiver without its reply reaching us. */
async function replyLost(db: Queryable, d: Pick<ClaimedDelivery, 'id' | 'attempts'>): Promise<boolean> {
  const { rows } = await db.query<{ answered: number }>(
    'SELECT count(*)::int AS answered FROM delivery_attempts WHERE delivery_id = $1 AND attempt < $2 AND status_code IS NOT NULL',
    [d.id, d.attempts],
  );
  return rows[0]!.answered < d.attempts - 1;
}

/** Children of a bill or roll call push as a `missing` request in wire ids: what a lost reply could have listed. */
async function allChildren(db: Pool, d: ClaimedDelivery): Promise<Record<string, number[]>> {
  const target = d.target ?? {};
  const q = async (sql: string, id: unknown) =>
    (await db.query<{ id: string }>(sql, [id])).rows.map((r) => Number(r.id));
  const local: [key: string, kind: IdKind, ids: number[]][] = [];
  if (target.root === 'bill') {
    const b = Number(target.bill_id);
    local.push(
      ['sponsors', 'people', await q('SELECT people_id AS id FROM bill_sponsors WHERE bill_id = $1', b)],
      ['votes', 'roll_call', await q('SELECT roll_call_id AS id FROM roll_calls WHERE bill_id = $1', b)],
      ['texts', 'text', await q('SELECT text_id AS id FROM bill_texts WHERE bill_id = $1', b)],
      ['amendments', 'amendment', await q('SELECT amendment_id AS id FROM amendments WHERE bill_id = $1', b)],
      ['supplements', 'supplement', await q('SELECT supplement_id AS id FROM supplements WHERE bill_id = $1', b)],
    );
  } else if (target.root === 'roll_call') {
    local.push([
      'sponsors',
      'people',
      await q('SELECT people_id AS id FROM roll_call_votes WHERE roll_call_id = $1', Number(target.roll_call_id)),
    ]);
  }
  const map = new IdMap(db, Number(d.subscription_id));
  await map.resolve(new Map(local.map(([, kind, ids]) => [kind, new Set(ids)])));
  return Object.fromEntries(local.map(([key, kind, ids]) => [key, ids.map((id) => map.get(kind, id))]));
}

/**
 * The bill pushes of the same bill queued behind this one: a push renders the bill as it is now,
 * so it delivers them too (their reasons join its own), and a mirror that has fallen behind
 * catches up by bills, not by changes. Only bill pushes, never documents or roll calls.
 */
async function laterBillPushes(db: Queryable, d: ClaimedDelivery): Promise<{ id: number; reason: number | null }[]> {
  if (d.is_test || d.lane === null || d.bill_id === null || d.target?.root !== 'bill') return [];
  const { rows } = await db.query<{ id: string; reason: number | null }>(
    `SELECT id, (target->>'reason_id')::int AS reason FROM deliveries
     WHERE subscription_id = $1 AND bill_id = $2 AND status = 'pending' AND id > $3 AND lane IS NOT NULL AND target->>'root' = 'bill'
     ORDER BY id LIMIT 500`,
    [d.subscription_id, d.bill_id, d.id],
  );
  return rows.map((r) => ({ id: Number(r.id), reason: r.reason }));
}

/** The ordering lane of a mirror's bill pushes and of the documents and roll calls that follow them. */
export const MIRROR_LANE = 1;

/** Push-mirror auth tokens: LegiScan-style 32 hex characters. */
export function generateToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex');
}

export const mirrorHandler: KindHandler = {
  // One bill push per change (plus a roll_call push for a vote), in the mirror's record lane
  // (claims.ts): one bill-keyed push at a time, so a receiver never writes two bills at once
  // (MySQL's gap locks on adjacent bill ids deadlock two such writes).
  dispatch(subscriptionId, c, events) {
    // LegiScan's bill record carries no computed text changes: a TextDiff has nothing to push
    // (it emits no event either, so this only guards a subscription that somehow asked for one).
    if (c.reason === 'TextDiff') return [];
    const common = {
      subscription_id: subscriptionId,
      change_id: c.change_id,
      bill_id: c.bill_id,
      payload: JSON.stringify({ events }),
      lane: MIRROR_LANE,
    };
    const out: NewDelivery[] = [
      { ...common, event_type: 'bill', target: { root: 'bill', bill_id: c.bill_id, reason_id: c.reason_id } },
    ];
    if (c.reason === 'Vote' && c.detail.roll_call_id !== undefined) {
      out.push({
        ...common,
        event_type: 'roll_call',
        target: { root: 'roll_call', roll_call_id: c.detail.roll_call_id },
      });
    }
    return out;
  },
  newSecret: generateToken,
  // a test push is a sample bill (samplePush)
  testTarget: { root: 'sample' },
  async render(db: Pool, d: ClaimedDelivery, config: Config) {
    const target = d.target ?? { root: 'sample' };
    // the later pushes are read before the bill, so whatever they announce is in this render
    const later = await laterBillPushes(db, d);
    const reasons = [
      ...new Set(
        [target.reason_id, ...later.map((l) => l.reason)].filter((r) => r !== undefined && r !== null).map(Number),
      ),
    ];
    // last_push beside the render, not before it (change_hash does not cover it)
    const [{ rows }, body] = await Promise.all([
      db.query<{ last: Date | null }>(
        `SELECT max(delivered_at) AS last FROM deliveries WHERE subscription_id = $1 AND status = 'delivered'`,
        [d.subscription_id],
      ),
      renderPush(db, Number(d.subscription_id), target, null, reasons, config.publicBaseUrl),
    ]);
    if (body.bill) (body.bill as Record<string, unknown>).last_push = lsDateTime(rows[0]?.last ?? null);
    return {
      body: JSON.stringify(body),
      headers: { authorization: `Token ${d.secret}` },
      carries: later.map((l) => l.id),
    };
  },
  judge: judgeMirror,
  async afterDelivered(db, d, res) {
    const { missing } = receiverStatus(res.body);
    if (missing) await queueMissing(db, d, missing);
    // An earlier attempt's reply never reached us (timeout, reset, a worker that died): its
    // `missing` list is lost, and a receiver that already stored the record answers the retry
    // with a plain OK. Everything that reply could have asked for is pushed (idempotent for the
    // receiver), so what it lacks arrives whatever the timing.
    if (d.attempts > 1 && (await replyLost(db, d))) await queueMissing(db, d, await allChildren(db, d));
  },
};
