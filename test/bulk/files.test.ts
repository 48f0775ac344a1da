// The bulk files: records exactly the API's, the listing, and the download (key, ETag, Range,
// If-Range, 304, 416, one counted request), and a rebuild that touches only changed jurisdictions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshots } from '../../src/bulk/build.js';
import { simulate } from '../../src/demo/simulate/run.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, parseNdjsonGz, silent, type BulkEnv, type Parsed } from './env.js';

let env: BulkEnv;
let all: Parsed;
let listing: any[];
beforeAll(async () => {
  env = await bulkEnv(200);
  await buildSnapshots(env.db.pool, silent);
  listing = (await env.get('/v1/bulk')).body.data;
  const res = await env.get('/v1/bulk/all.ndjson.gz');
  expect(res.status).toBe(200);
  all = parseNdjsonGz(res.raw);
}, 180_000);
afterAll(async () => env?.close());

const api = async (url: string) => {
  const res = await env.get(url);
  expect(res.status, url).toBe(200);
  return res.body.data;
};

describe('bulk file records', () => {
  it('holds every record type, each exactly what the API returns', async () => {
    const T = all.byType;
    for (const t of [
      'bill',
      'roll_call',
      'legislator',
      'committee',
      'session',
      'hearing',
      'subject',
      'candidate',
      'topic',
    ]) {
      expect(T[t]?.length, t).toBeGreaterThan(0);
    }
    const totalBills = (await env.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bills')).rows[0].n;
    expect(T.bill.length).toBe(totalBills);
    for (const b of T.bill.slice(0, 40))
      expect(b, `bill ${b.bill_id}`).toEqual(await api(`/v1/bills/${b.bill_id}?include=all`));
    for (const rc of T.roll_call) {
      const { member_votes, ...header } = rc;
      expect(header).toEqual(await api(`/v1/votes/${rc.roll_call_id}`));
      expect(member_votes).toEqual(await api(`/v1/votes/${rc.roll_call_id}/details`));
      expect(member_votes.length).toBeGreaterThan(0);
    }
    for (const c of T.committee.slice(0, 20)) {
      const { members, ...row } = c;
      expect(row).toEqual(await api(`/v1/committees/${c.committee_id}`));
      expect(members).toEqual(await api(`/v1/committees/${c.committee_id}/members`));
    }
    const ca = (type: string, key: string) => T[type].filter((r) => r[key] === 'CA');
    expect(ca('legislator', 'state_abbr')).toEqual(await api('/v1/legislators?state=CA&limit=500'));
    expect(ca('session', 'state_abbr')).toEqual(await api('/v1/sessions?state=CA&limit=500'));
    expect(ca('hearing', 'state_code')).toEqual(await api('/v1/hearings?state=CA&limit=500'));
    expect(ca('candidate', 'state')).toEqual(await api('/v1/candidates?state=CA&limit=500'));
    expect(T.topic).toEqual(await api('/v1/topics'));
    // subjects carry no state: the CA file's are the CA list
    const caFile = parseNdjsonGz((await env.get('/v1/bulk/CA.ndjson.gz')).raw);
    expect(caFile.byType.subject).toEqual(await api('/v1/subjects?state=CA&limit=500'));
  });

  it('lists everything and each jurisdiction, with size, counts, generated_at and one cursor', async () => {
    expect(listing.map((e) => e.scope)).toEqual([
      'all',
      ...listing
        .slice(1)
        .map((e) => e.scope)
        .sort(),
    ]);
    expect(listing.length).toBe(1 + 52 + 1);
    const [first, ...members] = listing;
    expect(first).toMatchObject({
      name: 'all.ndjson.gz',
      url: 'http://lds.test/v1/bulk/all.ndjson.gz',
      content_type: 'application/gzip',
    });
    expect(first.size).toBe(members.reduce((n, e) => n + e.size, 0));
    expect(new Set(listing.map((e) => e.cursor)).size).toBe(1);
    expect(new Set(listing.map((e) => e.generated_at)).size).toBe(1);
    for (const [name, records] of Object.entries(all.byType)) {
      const plural = {
        bill: 'bills',
        roll_call: 'roll_calls',
        legislator: 'legislators',
        committee: 'committees',
        session: 'sessions',
        hearing: 'hearings',
        subject: 'subjects',
        candidate: 'candidates',
        topic: 'topics',
      }[name]!;
      expect(first.counts[plural], plural).toBe(records.length);
    }
    expect(all.lines).toBe(Object.values(first.counts as Record<string, number>).reduce((a, b) => a + b, 0));
  });
});

describe('bulk download', () => {
  it('needs a key and counts one request however large', async () => {
    const anon = await env.app.inject({ url: '/v1/bulk/all.ndjson.gz' });
    expect(anon.statusCode).toBe(401);
    const { api_key } = await env.newKey({ tier: 'free' });
    const used = async () =>
      (await env.app.inject({ url: '/v1/_meta/usage', headers: { 'x-api-key': api_key } })).json().data
        .monthly_requests_used;
    const before = await used();
    const res = await env.app.inject({ url: '/v1/bulk/all.ndjson.gz', headers: { 'x-api-key': api_key } });
    expect(res.statusCode).toBe(200);
    expect(await used()).toBe(before + 2); // the download and this usage call
  });

  it('answers If-None-Match with 304 and resumes with Range and If-Range', async () => {
    const full = await env.get('/v1/bulk/all.ndjson.gz');
    const etag = String(full.headers.etag);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(Number(full.headers['content-length'])).toBe(full.raw.length);
    expect(full.raw.length).toBe(listing[0].size);
    expect((await env.get('/v1/bulk/all.ndjson.gz', { 'if-none-match': etag })).status).toBe(304);
    // a broken download resumed across member and chunk boundaries
    const cut = Math.floor(full.raw.length / 3);
    const rest = await env.get('/v1/bulk/all.ndjson.gz', { range: `bytes=${cut}-`, 'if-range': etag });
    expect(rest.status).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes ${cut}-${full.raw.length - 1}/${full.raw.length}`);
    expect(Buffer.concat([full.raw.subarray(0, cut), rest.raw]).equals(full.raw)).toBe(true);
    const mid = await env.get('/v1/bulk/all.ndjson.gz', { range: 'bytes=10-19' });
    expect(mid.raw.equals(full.raw.subarray(10, 20))).toBe(true);
    const tail = await env.get('/v1/bulk/all.ndjson.gz', { range: 'bytes=-7' });
    expect(tail.raw.equals(full.raw.subarray(full.raw.length - 7))).toBe(true);
    // a stale If-Range gets the whole file
    const stale = await env.get('/v1/bulk/all.ndjson.gz', { range: 'bytes=5-', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.raw.equals(full.raw)).toBe(true);
    const past = await env.get('/v1/bulk/all.ndjson.gz', { range: `bytes=${full.raw.length}-` });
    expect(past.status).toBe(416);
    expect(past.body.error.code).toBe('range_not_satisfiable');
    expect(past.headers['content-range']).toBe(`bytes */${full.raw.length}`);
    const unknown = await env.get('/v1/bulk/XX.ndjson.gz');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('rebuilds only the jurisdictions that changed, and moves every file to the new cursor', async () => {
    const before = listing;
    await simulate(env.db.pool, { rate: 1000, count: 10, states: ['OH'] });
    await waitFor(
      'stamping',
      async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    );
    const r = await buildSnapshots(env.db.pool, silent);
    expect(r.built).toEqual(['OH']);
    const after = (await env.get('/v1/bulk')).body.data as any[];
    const etags = (l: any[]) => Object.fromEntries(l.map((e) => [e.scope, e.etag]));
    const changed = Object.keys(etags(after)).filter((s) => etags(after)[s] !== etags(before)[s]);
    expect(changed.sort()).toEqual(['OH', 'all']);
    expect(new Set(after.map((e) => e.cursor))).toEqual(new Set([r.cursor]));
    expect(r.cursor > before[0].cursor).toBe(true);
    // the old bytes stay readable for downloads that started on them; the new all is complete
    const fresh = parseNdjsonGz((await env.get('/v1/bulk/all.ndjson.gz')).raw);
    expect(fresh.byType.bill.length).toBe(
      (await env.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bills')).rows[0].n,
    );
    // nothing changed: nothing rebuilt, the cursor still moves
    const again = await buildSnapshots(env.db.pool, silent);
    expect(again.built).toEqual([]);
    expect(again.cursor >= r.cursor).toBe(true);
  });
});
