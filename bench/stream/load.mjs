// Load generator process for the stream benchmark: opens raw-socket SSE clients (hand-written
// HTTP request, no client library) and records, per delivered event, its bill id and the receive
// time. Parsing never converts event bodies to strings: it scans each chunk for `"bill_id":` with
// Buffer.indexOf and reads the digits that follow, so it keeps up with 100,000 events/s.
// The writer gives bill ids in commit order, so every client sees strictly increasing ids: an id
// not above the client's last one is a duplicate. Each client also keeps the last `id:` it saw,
// to resume with Last-Event-ID in the reconnect storm.
import net from 'node:net';

const MARK = Buffer.from('"bill_id":');
const ID = Buffer.from('\nid: ');
const BLANK = Buffer.from('\n\n');
const OPENING = Buffer.from('lds-stream v1');
const now = () => performance.timeOrigin + performance.now();

let ids = new Int32Array(1 << 20);
let times = new Float64Array(1 << 20);
let n = 0;
let duplicates = 0;
const clients = [];

function record(id, t) {
  if (n === ids.length) {
    const i2 = new Int32Array(n * 2);
    i2.set(ids);
    ids = i2;
    const t2 = new Float64Array(n * 2);
    t2.set(times);
    times = t2;
  }
  ids[n] = id;
  times[n++] = t;
}

class Client {
  constructor(state) {
    this.state = state;
    this.lastBill = 0;
    this.lastId = '';
    this.sock = null;
    this.carry = null;
    this.open = false;
  }

  /** Scans complete events (up to the last blank line); keeps the unparsed tail. */
  scan(buf, t) {
    const end = buf.lastIndexOf(BLANK);
    if (end < 0) return buf;
    let pos = buf.indexOf(MARK, 0);
    while (pos >= 0 && pos < end) {
      let i = pos + MARK.length;
      let id = 0;
      for (let ch = buf[i]; ch >= 48 && ch <= 57; ch = buf[++i]) id = id * 10 + (ch - 48);
      if (id <= this.lastBill) duplicates++;
      else {
        this.lastBill = id;
        record(id, t);
      }
      pos = buf.indexOf(MARK, i);
    }
    const at = buf.lastIndexOf(ID, end);
    if (at >= 0) {
      const eol = buf.indexOf(10, at + ID.length);
      if (eol > 0 && eol <= end) this.lastId = buf.toString('latin1', at + ID.length, eol);
    }
    return end + 2 < buf.length ? buf.subarray(end + 2) : null;
  }

  /** Connects; resolves when the stream's opening arrived. */
  connect(port, key, since) {
    return new Promise((resolve, reject) => {
      const sock = net.connect(port, '127.0.0.1');
      this.sock = sock;
      this.open = false;
      this.carry = null;
      const qs = [this.state ? `states=${this.state}` : '', since ? `since=${since}` : ''].filter(Boolean).join('&');
      const resume = this.lastId ? `Last-Event-ID: ${this.lastId}\r\n` : '';
      sock.on('connect', () =>
        sock.write(`GET /v1/stream${qs ? `?${qs}` : ''} HTTP/1.1\r\nHost: bench\r\nX-API-Key: ${key}\r\n${resume}\r\n`),
      );
      sock.on('data', (d) => {
        if (sock !== this.sock) return;
        const t = now();
        let buf = this.carry ? Buffer.concat([this.carry, d]) : d;
        if (!this.open) {
          const at = buf.indexOf(OPENING);
          if (at < 0) {
            this.carry = buf;
            return;
          }
          this.open = true;
          buf = buf.subarray(at + OPENING.length);
          resolve(t);
        }
        this.carry = this.scan(buf, t);
      });
      sock.on('error', (err) => {
        if (!this.open) reject(err);
      });
    });
  }
}

/** Opens clients with at most `concurrency` handshakes in flight. */
async function open({ port, key, states, since, concurrency }) {
  const t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < states.length) {
      const c = new Client(states[next++]);
      clients.push(c);
      await c.connect(port, key, since);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, states.length) }, worker));
  return { opened: states.length, accept_ms: Date.now() - t0 };
}

/**
 * Reconnect storm: every client drops its connection at a random moment within windowMs and
 * reconnects at once with Last-Event-ID = the last id it saw (or the original since when it saw
 * none). Resolves when all are back: the times are from the storm's start.
 */
async function storm({ port, key, since, windowMs }) {
  const t0 = now();
  let withId = 0;
  const back = await Promise.all(
    clients.map(
      (c) =>
        new Promise((resolve, reject) => {
          setTimeout(() => {
            c.sock.destroy();
            const left = now();
            if (c.lastId) withId++;
            c.connect(port, key, c.lastId ? undefined : since).then(
              (t) => resolve([left - t0, t - t0, t - left]),
              reject,
            );
          }, Math.random() * windowMs);
        }),
    ),
  );
  const gaps = back.map((b) => b[2]).sort((a, b) => a - b);
  return {
    resumed: back.length,
    with_last_event_id: withId,
    last_left_ms: Math.max(...back.map((b) => b[0])),
    all_back_ms: Math.max(...back.map((b) => b[1])),
    reconnect_p50_ms: gaps[Math.floor(gaps.length / 2)],
    reconnect_max_ms: gaps.at(-1),
  };
}

process.on('message', async (m) => {
  if (m.cmd === 'open') process.send(await open(m));
  else if (m.cmd === 'storm') process.send(await storm(m));
  else if (m.cmd === 'stats')
    process.send({ delivered: n, duplicates, cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
  else if (m.cmd === 'collect') {
    for (const c of clients) c.sock.destroy();
    process.send({ ids: ids.slice(0, n), times: times.slice(0, n), duplicates });
  } else if (m.cmd === 'exit') process.exit(0);
});
process.send({ ready: true });
