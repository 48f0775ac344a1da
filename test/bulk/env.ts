// A bulk test environment: a small demo corpus, the relay running, the app, and helpers to read a
// bulk file back as records.
import { buffer as readAll } from 'node:stream/consumers';
import { crc32, gunzipSync } from 'node:zlib';
import yauzl from 'yauzl';
import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { seed } from '../../src/demo/seed.js';
import { startRelay, type Relay } from '../../src/changes/relay.js';
import { readRange, type Piece } from '../../src/bulk/store.js';
import type { Pool } from '../../src/db/pool.js';
import { freshDatabase } from '../helpers/db.js';
import { testApp, testConfig, type TestApp } from '../helpers/app.js';

export const silent = pino({ level: 'silent' });

export interface BulkEnv extends TestApp {
  relay: Relay;
  get(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: Buffer }>;
}

export async function bulkEnv(bills = 300): Promise<BulkEnv> {
  const db = await freshDatabase(12);
  await seed(db.pool, { bills, seed: 7 });
  const cfg = testConfig({ relayPollMs: 100 });
  const t = await testApp({ db, config: { relayPollMs: 100 } });
  const relay = await startRelay({ config: cfg, db: db.pool, databaseUrl: db.url, bus: t.bus, log: silent });
  return {
    ...t,
    relay,
    async get(url: string, headers: Record<string, string> = {}) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key, ...headers } });
      const raw = res.rawPayload;
      const json =
        /json/.test(String(res.headers['content-type'])) && raw.length ? JSON.parse(raw.toString()) : undefined;
      return { status: res.statusCode, body: json, headers: res.headers, raw };
    },
    async close() {
      await relay.stop();
      await t.close();
      await db.drop();
    },
  };
}

export interface Parsed {
  /** records by type, in file order */
  byType: Record<string, Array<Record<string, any>>>;
  lines: number;
}

export function parseNdjsonGz(buf: Buffer): Parsed {
  const byType: Parsed['byType'] = {};
  const text = gunzipSync(buf).toString('utf8');
  let lines = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    lines++;
    const { type, data } = JSON.parse(line);
    (byType[type] ??= []).push(data);
  }
  return { byType, lines };
}

export async function readMembers(db: Pool, members: Piece[]): Promise<Buffer> {
  const size = members.reduce((n, m) => n + m.size, 0);
  const parts: Buffer[] = [];
  for await (const b of readRange(db, members, 0, size - 1)) parts.push(Buffer.from(b));
  return Buffer.concat(parts);
}

/** The files of a zip by name, read with yauzl; fails on a size or CRC-32 mismatch (yauzl checks sizes, not CRCs). */
export async function readZip(buf: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, validateEntrySizes: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const data = await readAll(await zip.openReadStreamPromise(entry));
    if (crc32(data) !== entry.crc32) throw new Error(`${entry.fileName}: CRC-32 ${crc32(data)} != ${entry.crc32}`);
    files.set(entry.fileName, data);
  }
  return files;
}

/**
 * A CSV table read with csv-parse: the header, and each row as an object whose cells are strings,
 * or null for an unquoted empty cell (a quoted "" is the empty string).
 */
export function parseCsv(data: Buffer): { header: string[]; rows: Array<Record<string, string | null>> } {
  const records = parse(data, {
    cast: (value, ctx) => (!ctx.quoting && value === '' ? null : value),
    relax_column_count: false,
  }) as Array<Array<string | null>>;
  const [header, ...rest] = records;
  return { header: header as string[], rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}
