// `lds sync`: what a data team runs to hold a copy of the service. First the newest bulk file
// (`all`), loaded in one target transaction with its cursor; then the change feed from that cursor,
// each page of changes applied (changed bills re-fetched whole with include=all, their new roll
// calls with member votes) in one transaction with the feed's next cursor. Killed at any moment,
// it restarts where its last commit left it: the cursor lives in the target database.
// With `follow`, the event stream wakes it up for new changes (the feed stays the source of truth).
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { request } from 'undici';
import type pg from 'pg';
import {
  billSessions,
  clearAll,
  heldRollCalls,
  openTarget,
  readState,
  TABLES,
  upsert,
  writeState,
  type Resource,
} from './target.js';

export interface SyncOptions {
  /** base URL of the service, e.g. http://localhost:8080 */
  from: string;
  key: string;
  /** target PostgreSQL */
  into: string;
  follow?: boolean;
  signal?: AbortSignal;
  log?: (msg: string) => void;
  /** how often loading the bulk file reports its progress through `log` (default PROGRESS_EVERY_MS) */
  progressEveryMs?: number;
}

export interface SyncResult {
  loadedSnapshot: boolean;
  records: number;
  changes: number;
  cursor: string;
}

const FEED_LIMIT = 1000;
const LOAD_BATCH = 500;
/** The whole corpus's file takes minutes to load: a line this often says how far it is. */
const PROGRESS_EVERY_MS = 5000;
/** Without the stream (or between its events), how often the feed is polled when following. */
const FOLLOW_POLL_MS = 30_000;

/** Waits ms, or less when aborted; leaves no listener behind (a long wait for the first file sleeps many times). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** A GET with the key; waits and retries on 429 and 503 (Retry-After) and on connection errors. */
async function get(o: SyncOptions, path: string) {
  for (let attempt = 0; ; attempt++) {
    o.signal?.throwIfAborted();
    try {
      const res = await request(new URL(path, o.from), { headers: { 'x-api-key': o.key }, signal: o.signal });
      if (res.statusCode === 429 || res.statusCode >= 500) {
        await res.body.dump();
        const wait = Number(res.headers['retry-after'] ?? 1);
        await sleep(Math.min(Number.isFinite(wait) ? wait : 1, 60) * 1000, o.signal);
        continue;
      }
      if (res.statusCode !== 200) {
        const text = await res.body.text();
        throw new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
      }
      return res;
    } catch (err) {
      if (o.signal?.aborted || attempt >= 20 || /GET .*: 4\d\d/.test((err as Error).message)) throw err;
      await sleep(Math.min(1000 * 2 ** attempt, 30_000), o.signal);
    }
  }
}

const getJson = async (o: SyncOptions, path: string) => (await get(o, path)).body.json() as Promise<any>;

/**
 * Requests in flight at once while re-fetching: one at a time, a copy on a loaded machine waited
 * for each answer and stayed well under its key's burst; a few in flight keep it near the burst,
 * and 429s still pace it.
 */
const FETCHES_IN_FLIGHT = 4;

/** fn over items, FETCHES_IN_FLIGHT at a time; results in the items' order. */
async function inTurns<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCHES_IN_FLIGHT, items.length) }, lane));
  return out;
}

/** Loads the newest `all` file into empty tables, with its cursor: one transaction. */
async function loadSnapshot(o: SyncOptions, c: pg.Client): Promise<{ cursor: string; records: number }> {
  type Entry = { scope: string; url: string; cursor: string; generated_at: string; size: number };
  let all: Entry | undefined;
  // a service that just started is still building its first files: wait for them
  for (let waited = false; ; waited = true) {
    all = ((await getJson(o, '/v1/bulk')).data as Entry[]).find((e) => e.scope === 'all');
    if (all) break;
    if (!waited) o.log?.('waiting for the service to build its first bulk file');
    await sleep(5000, o.signal);
    o.signal?.throwIfAborted();
  }
  o.log?.(`loading ${all.url} (${all.size} bytes, cursor ${all.cursor})`);
  const res = await get(o, new URL(all.url).pathname);
  let records = 0;
  // progress in the file's own (compressed) bytes, the size the listing gave
  let received = 0;
  const body = res.body as unknown as Readable;
  const every = o.progressEveryMs ?? PROGRESS_EVERY_MS;
  let reported = Date.now();
  await c.query('BEGIN');
  try {
    await clearAll(c);
    // Created right before it is iterated: readline emits lines as soon as it exists, and lines
    // emitted before the loop starts would be lost. The byte count starts the flow with the pipe,
    // in the same turn, so no chunk passes before the pipe is there.
    const lines = createInterface({ input: body.pipe(createGunzip()), crlfDelay: Infinity });
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const batches = new Map<Resource, unknown[]>();
    for await (const line of lines) {
      if (Date.now() - reported >= every) {
        reported = Date.now();
        o.log?.(`loading: ${records} records, ${Math.floor((100 * received) / Math.max(1, all.size))} % of the file`);
      }
      if (!line) continue;
      const { type, data } = JSON.parse(line) as { type: Resource; data: unknown };
      if (!Object.hasOwn(TABLES, type)) continue; // a record type this client does not know yet
      const batch = batches.get(type) ?? [];
      batch.push(data);
      batches.set(type, batch);
      records++;
      if (batch.length >= LOAD_BATCH) {
        await upsert(c, type, batch);
        batches.set(type, []);
      }
    }
    for (const [type, batch] of batches) await upsert(c, type, batch);
    await writeState(c, { source: o.from, feed_cursor: all.cursor, snapshot_generated_at: all.generated_at });
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { cursor: all.cursor, records };
}

type WholeBill = { bill_id: number; votes: Array<{ roll_call_id: number }> };

/** The most bills one page of GET /v1/bills holds. */
const LIST_LIMIT = 500;
/** Bills a session may gain (new bills) beyond what the copy counts, when estimating its pages. */
const SESSION_SLACK = 50;
/**
 * A session's bills are read by pages when that takes this many times fewer requests than one per
 * changed bill. A page of 230 bills cost the demo service as much as 6-7 single bills (0.2-0.28 s
 * against 0.03-0.045 s, load 12 on 2 cores): fewer requests than that ratio would trade the key's
 * burst for the service's time.
 */
const PAGE_WHEN_FEWER = 3;

/** Every bill of a session, with every part, page by page (GET /v1/bills?session_id=…&include=all). */
async function sessionBills(o: SyncOptions, sessionId: number): Promise<WholeBill[]> {
  const out: WholeBill[] = [];
  for (let offset = 0; ; offset += LIST_LIMIT) {
    const page = (
      await getJson(o, `/v1/bills?session_id=${sessionId}&include=all&limit=${LIST_LIMIT}&offset=${offset}`)
    ).data as WholeBill[];
    out.push(...page);
    if (page.length < LIST_LIMIT) return out;
  }
}

/**
 * The bills of a feed page, whole (include=all), each read after the page was, so each holds at
 * least the page's changes. One request per bill spends the key's burst (10 requests/s for the demo
 * key) on one bill each: the diff worker's TextDiff changes of a fresh corpus (thousands of bills,
 * faster than that) left such a copy further behind for as long as the worker ran. Where a session
 * has several times more changed bills than pages of bills, its bills are read by pages instead
 * (500 to a request, the same records), and only the changed ones kept. A page is ordered by `updated`, so a
 * bill updated while the pages are read can move past them: whatever they missed, and bills the
 * copy does not hold yet (new bills, session unknown), are read one by one.
 */
async function fetchBills(o: SyncOptions, c: pg.Client, ids: number[]): Promise<WholeBill[]> {
  const wanted = new Set(ids);
  const bySession = new Map<number, { bills: number; ids: number[] }>();
  for (const r of await billSessions(c, ids)) {
    const s = bySession.get(r.session_id) ?? { bills: r.bills, ids: [] };
    s.ids.push(r.id);
    bySession.set(r.session_id, s);
  }
  const paged = [...bySession]
    .filter(([, s]) => Math.ceil((s.bills + SESSION_SLACK) / LIST_LIMIT) * PAGE_WHEN_FEWER <= s.ids.length)
    .map(([id]) => id);
  const got = new Map<number, WholeBill>();
  for (const bills of await inTurns(paged, (id) => sessionBills(o, id)))
    for (const b of bills) if (wanted.has(b.bill_id)) got.set(b.bill_id, b);
  const rest = ids.filter((id) => !got.has(id));
  const single = await inTurns(rest, async (id) => (await getJson(o, `/v1/bills/${id}?include=all`)).data as WholeBill);
  for (const b of single) got.set(b.bill_id, b);
  return ids.map((id) => got.get(id)!);
}

/**
 * Applies the feed from `at.cursor` until it is caught up, moving `at` (the cursor and the count of
 * changes) with each page it commits: when it is stopped midway, `at` says where the copy stands.
 */
async function catchUp(o: SyncOptions, c: pg.Client, at: { cursor: string; changes: number }): Promise<void> {
  for (;;) {
    const page = await getJson(o, `/v1/changes?since=${encodeURIComponent(at.cursor)}&limit=${FEED_LIMIT}`);
    const ids = [...new Set((page.data as Array<{ bill_id: number }>).map((d) => d.bill_id))];
    const bills = await fetchBills(o, c, ids);
    const rollCallIds = bills.flatMap((b) => b.votes.map((v) => v.roll_call_id));
    const held = await heldRollCalls(c, rollCallIds);
    const fresh = bills.flatMap((b) => b.votes.filter((v) => !held.has(v.roll_call_id)));
    const rollCalls = await inTurns(fresh, async (v) => ({
      ...v,
      member_votes: (await getJson(o, `/v1/votes/${v.roll_call_id}/details`)).data,
    }));
    await c.query('BEGIN');
    try {
      await upsert(c, 'bill', bills);
      await upsert(c, 'roll_call', rollCalls);
      await writeState(c, { source: o.from, feed_cursor: page.summary.server_now, snapshot_generated_at: null });
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    at.changes += page.data.length;
    at.cursor = page.summary.server_now;
    if (page.data.length < FEED_LIMIT) return;
  }
}

/** Resolves at the next event of the stream (or after FOLLOW_POLL_MS, or on abort). */
function nextWake(o: SyncOptions, cursor: string): { wait: Promise<void>; close(): void } {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const wait = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FOLLOW_POLL_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    request(new URL('/v1/stream', o.from), {
      headers: { 'x-api-key': o.key, 'last-event-id': cursor },
      signal: ac.signal,
    })
      .then(async (res) => {
        if (res.statusCode !== 200) {
          await res.body.dump();
          return;
        }
        for await (const chunk of res.body) if (/^(data|id):/m.test(String(chunk))) return done();
        done(); // rotation or end: pull, then reconnect
      })
      .catch(() => undefined);
  });
  return {
    wait,
    close: () => {
      ac.abort();
      o.signal?.removeEventListener('abort', onAbort);
    },
  };
}

export async function runSync(o: SyncOptions): Promise<SyncResult> {
  const c = await openTarget(o.into);
  try {
    const state = await readState(c);
    let cursor: string;
    let records = 0;
    let loadedSnapshot = false;
    if (!state || state.source !== o.from) {
      ({ cursor, records } = await loadSnapshot(o, c));
      loadedSnapshot = true;
      o.log?.(`loaded ${records} records`);
    } else {
      cursor = state.feed_cursor;
      o.log?.(`resuming from cursor ${cursor}`);
    }
    const at = { cursor, changes: 0 };
    for (;;) {
      const before = at.changes;
      try {
        await catchUp(o, c, at);
      } catch (err) {
        // stopped midway (Ctrl-C during a request): what was committed stands, and is reported
        if (!o.signal?.aborted) throw err;
      }
      if (at.changes > before) o.log?.(`applied ${at.changes - before} changes, cursor ${at.cursor}`);
      if (!o.follow || o.signal?.aborted) break;
      const wake = nextWake(o, at.cursor);
      await wake.wait;
      wake.close();
      if (o.signal?.aborted) break;
    }
    return { loadedSnapshot, records, changes: at.changes, cursor: at.cursor };
  } finally {
    await c.end().catch(() => undefined);
  }
}
