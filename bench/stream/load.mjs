// Load generator process for the stream benchmark: opens raw-socket SSE clients (hand-written
// HTTP request, no client library) and records, per delivered event, its bill id and the receive
// time. Parsing never converts bytes to strings: it scans each chunk for `"bill_id":` with
// Buffer.indexOf and reads the digits that follow, so it keeps up with 100,000 events/s.
import net from 'node:net';

const MARK = Buffer.from('"bill_id":');
const OPENING = Buffer.from('lds-stream v1');
const now = () => performance.timeOrigin + performance.now();

let ids = new Int32Array(1 << 20);
let times = new Float64Array(1 << 20);
let n = 0;
const sockets = [];

function record(id, t) {
  if (n === ids.length) {
    const i2 = new Int32Array(n * 2); i2.set(ids); ids = i2;
    const t2 = new Float64Array(n * 2); t2.set(times); times = t2;
  }
  ids[n] = id;
  times[n++] = t;
}

/** Scans complete events (up to the last blank line); returns the unparsed tail. */
function scan(buf, t) {
  const end = buf.lastIndexOf(10); // the final "\n" of the last complete block
  if (end < 0) return buf;
  let pos = buf.indexOf(MARK, 0);
  while (pos >= 0 && pos < end) {
    let i = pos + MARK.length;
    let id = 0;
    for (let ch = buf[i]; ch >= 48 && ch <= 57; ch = buf[++i]) id = id * 10 + (ch - 48);
    record(id, t);
    pos = buf.indexOf(MARK, i);
  }
  return end + 1 < buf.length ? buf.subarray(end + 1) : null;
}

function open({ port, key, states, concurrency }) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let opened = 0;
    const t0 = Date.now();
    const openOne = () => {
      if (started >= states.length) return;
      const state = states[started++];
      const sock = net.connect(port, '127.0.0.1');
      sockets.push(sock);
      let open = false;
      let carry = null;
      sock.on('connect', () => sock.write(`GET /v1/stream${state ? `?states=${state}` : ''} HTTP/1.1\r\nHost: bench\r\nX-API-Key: ${key}\r\n\r\n`));
      sock.on('data', (d) => {
        if (!open) {
          if (d.indexOf(OPENING) < 0) return;
          open = true;
          if (++opened === states.length) resolve({ opened, accept_ms: Date.now() - t0 });
          openOne();
        }
        const buf = carry ? Buffer.concat([carry, d]) : d;
        carry = scan(buf, now());
      });
      sock.on('error', reject);
    };
    for (let k = 0; k < concurrency; k++) openOne();
    if (states.length === 0) resolve({ opened: 0, accept_ms: 0 });
  });
}

process.on('message', async (m) => {
  if (m.cmd === 'open') process.send(await open(m));
  else if (m.cmd === 'stats') process.send({ delivered: n, cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
  else if (m.cmd === 'collect') {
    for (const s of sockets) s.destroy();
    process.send({ ids: ids.slice(0, n), times: times.slice(0, n) });
  } else if (m.cmd === 'exit') process.exit(0);
});
process.send({ ready: true });
