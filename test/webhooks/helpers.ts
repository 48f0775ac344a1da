// Shared pieces of the webhook tests: real local receivers, bills and stamped changes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Queryable } from '../../src/db/pool.js';
import { REASONS, type ReasonName } from '../../src/changes/record.js';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Responder = (
  req: Received,
  n: number,
) =>
  | { status: number; headers?: Record<string, string>; body?: string; hang?: boolean }
  | Promise<{ status: number; headers?: Record<string, string>; body?: string; hang?: boolean }>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: Responder;
  close(): Promise<void>;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const r: Receiver = {
    url: '',
    port: 0,
    received,
    respond,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async waitFor(n, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`receiver got ${received.length} of ${n} deliveries`);
        await new Promise((res) => setTimeout(res, 25));
      }
      return received;
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const rec: Received = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(rec);
      const out = await r.respond(rec, received.length);
      if (out.hang) {
        hanging.add(res);
        return;
      }
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(out.body ?? '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}

/** Verifies a delivery exactly as a subscriber would, with the standardwebhooks library. */
export function verify(secret: string, rec: Received): unknown {
  return new Webhook(secret).verify(rec.body, rec.headers);
}

let nextSession = 10_900_000;

export async function insertBill(
  db: Queryable,
  bill: {
    bill_id: number;
    state_id?: number;
    bill_number?: string;
    status_id?: number;
    subjects?: string[];
    title?: string;
  },
) {
  const state = bill.state_id ?? 43; // TX
  const session = nextSession++;
  await db.query(
    `INSERT INTO sessions (session_id, state_id, year_start, year_end, session_name) VALUES ($1, $2, 2026, 2026, 'Test session')`,
    [session, state],
  );
  const body = (
    await db.query<{ body_id: number }>('SELECT body_id FROM bodies WHERE state_id = $1 ORDER BY body_id LIMIT 1', [
      state,
    ])
  ).rows[0].body_id;
  await db.query(
    `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, status_id, status_date, title)
     VALUES ($1, $2, $3, $4, $4, $5, $5, $6, '2026-11-01', $7)`,
    [
      bill.bill_id,
      state,
      session,
      bill.bill_number ?? `HB${bill.bill_id % 10000}`,
      body,
      bill.status_id ?? 1,
      bill.title ?? `Test bill ${bill.bill_id}`,
    ],
  );
  for (const [i, name] of (bill.subjects ?? []).entries()) {
    const id = bill.bill_id * 10 + i;
    await db.query(
      'INSERT INTO subjects (subject_id, state_id, subject_name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [id, state, name],
    );
    await db.query('INSERT INTO bill_subjects (bill_id, subject_id) VALUES ($1, $2)', [bill.bill_id, id]);
  }
}

/** Inserts a change already stamped (as the relay would), so the dispatcher can pick it up. */
export async function stampChange(
  db: Queryable,
  c: {
    bill_id: number;
    state_id?: number;
    reason: ReasonName;
    old_status?: number;
    new_status?: number;
    detail?: Record<string, unknown>;
  },
): Promise<number> {
  const { rows } = await db.query<{ change_id: number }>(
    `INSERT INTO changes (bill_id, state_id, reason_id, old_status, new_status, detail, seq, changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, (SELECT coalesce(max(seq), 0) + 1 FROM changes), clock_timestamp()) RETURNING change_id`,
    [
      c.bill_id,
      c.state_id ?? 43,
      REASONS[c.reason],
      c.old_status ?? null,
      c.new_status ?? null,
      JSON.stringify(c.detail ?? {}),
    ],
  );
  return rows[0].change_id;
}

export { until } from '../helpers/wait.js';
