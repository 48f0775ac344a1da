// NATS restarted with an empty JetStream store, against a nats-server this test starts, kills and
// wipes on its own port and store directory (never the shared one). The process runs every role
// (startServer). While the server runs without JetStream the relay cannot publish: /v1/ready
// answers 503 naming the relay and /metrics says lds_relay_publish_failing 1. Once NATS is back
// with JetStream but an empty store, the bus re-creates its stream by itself and the relay
// publishes again: a JetStream consumer reads the changes written while it could not and after.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASONS } from '../../src/changes/record.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';
import { insertBill } from '../webhooks/helpers.js';

const NATS_SERVER = '/usr/sbin/nats-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A nats-server of this test: its own port and store directory. */
class OwnNats {
  private proc?: ChildProcess;
  output = '';
  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}
  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }
  async start(jetStream: boolean) {
    const args = ['-a', '127.0.0.1', '-p', String(this.port), ...(jetStream ? ['-js', '-sd', this.storeDir] : [])];
    const p = spawn(NATS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc = p;
    this.output = '';
    p.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    await waitFor(
      'nats-server to be ready',
      () => this.output.includes('Server is ready') || p.exitCode !== null,
      30_000,
    );
    if (p.exitCode !== null) throw new Error(`nats-server exited: ${this.output}`);
  }
  async kill() {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
  wipe() {
    fs.rmSync(this.storeDir, { recursive: true, force: true });
    fs.mkdirSync(this.storeDir, { recursive: true });
  }
}

describe('NATS restarted with an empty JetStream store', () => {
  let db: TestDatabase;
  let nats: OwnNats;
  let server: RunningServer | undefined;
  let reader: NatsConnection | undefined;
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lds-nats-store-'));
  let nextBill = 10_970_000;

  beforeAll(async () => {
    db = await freshDatabase();
    nats = new OwnNats(await freePort(), storeDir);
    await nats.start(true);
    const config = loadConfig({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      NATS_NAMESPACE: 'wipe',
      PORT: '0',
      LOG_LEVEL: 'silent',
      RELAY_POLL_MS: '200',
    });
    server = await startServer(config, createLogger('silent', { pretty: false }));
  }, 60_000);

  afterAll(async () => {
    await reader?.close().catch(() => undefined);
    await server?.stop();
    await nats?.kill();
    await db?.drop();
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  /** Writes a change as a writer does (row + notification) and returns its id. */
  async function write(): Promise<number> {
    const bill = nextBill++;
    await insertBill(db.pool, { bill_id: bill });
    const { rows } = await db.pool.query<{ change_id: number }>(
      `INSERT INTO changes (bill_id, state_id, reason_id, detail) VALUES ($1, 43, $2, '{}') RETURNING change_id`,
      [bill, REASONS.NewBill],
    );
    await db.pool.query(`SELECT pg_notify('lds_changes', '')`);
    return rows[0].change_id;
  }
  const published = async (changeId: number) => {
    const { rows } = await db.pool.query<{ ok: boolean }>(
      `SELECT c.seq IS NOT NULL AND r.published_seq >= c.seq AS ok FROM changes c, relay_state r WHERE c.change_id = $1 AND r.id = 1`,
      [changeId],
    );
    return rows[0]?.ok === true;
  };
  const ready = async () => {
    const res = await fetch(`${server!.url}/v1/ready`);
    return {
      status: res.status,
      body: (await res.json()) as {
        checks?: { relay: boolean | null };
        error?: { message: string; checks: { relay: boolean | null } };
      },
    };
  };
  const metric = async (name: string) => {
    const text = await (await fetch(`${server!.url}/metrics`)).text();
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };

  it('says the relay cannot publish, then re-creates the stream and publishes everything', async () => {
    const first = await write();
    await waitFor('the first change to be published', () => published(first), 30_000);
    expect((await ready()).body.checks?.relay).toBe(true);

    // NATS comes back without JetStream: every publish fails
    await nats.kill();
    nats.wipe();
    await nats.start(false);
    const during = await write();
    await waitFor(
      'readiness to say the relay cannot publish',
      async () => (await ready()).body.error?.checks.relay === false,
      60_000,
    );
    const notReady = (await ready()).body.error!;
    expect(notReady.message).toMatch(/relay cannot publish/);
    expect(await metric('lds_relay_publish_failing')).toBe(1);
    expect(await published(during)).toBe(false);

    // NATS again, with JetStream and an empty store: nobody restarts our process
    await nats.kill();
    nats.wipe();
    await nats.start(true);
    const after = await write();
    await waitFor(
      'the changes written since the wipe to be published',
      async () => (await published(during)) && (await published(after)),
      60_000,
    );
    await waitFor('readiness to recover', async () => (await ready()).status === 200, 30_000);
    expect(await metric('lds_relay_publish_failing')).toBe(0);
    expect(await metric('lds_relay_unpublished_changes')).toBe(0);

    // a JetStream consumer of the re-created stream reads both
    reader = await connect({ servers: nats.url });
    const consumer = await jetstream(reader).consumers.get('WIPE_CHANGES');
    const seen: number[] = [];
    await waitFor(
      'the consumer to read both changes',
      async () => {
        const batch = await consumer.fetch({ max_messages: 10, expires: 1000 });
        for await (const m of batch) seen.push(m.json<{ change_id: number }>().change_id);
        return seen.includes(during) && seen.includes(after);
      },
      30_000,
    );
    expect(seen).not.toContain(first); // it was in the store that was wiped
  }, 180_000);
});
