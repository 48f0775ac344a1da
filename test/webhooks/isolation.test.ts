// A slow receiver never delays the others, even on the same host and port: two subscriptions
// whose receivers hang hold all the requests they may have in flight, and a healthy subscription
// on the same origin (one real local HTTP server, three paths) still gets every event.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Background } from '../../src/background.js';
import { startDispatcher } from '../../src/webhooks/queue/dispatcher.js';
import { PER_SUBSCRIPTION, startDeliveryWorker } from '../../src/webhooks/delivery/worker.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { insertBill, stampChange } from './helpers.js';

describe('delivery isolation on one origin', () => {
  let t: TestApp;
  const running: Background[] = [];
  let server: http.Server;
  let origin: string;
  const hanging = new Map<string, http.ServerResponse[]>([
    ['/hang-a', []],
    ['/hang-b', []],
  ]);
  const healthy: string[] = [];

  beforeAll(async () => {
    // the receivers' hang outlasts the test: only another subscription's progress can end it
    t = await testApp({ config: { webhookAllowedHosts: ['127.0.0.1'], webhookTimeoutMs: 120_000 } });
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const held = hanging.get(req.url ?? '');
        if (held) return void held.push(res);
        healthy.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const list of hanging.values()) for (const res of list) res.destroy();
    server?.closeAllConnections();
    for (const b of running.splice(0)) await b.stop();
    await new Promise((r) => server?.close(r));
    await t?.close();
  });

  const subscribe = async (path: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': t.key },
      payload: { webhook_url: `${origin}${path}`, events: ['status_change'] },
    });
    expect(res.statusCode).toBe(201);
  };
  let nextBill = 10_980_000;
  // one bill per change: deliveries of one subscription and bill go one at a time, distinct
  // bills let each subscription use all its slots
  const changes = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const bill = nextBill++;
      await insertBill(t.db.pool, { bill_id: bill });
      await stampChange(t.db.pool, { bill_id: bill, reason: 'StatusChange', old_status: 1, new_status: 2 });
    }
  };

  it('a healthy subscription gets every event while two hanging ones on its host hold all their slots', async () => {
    const ctx = t.background();
    await subscribe('/hang-a');
    await subscribe('/hang-b');
    await changes(PER_SUBSCRIPTION + 2);
    running.push(await startDispatcher(ctx, { pollMs: 100 }));
    running.push(await startDeliveryWorker(ctx, { pollMs: 200 }));
    const held = () => [...hanging.values()].reduce((n, l) => n + l.length, 0);
    // each hanging receiver holds as many requests as a subscription may have in flight
    await waitFor('both hanging receivers to hold their requests', () => held() === 2 * PER_SUBSCRIPTION, 30_000);

    await subscribe('/ok');
    await changes(20);
    await waitFor('the healthy subscription to get all 20 events', () => healthy.length >= 20, 60_000);
    expect(healthy).toHaveLength(20);
    // the hanging requests are all still open: nothing timed out to make room
    expect(held()).toBe(2 * PER_SUBSCRIPTION);
    expect([...hanging.values()].flat().every((res) => !res.writableEnded && !res.destroyed)).toBe(true);
  }, 120_000);
});
