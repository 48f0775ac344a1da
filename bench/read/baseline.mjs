// The bare baseline of the read benchmark, in a process of its own: node:http, one PostgreSQL pool
// of the app's size, the repository's SQL (cases.mjs) and JSON.stringify. No authentication, limits,
// validation, schemas, ETag, compression or logging. Started by read.mjs:
//   DATABASE_URL=... node bench/read/baseline.mjs '<ids json>'   (prints `listening <port>`)
import http from 'node:http';
import { createPool } from '../../dist/db/pool.js';
import { readCases } from './cases.mjs';

const ids = JSON.parse(process.argv[2]);
const pool = createPool(process.env.DATABASE_URL, Number(process.env.DB_POOL_SIZE ?? 10), 'lds-bench-baseline');
const byPath = new Map(readCases(ids).map((c) => [c.path, c]));

const server = http.createServer(async (req, res) => {
  const c = byPath.get(req.url);
  if (!c) return res.writeHead(404).end();
  try {
    const body = JSON.stringify(await c.base(pool));
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
      .end(body);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
