// The CSV zips: opened with a real zip reader (yauzl, CRCs checked) and parsed with a real CSV
// parser (csv-parse), every table and every row equal to the NDJSON records of the same snapshot,
// which the NDJSON tests hold equal to the API; PostgreSQL's COPY … CSV HEADER reads every table
// with nulls and empty strings apart; the download behaves as the NDJSON one (key, ETag, Range).
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshots } from '../../src/bulk/build.js';
import { currentFiles } from '../../src/bulk/store.js';
import { crc32Combine, zipLayout } from '../../src/bulk/zip.js';
import { listDownloads } from '../../src/bulk/downloads.js';
import { simulate } from '../../src/demo/simulate/run.js';
import { waitFor } from '../helpers/wait.js';
import { bulkEnv, parseCsv, parseNdjsonGz, readMembers, readZip, silent, type BulkEnv, type Parsed } from './env.js';

type Row = Record<string, any>;
const PARTS = [
  'sponsors',
  'history',
  'texts',
  'votes',
  'subjects',
  'amendments',
  'referrals',
  'calendar',
  'supplements',
  'sast',
  'citations',
  'analyses',
  'changes',
];
const omit = (r: Row, keys: string[]) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k)));
const withKey = (key: string, id: unknown, rows: Row[]) => rows.map((r) => ({ [key]: id, ...r }));

/** The tables the NDJSON records make, written out here independently of src/bulk/tables.ts. */
function expectedTables(T: Parsed['byType'], global: boolean): Map<string, Row[]> {
  const t = new Map<string, Row[]>();
  if (global) return t.set('topics', T.topic ?? []);
  const bills = T.bill ?? [];
  t.set(
    'bills',
    bills.map((b) => omit(b, PARTS)),
  );
  for (const p of PARTS.filter((p) => p !== 'votes'))
    t.set(
      `bill_${p}`,
      bills.flatMap((b) => withKey('bill_id', b.bill_id, b[p])),
    );
  const rollCalls = T.roll_call ?? [];
  t.set(
    'roll_calls',
    rollCalls.map((rc) => omit(rc, ['member_votes'])),
  );
  t.set(
    'roll_call_votes',
    rollCalls.flatMap((rc) => withKey('roll_call_id', rc.roll_call_id, rc.member_votes)),
  );
  t.set('legislators', T.legislator ?? []);
  t.set(
    'committees',
    (T.committee ?? []).map((c) => omit(c, ['members'])),
  );
  t.set(
    'committee_members',
    (T.committee ?? []).flatMap((c) => withKey('committee_id', c.committee_id, c.members)),
  );
  for (const [type, name] of [
    ['session', 'sessions'],
    ['hearing', 'hearings'],
    ['subject', 'subjects'],
    ['candidate', 'candidates'],
  ])
    t.set(name, T[type] ?? []);
  return t;
}

/** A value as its CSV cell reads back: null stays null (an empty cell), a nested value is its JSON. */
const cell = (v: unknown) =>
  v === null ? null : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Checks a zip against NDJSON records: the same tables, each row equal; returns the parsed tables. */
async function expectZipEquals(zipBuf: Buffer, expected: Map<string, Row[]>) {
  const files = await readZip(zipBuf);
  expect([...files.keys()].sort()).toEqual([...expected.keys()].map((n) => `${n}.csv`).sort());
  const parsed = new Map<string, ReturnType<typeof parseCsv>>();
  for (const [name, rows] of expected) {
    const csv = parseCsv(files.get(`${name}.csv`)!);
    parsed.set(name, csv);
    // columns: the API's field names, the parent's id first where the API's rows lack it
    if (rows.length) expect(new Set(csv.header), name).toEqual(new Set(Object.keys(rows[0])));
    expect(csv.rows.length, `${name} rows`).toBe(rows.length);
    rows.forEach((r, i) => {
      const want = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)]));
      if (JSON.stringify(csv.rows[i]) !== JSON.stringify(Object.fromEntries(csv.header.map((h) => [h, want[h]])))) {
        expect(csv.rows[i], `${name} row ${i}`).toEqual(want);
      }
    });
  }
  return parsed;
}

let env: BulkEnv;
let listing: any[];
let ndjson: Parsed;
let zip: Buffer;
beforeAll(async () => {
  env = await bulkEnv(200);
  await buildSnapshots(env.db.pool, silent);
  listing = (await env.get('/v1/bulk')).body.data;
  ndjson = parseNdjsonGz((await env.get('/v1/bulk/all.ndjson.gz')).raw);
  const res = await env.get('/v1/bulk/all.csv.zip');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  zip = res.raw;
}, 180_000);
afterAll(async () => env?.close());

describe('bulk CSV tables', () => {
  it('all.csv.zip holds every table, every row equal to the NDJSON records of the same snapshot', async () => {
    const expected = expectedTables(ndjson.byType, false).set('topics', ndjson.byType.topic);
    const parsed = await expectZipEquals(zip, expected);
    expect(parsed.size).toBe(23);
    // a corpus with rows in every table, so none passes empty
    for (const [name, rows] of expected)
      if (!['bill_changes'].includes(name)) expect(rows.length, name).toBeGreaterThan(0);
    // a bill's votes part is roll_calls.csv
    const rc = parsed.get('roll_calls')!.rows;
    const fromBills = ndjson.byType.bill.flatMap((b) => b.votes);
    expect(rc.length).toBe(fromBills.length);
    fromBills.forEach((v, i) =>
      expect(rc[i]).toEqual(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cell(x)]))),
    );
    // and the bills are the API's
    const b = ndjson.byType.bill[3];
    expect(parsed.get('bills')!.rows[3]).toEqual(
      Object.fromEntries(
        Object.entries(omit((await env.get(`/v1/bills/${b.bill_id}`)).body.data, PARTS)).map(([k, x]) => [k, cell(x)]),
      ),
    );
  });

  it('is listed beside the NDJSON file of the same snapshot, with its size, ETag and rows per table', async () => {
    const [all, ...scopes] = listing;
    expect(all.csv).toMatchObject({
      name: 'all.csv.zip',
      url: 'http://lds.test/v1/bulk/all.csv.zip',
      content_type: 'application/zip',
      size: zip.length,
    });
    expect(all.csv.rows.bills).toBe(ndjson.byType.bill.length);
    expect(all.csv.rows.roll_call_votes).toBe(ndjson.byType.roll_call.reduce((n, rc) => n + rc.member_votes.length, 0));
    for (const e of scopes) expect(e.csv?.name, e.scope).toBe(`${e.scope}.csv.zip`);
    const res = await env.get('/v1/bulk/all.csv.zip', { range: 'bytes=0-0' });
    expect(res.headers['x-bulk-cursor']).toBe(all.cursor);
    expect(res.headers.etag).toBe(all.csv.etag);
  });

  it('a jurisdiction zip holds its records, the global one the topics', async () => {
    const ca = listing.find((e) => e.scope === 'CA');
    const caRecords = parseNdjsonGz((await env.get('/v1/bulk/CA.ndjson.gz')).raw).byType;
    const caZip = (await env.get('/v1/bulk/CA.csv.zip')).raw;
    expect(caZip.length).toBe(ca.csv.size);
    await expectZipEquals(caZip, expectedTables(caRecords, false));
    await expectZipEquals((await env.get('/v1/bulk/global.csv.zip')).raw, expectedTables(ndjson.byType, true));
  });

  it('reads into PostgreSQL with COPY … CSV HEADER: every row, nulls and empty strings apart', async () => {
    const files = await readZip(zip);
    const expected = expectedTables(ndjson.byType, false).set('topics', ndjson.byType.topic);
    const client = await env.db.pool.connect();
    try {
      for (const [name, rows] of expected) {
        const { header } = parseCsv(files.get(`${name}.csv`)!.subarray(0, files.get(`${name}.csv`)!.indexOf('\n') + 1));
        await client.query(`CREATE TEMP TABLE csv_${name} (${header.map((h) => `"${h}" text`).join(', ')})`);
        await pipeline(
          Readable.from([files.get(`${name}.csv`)!]),
          client.query(copyFrom(`COPY csv_${name} FROM STDIN (FORMAT csv, HEADER true)`)),
        );
        const counts = (
          await client.query(
            `SELECT count(*)::int AS n, ${header.map((h) => `count(*) FILTER (WHERE "${h}" IS NULL)::int AS "${h}"`).join(', ')} FROM csv_${name}`,
          )
        ).rows[0];
        expect(counts.n, name).toBe(rows.length);
        for (const h of header) expect(counts[h], `${name}.${h} nulls`).toBe(rows.filter((r) => r[h] === null).length);
        const empties = (
          await client.query(
            `SELECT ${header.map((h) => `count(*) FILTER (WHERE "${h}" = '')::int AS "${h}"`).join(', ')} FROM csv_${name}`,
          )
        ).rows[0];
        for (const h of header)
          expect(empties[h], `${name}.${h} empty strings`).toBe(rows.filter((r) => r[h] === '').length);
      }
    } finally {
      client.release();
    }
  });
});

describe('bulk CSV download', () => {
  it('needs a key, answers If-None-Match with 304 and resumes with Range and If-Range', async () => {
    expect((await env.app.inject({ url: '/v1/bulk/all.csv.zip' })).statusCode).toBe(401);
    const etag = listing[0].csv.etag;
    expect((await env.get('/v1/bulk/all.csv.zip', { 'if-none-match': etag })).status).toBe(304);
    for (const cut of [1, 100, Math.floor(zip.length / 2), zip.length - 30]) {
      const rest = await env.get('/v1/bulk/all.csv.zip', { range: `bytes=${cut}-`, 'if-range': etag });
      expect(rest.status).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes ${cut}-${zip.length - 1}/${zip.length}`);
      expect(Buffer.concat([zip.subarray(0, cut), rest.raw]).equals(zip), `resumed at ${cut}`).toBe(true);
    }
    const tail = await env.get('/v1/bulk/all.csv.zip', { range: 'bytes=-22' });
    expect(tail.raw.equals(zip.subarray(zip.length - 22))).toBe(true);
    const stale = await env.get('/v1/bulk/all.csv.zip', { range: 'bytes=5-', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.raw.equals(zip)).toBe(true);
    expect((await env.get(`/v1/bulk/all.csv.zip`, { range: `bytes=${zip.length}-` })).status).toBe(416);
    expect((await env.get('/v1/bulk/XX.csv.zip')).status).toBe(404);
  });

  it('a rebuild of one jurisdiction changes its zip and all, and all stays exact', async () => {
    await simulate(env.db.pool, { rate: 1000, count: 10, states: ['OH'] });
    await waitFor(
      'stamping',
      async () => (await env.db.pool.query('SELECT 1 FROM changes WHERE seq IS NULL LIMIT 1')).rowCount === 0,
    );
    expect((await buildSnapshots(env.db.pool, silent)).built).toEqual(['OH']);
    const after = (await env.get('/v1/bulk')).body.data as any[];
    const etags = (l: any[]) => Object.fromEntries(l.map((e) => [e.scope, e.csv.etag]));
    expect(
      Object.keys(etags(after))
        .filter((s) => etags(after)[s] !== etags(listing)[s])
        .sort(),
    ).toEqual(['OH', 'all']);
    const records = parseNdjsonGz((await env.get('/v1/bulk/all.ndjson.gz')).raw).byType;
    await expectZipEquals(
      (await env.get('/v1/bulk/all.csv.zip')).raw,
      expectedTables(records, false).set('topics', records.topic),
    );
  });
});

describe('zip layout', () => {
  it('combines CRC-32s as zlib computes them over the concatenation', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [0, 7],
      [100, 1000],
      [65_536, 3],
      [5, 1 << 20],
    ]) {
      const x = randomBytes(a);
      const y = randomBytes(b);
      expect(crc32Combine(crc32(x), crc32(y), y.length), `${a}+${b}`).toBe(crc32(Buffer.concat([x, y])));
    }
  });

  it('writes Zip64 records that a reader opens to the same tables', async () => {
    const files = await currentFiles(env.db.pool);
    const all = listDownloads(files)[0].csv!;
    const plain = await readZip(await readMembers(env.db.pool, all.pieces));
    // the same entries laid out with every Zip64 field
    const csvFiles = files.filter((f) => f.format === 'csv' && f.part === 'bills');
    const entry = {
      name: 'bills.csv',
      head: plain.get('bills.csv')!.subarray(0, plain.get('bills.csv')!.indexOf('\n') + 1),
      pieces: [] as any[],
    };
    const pieces = csvFiles.map((f) => ({ file_id: f.file_id, size: f.size, raw_size: f.raw_size!, crc32: f.crc32! }));
    const z64 = zipLayout([{ ...entry, headCrc: crc32(entry.head), pieces }], new Date(), { zip64: 'always' });
    const read = await readZip(await readMembers(env.db.pool, z64.pieces));
    expect(read.get('bills.csv')!.equals(plain.get('bills.csv')!)).toBe(true);
  });
});
