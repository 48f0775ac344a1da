// The databases of a LegiScan Push consumer (an edge we do not own): LegiScan's schema (the DDL
// beside this file) in a fresh PostgreSQL database and, when MYSQL_URL is set, a fresh MariaDB
// database in strict mode. Each push is written in one transaction; an error rolls it back.
//
// A transaction's writes are queued and sent together, in order, as one multi-statement query
// with its next read or its commit: a bill push is some twenty statements, and one round trip each
// made the consumer, not the mirror, what bounded the real-data test (about 35 ms a bill here).
// Every value still reaches the server as a quoted literal of unknown type, as an untyped
// parameter does, so a value that does not fit its column fails as it did one statement at a time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

export type Row = Record<string, unknown>;

export interface Tx {
  /** queues an insert, or update of the given columns (but `keep`) of the rows with the same key (one statement) */
  upsert(table: string, keys: string[], row: Row | Row[], keep?: string[]): void;
  /** queues a delete */
  del(table: string, where: Row): void;
  /** sends the queued writes, then reads (an error in a write rejects here or at the commit) */
  select(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Store {
  name: 'postgresql' | 'mariadb';
  /** LegiScan's PHP client turns "0000-00-00" into NULL for PostgreSQL, which has no zero date */
  zeroDate: string | null;
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** reads with ? placeholders; dates as YYYY-MM-DD strings, times as HH:MM:SS */
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

const ddl = (file: string) =>
  readFileSync(path.join(import.meta.dirname, file), 'utf8')
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
const pgPlaceholders = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** pg returns DATE as a string, like the MariaDB store (no time zone shifts in comparisons). */
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 1082 ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text'),
};

/** One row per key (ON CONFLICT cannot touch a row twice in a statement): the last one wins. */
const lastPerKey = (keys: string[], row: Row | Row[]) => [
  ...new Map((Array.isArray(row) ? row : [row]).map((r) => [keys.map((k) => String(r[k])).join('|'), r])).values(),
];

/**
 * A PostgreSQL literal of unknown type, as an untyped parameter is sent (the column's input
 * function judges it: '12.5' into an integer is an error, never a rounded 13); bytes in bytea's
 * hex form.
 */
const pgLiteral = (v: unknown): string =>
  v === null || v === undefined
    ? 'NULL'
    : Buffer.isBuffer(v)
      ? `'\\x${v.toString('hex')}'`
      : pg.escapeLiteral(typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Statements of one transaction not sent yet, sent together (one round trip) when flushed. */
class Queued {
  private sql: string[];
  constructor(
    begin: string,
    private readonly send: (sql: string) => Promise<unknown>,
  ) {
    this.sql = [begin];
  }
  add(statement: string): void {
    this.sql.push(statement);
  }
  async flush(): Promise<void> {
    if (this.sql.length === 0) return;
    const all = this.sql.join(';\n');
    this.sql = [];
    await this.send(all);
  }
}

export async function postgresStore(): Promise<Store> {
  const db: TestDatabase = await freshDatabase(1); // our schema is there too; LegiScan's ls_ tables do not clash with it
  // a pool: the consumer writes concurrent pushes in concurrent transactions, as a web server would
  const pool = new pg.Pool({ connectionString: db.url, types, max: 8 });
  const setup = await pool.connect();
  for (const s of ddl('legiscan-schema.pgsql.sql')) await setup.query(s);
  setup.release();
  const txOn = (client: pg.PoolClient, queued: Queued): Tx => ({
    upsert(table, keys, row, keep = []) {
      const rows = lastPerKey(keys, row);
      if (rows.length === 0) return;
      const cols = Object.keys(rows[0]!);
      const set = cols.filter((c) => !keys.includes(c) && !keep.includes(c)).map((c) => `${c} = EXCLUDED.${c}`);
      const values = rows.map((r) => `(${cols.map((c) => pgLiteral(r[c])).join(', ')})`);
      queued.add(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}
        ON CONFLICT (${keys.join(', ')}) DO ${set.length ? `UPDATE SET ${set.join(', ')}` : 'NOTHING'}`,
      );
    },
    del(table, where) {
      queued.add(
        `DELETE FROM ${table} WHERE ${Object.entries(where)
          .map(([c, v]) => `${c} = ${pgLiteral(v)}`)
          .join(' AND ')}`,
      );
    },
    async select(sql, params = []) {
      await queued.flush();
      return (await client.query(pgPlaceholders(sql), params)).rows;
    },
  });
  return {
    name: 'postgresql',
    zeroDate: null,
    async transaction(fn) {
      const client = await pool.connect();
      // BEGIN goes with the first writes
      const queued = new Queued('BEGIN', (sql) => client.query(sql));
      try {
        try {
          const r = await fn(txOn(client, queued));
          queued.add('COMMIT');
          await queued.flush();
          return r;
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      } finally {
        client.release();
      }
    },
    query: async (sql, params = []) => (await pool.query(pgPlaceholders(sql), params)).rows,
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

export const mariadbUrl = () => process.env.MYSQL_URL ?? process.env.MARIADB_URL;

export async function mariadbStore(url: string): Promise<Store> {
  const name = `lds_legiscan_${process.pid}_${Date.now().toString(36)}`;
  const admin = await mysql.createConnection({ uri: url });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const pool = mysql.createPool({
    uri: u.toString(),
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectionLimit: 8,
    // a transaction's queued writes go in one query (see the top of this file)
    multipleStatements: true,
  });
  // strict: a value that does not fit its column is an error, never a clamped or truncated value
  const strictOn = new WeakSet<object>();
  const strict = async (c: mysql.PoolConnection) => {
    if (strictOn.has(c.connection)) return;
    await c.query(`SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'`);
    strictOn.add(c.connection);
  };
  const setup = await pool.getConnection();
  await strict(setup);
  for (const s of ddl('legiscan-schema.mysql.sql')) await setup.query(s);
  setup.release();
  const txOn = (conn: mysql.PoolConnection, queued: Queued): Tx => ({
    upsert(table, keys, row, keep = []) {
      const rows = Array.isArray(row) ? row : [row];
      if (rows.length === 0) return;
      const cols = Object.keys(rows[0]!);
      const set = cols.filter((c) => !keys.includes(c) && !keep.includes(c)).map((c) => `${c} = VALUES(${c})`);
      const values = rows.map(() => `(${cols.map(() => '?').join(', ')})`);
      queued.add(
        mysql.format(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}
        ON DUPLICATE KEY UPDATE ${set.length ? set.join(', ') : `${keys[0]} = ${keys[0]}`}`,
          rows.flatMap((r) => cols.map((c) => r[c])) as mysql.SqlValue[],
        ),
      );
    },
    del(table, where) {
      queued.add(
        mysql.format(
          `DELETE FROM ${table} WHERE ${Object.keys(where)
            .map((c) => `${c} = ?`)
            .join(' AND ')}`,
          Object.values(where) as mysql.SqlValue[],
        ),
      );
    },
    async select(sql, params = []) {
      await queued.flush();
      const [rows] = await conn.query(sql, params);
      return rows as Row[];
    },
  });
  return {
    name: 'mariadb',
    zeroDate: '0000-00-00',
    async transaction(fn) {
      const conn = await pool.getConnection();
      const queued = new Queued('START TRANSACTION', (sql) => conn.query(sql));
      try {
        await strict(conn);
        try {
          const r = await fn(txOn(conn, queued));
          queued.add('COMMIT');
          await queued.flush();
          return r;
        } catch (err) {
          await conn.rollback();
          throw err;
        }
      } finally {
        conn.release();
      }
    },
    query: async (sql, params = []) => (await pool.query(sql, params))[0] as Row[],
    async close() {
      await pool.query(`DROP DATABASE ${name}`);
      await pool.end();
    },
  };
}
