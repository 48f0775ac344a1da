import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change, realtimeEnv, until, type Env } from './env.js';
import { changeEvents, openStream } from './sse-client.js';

let env: Env;
beforeAll(async () => {
  env = await realtimeEnv({ streamHeartbeatMs: 200, streamRotateMs: 60_000, relayPollMs: 200 });
});
afterAll(async () => env?.close());

const ISO_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('GET /v1/stream framing', () => {
  it('opens with retry and the version comment, then frames events and heartbeats byte by byte', async () => {
    const s = await openStream(`${env.url}/v1/stream`, { 'x-api-key': env.key });
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['cache-control']).toContain('no-cache');
    expect(s.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => s.text().length > 0);
    expect(s.text().startsWith('retry: 5000\n: lds-stream v1\n\n')).toBe(true);
    await change(env.db, 'CA', 'StatusChange', 3);
    const [ev] = (await until(() => changeEvents(s).length > 0 && changeEvents(s))) as ReturnType<typeof changeEvents>;
    expect(ev.id).toMatch(ISO_US);
    const data = JSON.parse(ev.data!);
    expect(Object.keys(data)).toEqual([
      'bill_id',
      'bill_number',
      'state',
      'title',
      'reason',
      'reason_id',
      'changed_at',
    ]);
    expect(data).toMatchObject({
      bill_number: 'HB3',
      state: 'CA',
      reason: 'StatusChange',
      reason_id: 2,
      changed_at: ev.id,
    });
    const frame = `event: bill_change\nid: ${ev.id}\ndata: ${JSON.stringify(data)}\n\n`;
    expect(s.text()).toContain(frame);
    await until(() => /\n: ping \d{4}-\d{2}-\d{2}T[^\n]+Z\n\n/.test(s.text()));
    s.close();
  });
});
