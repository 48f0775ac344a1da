// Child process of the webhook benchmark: N receivers on loopback answering after a delay, one
// that hangs, and a LegiScan Push receiver for the push-mirror phase. Reports arrivals (event id, arrival time) to the parent in batches.
import http from 'node:http';

const count = Number(process.argv[2] ?? 50);
const delayMs = Number(process.argv[3] ?? 5);
const hangMs = Number(process.argv[4] ?? 15000);
let batch = [];
const flush = () => {
  if (batch.length) process.send({ arrivals: batch });
  batch = [];
};
setInterval(flush, 50).unref();

function serve(handler) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

const ports = [];
for (let i = 0; i < count; i++) {
  ports.push(
    await serve((req, res, body) => {
      const t = Date.now();
      let id = '';
      try {
        id = JSON.parse(body).id ?? '';
      } catch {
        /* baseline bodies */
      }
      batch.push([id, t, req.headers['webhook-id'] ?? '']);
      setTimeout(() => res.end('ok'), delayMs);
    }),
  );
}
const hangPort = await serve((req, res) => {
  batch.push(['hang', Date.now(), '']);
  setTimeout(() => res.end('late'), hangMs);
});
// a LegiScan Push receiver: answers {"status":"OK"} after the same delay; arrivals as ['mirror', t, root]
const mirrorPort = await serve((req, res, body) => {
  const t = Date.now();
  let root = '';
  try {
    root = Object.keys(JSON.parse(body))[0] ?? '';
  } catch {
    /* not JSON */
  }
  batch.push(['mirror', t, root]);
  setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK"}'), delayMs);
});
process.send({ ports, hangPort, mirrorPort });
process.on('message', (m) => {
  if (m === 'flush') flush();
});
