// A raw SSE reader for byte-exact assertions (node:http, no parsing done by a library).
import http from 'node:http';

export interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
  comments: string[];
}

export interface RawStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** everything received so far */
  text(): string;
  events(): SseEvent[];
  ended: Promise<void>;
  close(): void;
}

/** Parses complete blocks of an SSE body (per the WHATWG format, LF line endings). */
export function parseSse(body: string): SseEvent[] {
  const out: SseEvent[] = [];
  const blocks = body.split('\n\n');
  blocks.pop(); // incomplete tail
  for (const block of blocks) {
    const ev: SseEvent = { comments: [] };
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) ev.comments.push(line.slice(1).trim());
      else {
        const i = line.indexOf(':');
        const k = i < 0 ? line : line.slice(0, i);
        const v = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (k === 'event' || k === 'id' || k === 'data') ev[k] = v;
      }
    }
    out.push(ev);
  }
  return out;
}

export function openStream(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      const ended = new Promise<void>((r) => {
        res.on('end', () => r());
        res.on('close', () => r());
        res.on('error', () => r());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => body,
        events: () => parseSse(body),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

export const changeEvents = (s: RawStream) => s.events().filter((e) => e.event === 'bill_change');
