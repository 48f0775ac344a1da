/* global TextDecoderStream */
// Event-stream reading for the dashboard. EventSource cannot send the X-API-Key header, so the page
// reads /v1/stream with fetch and parses the text/event-stream format itself (WHATWG HTML 9.2).
// No DOM here: the parser and the client also run under Node for tests.

/** Incremental text/event-stream parser: feed() decoded text in any chunking, get whole events. */
export class EventStreamParser {
  constructor() {
    this.buf = '';
    this.skipLF = false; // a chunk ended in CR: a following LF belongs to the same line end
    this.bomChecked = false;
    this.reset();
  }

  reset() {
    this.type = '';
    this.data = [];
    this.id = undefined;
  }

  /**
   * @param {string} text
   * @returns {Array<{kind:'event', type:string, data:string, id:string|undefined} | {kind:'comment', text:string} | {kind:'retry', ms:number}>}
   */
  feed(text) {
    if (!this.bomChecked && text.length > 0) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.skipLF && text.startsWith('\n')) text = text.slice(1);
    this.skipLF = false;
    this.buf += text;
    const out = [];
    let start = 0;
    for (let i = 0; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buf.slice(start, i), out);
      if (c === 13) {
        if (i + 1 < this.buf.length) {
          if (this.buf.charCodeAt(i + 1) === 10) i++;
        } else {
          this.skipLF = true;
        }
      }
      start = i + 1;
    }
    this.buf = this.buf.slice(start);
    return out;
  }

  line(line, out) {
    if (line === '') {
      // A blank line dispatches; an event without data lines is dropped, as EventSource does.
      if (this.data.length > 0)
        out.push({ kind: 'event', type: this.type || 'message', data: this.data.join('\n'), id: this.id });
      this.reset();
      return;
    }
    if (line.charCodeAt(0) === 58) {
      out.push({ kind: 'comment', text: line.slice(1).replace(/^ /, '') });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') {
      if (!value.includes('\0')) this.id = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) out.push({ kind: 'retry', ms: Number(value) });
    }
  }
}

/** Wait before reconnect attempt n (1-based): the server's retry, doubled per failure, capped, jittered. */
export function backoffMs(retryMs, attempt, cap = 60_000, random = Math.random) {
  const base = Math.min(cap, retryMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Keeps one stream open: reconnects after rotation at once and after failures with backoff, resumes
 * from the last id with Last-Event-ID, and drops events it has already delivered.
 */
export class StreamClient {
  /**
   * @param {{ url: string, key: string, params?: Record<string,string>, since?: string,
   *   onEvent: (e: {type:string, id?:string, data:any}) => void,
   *   onStatus: (s: object) => void, fetch?: typeof fetch, staleMs?: number }} opts
   */
  constructor(opts) {
    this.opts = opts;
    this.fetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.staleMs = opts.staleMs ?? 45_000;
    this.retryMs = 5000;
    this.lastId = undefined;
    this.since = opts.since;
    this.seen = new Set();
    this.seenOrder = [];
    this.failures = 0;
    this.stopped = false;
    this.timer = undefined;
    this.stats = { connects: 0, rotations: 0, resumes: 0, events: 0, duplicates: 0, heartbeats: 0 };
  }

  start() {
    this.stopped = false;
    this.connect(false);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller?.abort();
    this.status({ phase: 'stopped' });
  }

  status(s) {
    this.opts.onStatus({ ...s, stats: { ...this.stats }, lastId: this.lastId });
  }

  schedule(ms, phase, extra = {}) {
    clearTimeout(this.timer);
    const until = Date.now() + ms;
    this.status({ phase, until, ...extra });
    // Timers overflow past 2^31-1 ms (about 24.8 days) and would fire at once; a monthly-cap wait can be longer.
    this.timer = setTimeout(() => this.connect(true), Math.min(ms, 2 ** 31 - 1));
  }

  remember(id) {
    this.seen.add(id);
    this.seenOrder.push(id);
    // Ids only need remembering across one resume window; keep the set small on long sessions.
    if (this.seenOrder.length > 5000) this.seen.delete(this.seenOrder.shift());
  }

  async connect(isResume) {
    if (this.stopped) return;
    const url = new URL(this.opts.url);
    for (const [k, v] of Object.entries(this.opts.params ?? {})) if (v) url.searchParams.set(k, v);
    const headers = { 'X-API-Key': this.opts.key, Accept: 'text/event-stream' };
    if (this.lastId) headers['Last-Event-ID'] = this.lastId;
    else if (this.since) url.searchParams.set('since', this.since);
    const controller = new AbortController();
    this.controller = controller;
    this.status({ phase: 'connecting', resume: Boolean(this.lastId) });
    let res;
    try {
      res = await this.fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
    } catch (err) {
      if (this.stopped || controller.signal.aborted) return;
      return this.fail(`Network error: ${err?.message ?? err}`);
    }
    if (res.status === 401 || res.status === 403 || res.status === 400) {
      const body = await res.json().catch(() => ({}));
      return this.status({
        phase: 'refused',
        http: res.status,
        code: body?.error?.code,
        message: body?.error?.message,
      });
    }
    if (res.status === 429) {
      const body = await res.json().catch(() => ({}));
      const wait = Math.max(1, Number(res.headers.get('Retry-After')) || 1);
      return this.schedule(wait * 1000, 'rate_limited', { retryAfter: wait, message: body?.error?.message });
    }
    if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await res.body?.cancel().catch(() => undefined);
      return this.fail(`The server answered HTTP ${res.status}.`);
    }
    this.stats.connects++;
    if (isResume && this.lastId) this.stats.resumes++;
    this.failures = 0;
    this.status({ phase: 'open' });
    const ended = await this.read(res.body, controller);
    if (this.stopped || ended === 'superseded') return;
    if (ended === 'rotate') {
      this.stats.rotations++;
      return this.connect(true);
    }
    this.fail(ended === 'stale' ? 'No heartbeat for too long; reconnecting.' : 'The stream closed unexpectedly.');
  }

  fail(message) {
    this.failures++;
    this.schedule(backoffMs(this.retryMs, this.failures), 'waiting', { message });
  }

  async read(body, controller) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventStreamParser();
    let watchdog;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        this.staleHit = true;
        controller.abort();
      }, this.staleMs);
    };
    this.staleHit = false;
    arm();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'closed';
        arm();
        for (const item of parser.feed(value)) {
          const r = this.handle(item);
          if (r === 'rotate') {
            controller.abort();
            return 'rotate';
          }
        }
      }
    } catch {
      if (this.controller !== controller) return 'superseded';
      return this.staleHit ? 'stale' : 'closed';
    } finally {
      clearTimeout(watchdog);
    }
  }

  handle(item) {
    if (item.kind === 'retry') {
      this.retryMs = item.ms;
      return;
    }
    if (item.kind === 'comment') {
      if (item.text.startsWith('ping')) {
        this.stats.heartbeats++;
        this.status({
          phase: 'open',
          heartbeat: item.text.slice(4).trim() || new Date().toISOString(),
          heartbeatAt: Date.now(),
        });
      }
      return;
    }
    let data;
    try {
      data = JSON.parse(item.data);
    } catch {
      data = item.data;
    }
    if (item.type === 'rotate') {
      const cursor = data && typeof data === 'object' ? data.cursor : undefined;
      if (cursor) this.lastId = cursor;
      else if (item.id) this.lastId = item.id;
      return 'rotate';
    }
    if (item.type === 'error') {
      this.status({ phase: 'open', streamError: data && typeof data === 'object' ? data : { message: String(data) } });
      return;
    }
    if (item.id) {
      if (this.seen.has(item.id)) {
        this.stats.duplicates++;
        return;
      }
      this.remember(item.id);
      this.lastId = item.id;
    }
    this.stats.events++;
    this.opts.onEvent({ type: item.type, id: item.id, data });
  }
}
