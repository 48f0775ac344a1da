// Read API benchmark: autocannon against the real app and, in the same run, a bare node:http
// baseline running the same SQL with JSON.stringify. Also records EXPLAIN plans of the bill
// queries (no Seq Scan on bills). Usage (after `npx tsc -p tsconfig.build.json` and `lds seed --scale N`):
//   DATABASE_URL=postgres://.../db node bench/read/read.mjs [seconds-per-run]
import http from 'node:http';
import { writeFileSync, mkdirSync } from 'node:fs';
import autocannon from 'autocannon';
import { buildApp } from '../../dist/app.js';
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';
import { MemoryBus } from '../../dist/bus/memory.js';
import { createKey } from '../../dist/keys/store.js';
import { getBill, searchBills, subresource } from '../../dist/api/bills/repository.js';
import { roster } from '../../dist/api/legislators/repository.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const seconds = Number(process.argv[2] ?? 5);
const pool = createPool(url, 20, 'lds-bench');

const one = async (sql) => (await pool.query(sql)).rows[0];
const billCount = (await one('SELECT count(*)::int AS n FROM bills')).n;
const { bill_id: billId } = await one('SELECT bill_id FROM bill_sponsors GROUP BY bill_id ORDER BY count(*) DESC LIMIT 1');
const { state_abbr: state, state_id: stateId } = await one(`SELECT s.state_abbr::text AS state_abbr, s.state_id FROM bills b JOIN states s USING (state_id)
  GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`);
const { roll_call_id: rollCallId } = await one('SELECT roll_call_id FROM roll_call_votes GROUP BY 1 ORDER BY count(*) DESC LIMIT 1');
const word = 'school';

const DETAILS_SQL = `SELECT v.people_id, p.name, coalesce(pa.party_name, p.party_name) AS party_name, p.district,
    coalesce(vt.vote_name, 'Not Voting') AS vote
  FROM roll_call_votes v JOIN people p ON p.people_id = v.people_id
  LEFT JOIN parties pa ON pa.party_id = p.party_id LEFT JOIN vote_types vt ON vt.vote_id = v.vote_id
  WHERE v.roll_call_id = $1 ORDER BY p.last_name, p.first_name, p.people_id`;

// Same SQL as the routes; the baseline skips validation, auth, limits and schema serialisation.
const cases = [
  { name: 'GET /v1/bills/{id}', path: `/v1/bills/${billId}`, base: async () => ({ data: await getBill(pool, billId) }) },
  { name: 'GET /v1/bills/{id}/sponsors', path: `/v1/bills/${billId}/sponsors`, base: async () => ({ data: await subresource(pool, 'sponsors', billId) }) },
  { name: `GET /v1/bills?state=${state}`, path: `/v1/bills?state=${state}`, search: true,
    base: async () => { const data = await searchBills(pool, { stateId, limit: 50, offset: 0 }); return { data, pagination: { limit: 50, offset: 0, returned: data.length } }; } },
  { name: `GET /v1/bills?q=${word}`, path: `/v1/bills?q=${word}`, search: true,
    base: async () => { const data = await searchBills(pool, { q: word, limit: 50, offset: 0 }); return { data, pagination: { limit: 50, offset: 0, returned: data.length } }; } },
  { name: `GET /v1/legislators?state=${state}`, path: `/v1/legislators?state=${state}`, search: true,
    base: async () => { const data = await roster(pool, { stateId, limit: 100, offset: 0 }); return { data, pagination: { limit: 100, offset: 0, returned: data.length } }; } },
  { name: 'GET /v1/votes/{id}/details', path: `/v1/votes/${rollCallId}/details`,
    base: async () => { const { rows } = await pool.query(DETAILS_SQL, [rollCallId]); return { data: rows, summary: { roll_call_id: rollCallId, total: rows.length } }; } },
];

// EXPLAIN of the bill queries, captured from the repository functions themselves.
async function explain(fn) {
  const seen = [];
  await fn({ query: async (sql, params) => { seen.push({ sql, params }); return pool.query(sql, params); } });
  const plans = [];
  for (const { sql, params } of seen) {
    const { rows } = await pool.query(`EXPLAIN ${sql}`, params);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  return plans.join('\n---\n');
}
const plans = {
  'bill by id': await explain((db) => getBill(db, billId)),
  'sponsors': await explain((db) => subresource(db, 'sponsors', billId)),
  [`bills?state=${state}`]: await explain((db) => searchBills(db, { stateId, limit: 50, offset: 0 })),
  [`bills?q=${word}`]: await explain((db) => searchBills(db, { q: word, limit: 50, offset: 0 })),
  'bills?bill_number=HB1': await explain((db) => searchBills(db, { numberKey: 'HB1', limit: 50, offset: 0 })),
  'bills?title_contains=water': await explain((db) => searchBills(db, { titleContains: 'water', limit: 50, offset: 0 })),
  'bills?sponsor_last_name=smith': await explain((db) => searchBills(db, { sponsorLastName: 'smith', limit: 50, offset: 0 })),
  'bills?topic=education': await explain((db) => searchBills(db, { topicId: 15, limit: 50, offset: 0 })),
  'bills (no filter)': await explain((db) => searchBills(db, { limit: 50, offset: 0 })),
};
const seqScanOnBills = Object.entries(plans).filter(([, p]) => /Seq Scan on bills\b/.test(p)).map(([k]) => k);

const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url });
const app = await buildApp(config, { db: pool, logger: false, bus: new MemoryBus(), databaseUrl: url });
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = app.server.address().port;
const { api_key: key } = await createKey(pool, { org: 'bench', tier: 'enterprise', burst: 10_000_000, monthlyCap: 2_000_000_000 });

const byPath = new Map(cases.map((c) => [c.path, c]));
const baseline = http.createServer(async (req, res) => {
  try {
    const body = JSON.stringify(await byPath.get(req.url).base());
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
await new Promise((r) => baseline.listen(0, '127.0.0.1', r));
const basePort = baseline.address().port;

const run = (port, path, headers = {}) => new Promise((resolve, reject) => {
  autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 50, duration: seconds, headers }, (err, r) => (err ? reject(err) : resolve(r)));
});

const results = [];
for (const c of cases) {
  const b = await run(basePort, c.path);
  const a = await run(appPort, c.path, { 'x-api-key': key });
  results.push({
    endpoint: c.name,
    app: { rps: Math.round(a.requests.average), p50_ms: a.latency.p50, p99_ms: a.latency.p99, non2xx: a.non2xx, errors: a.errors },
    baseline: { rps: Math.round(b.requests.average), p50_ms: b.latency.p50, p99_ms: b.latency.p99, non2xx: b.non2xx },
    ratio: Math.round((a.requests.average / b.requests.average) * 100) / 100,
    p99_target_ms: c.search ? 100 : 25,
  });
}

console.log(`\nRead API, ${billCount.toLocaleString('en-US')} bills, 50 connections, ${seconds} s per run\n`);
console.log('| endpoint | app req/s | app p50 | app p99 | baseline req/s | baseline p99 | ratio | p99 target |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.endpoint} | ${r.app.rps} | ${r.app.p50_ms} ms | ${r.app.p99_ms} ms | ${r.baseline.rps} | ${r.baseline.p99_ms} ms | ${r.ratio} | ${r.p99_target_ms} ms |`);
}
console.log(`\nSeq Scan on bills in: ${seqScanOnBills.length ? seqScanOnBills.join(', ') : 'none'}`);

mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
writeFileSync(new URL('../results/read.json', import.meta.url), JSON.stringify({
  measured_at: new Date().toISOString(), bills: billCount, connections: 50, seconds_per_run: seconds, node: process.version,
  ids: { bill_id: billId, state, roll_call_id: rollCallId, q: word }, results, seq_scan_on_bills: seqScanOnBills, plans,
}, null, 2));

await app.close();
baseline.close();
await pool.end();
