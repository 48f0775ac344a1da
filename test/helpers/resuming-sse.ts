// An SSE client that follows the reconnection rules a real consumer does: after any close, refusal
// or network error it reconnects (to the next of the given gateways) with Last-Event-ID set to the
// last bill_change or rotate id it saw, so the ids it collects show loss and duplicates exactly.
import http from 'node:http';

export class ResumingSseClient {
  readonly ids: string[] = [];
  readonly statuses: number[] = [];
  /** `event: error` frames received */
  errors = 0;
  /** connections answered with a status other than 200 */
  refused = 0;
  reconnects = 0;
  private req?: http.ClientRequest;
  private stopped = false;

  constructor(
    private readonly urls: () => string[],
    private readonly key: string,
    private last: string,
    private readonly opts: { retryMs?: number; turn?: number } = {},
  ) {}

  start(): void {
    const urls = this.urls();
    if (this.stopped || urls.length === 0) return;
    const turn = this.opts.turn ?? 0;
    this.opts.turn = turn + 1;
    const base = urls[turn % urls.length];
    const req = http.get(
      `${base}/v1/stream`,
      { headers: { 'x-api-key': this.key, 'last-event-id': this.last } },
      (res) => {
        this.statuses.push(res.statusCode!);
        if (res.statusCode !== 200) this.refused++;
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            this.frame(buf.slice(0, i));
            buf = buf.slice(i + 2);
          }
        });
        res.on('close', () => this.again());
      },
    );
    req.on('error', () => this.again());
    this.req = req;
  }

  stop(): void {
    this.stopped = true;
    this.req?.destroy();
  }

  private frame(frame: string): void {
    const event = /^event: (.*)$/m.exec(frame)?.[1];
    const id = /^id: (.*)$/m.exec(frame)?.[1];
    if (event === 'bill_change' && id) {
      this.ids.push(id);
      this.last = id;
    } else if (event === 'rotate' && id) this.last = id;
    else if (event === 'error') this.errors++;
  }

  private again(): void {
    if (this.stopped) return;
    this.reconnects++;
    setTimeout(() => this.start(), this.opts.retryMs ?? 300);
  }
}
