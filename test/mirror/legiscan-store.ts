// The databases of a LegiScan Push consumer (an edge we do not own): LegiScan's schema (the DDL
// beside this file) in a fresh PostgreSQL database and, when MYSQL_URL is set, a fresh MariaDB
// database in strict mode. Each push is written in one transaction; an error rolls it back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

export type Row = Record<string, unknown>;

export interface Tx {
  /** insert, or update the given columns (but `keep`) of the rows with the same key (one statement) */
  upsert(table: string, keys: string[], row: Row | Row[], keep?: string[]): Promise<void>;
  del(table: string, where: Row): Promise<void>;
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

export async function postgresStore(): Promise<Store> {
  const db: TestDatabase = await freshDatabase(1); // our schema is there too; LegiScan's ls_ tables do not clash with it
  // a pool: the consumer writes concurrent pushes in concurrent transactions, as a web server would
  const pool = new pg.Pool({ connectionString: db.url, types, max: 8 });
  const setup = await pool.connect();
  for (const s of ddl('legiscan-schema.pgsql.sql')) await setup.query(s);
  setup.release();
  const txOn = (client: pg.PoolClient | pg.Pool): Tx => ({
    async upsert(table, keys, row, keep = []) {
      // one row per key in a statement (ON CONFLICT cannot touch a row twice): the last one wins
      const rows = [
        ...new Map(
          (Array.isArray(row) ? row : [row]).map((r) => [keys.map((k) => String(r[k])).join('|'), r]),
        ).values(),
      ];
      if (rows.length === 0) return;
      const cols = Object.keys(rows[0]!);
      const set = cols.filter((c) => !keys.includes(c) && !keep.includes(c)).map((c) => `${c} = EXCLUDED.${c}`);
      const values = rows.map((_, j) => `(${cols.map((__, i) => `$${j * cols.length + i + 1}`).join(', ')})`);
      await client.query(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}
        ON CONFLICT (${keys.join(', ')}) DO ${set.length ? `UPDATE SET ${set.join(', ')}` : 'NOTHING'}`,
        rows.flatMap((r) => cols.map((c) => r[c])),
      );
    },
    async del(table, where) {
      await client.query(
        `DELETE FROM ${table} WHERE ${Object.keys(where)
          .map((c, i) => `${c} = $${i + 1}`)
          .join(' AND ')}`,
        Object.values(where),
      );
    },
    async select(sql, params = []) {
      return (await client.query(pgPlaceholders(sql), params)).rows;
    },
  });
  return {
    name: 'postgresql',
    zeroDate: null,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        try {
          const r = await fn(txOn(client));
          await client.query('COMMIT');
          return r;
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      } finally {
        client.release();
      }
    },
    query: (sql, params) => txOn(pool).select(sql, params),
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
  const txOn = (conn: mysql.PoolConnection | mysql.Pool): Tx => ({
    async upsert(table, keys, row, keep = []) {
      const rows = Array.isArray(row) ? row : [row];
      if (rows.length === 0) return;
      const cols = Object.keys(rows[0]!);
      const set = cols.filter((c) => !keys.includes(c) && !keep.includes(c)).map((c) => `${c} = VALUES(${c})`);
      const values = rows.map(() => `(${cols.map(() => '?').join(', ')})`);
      await conn.query(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}
        ON DUPLICATE KEY UPDATE ${set.length ? set.join(', ') : `${keys[0]} = ${keys[0]}`}`,
        rows.flatMap((r) => cols.map((c) => r[c])),
      );
    },
    async del(table, where) {
      await conn.execute(
        `DELETE FROM ${table} WHERE ${Object.keys(where)
          .map((c) => `${c} = ?`)
          .join(' AND ')}`,
        Object.values(where) as never[],
      );
    },
    async select(sql, params = []) {
      const [rows] = await conn.query(sql, params);
      return rows as Row[];
    },
  });
  return {
    name: 'mariadb',
    zeroDate: '0000-00-00',
    async transaction(fn) {
      const conn = await pool.getConnection();
      try {
        await strict(conn);
        await conn.beginTransaction();
        try {
          const r = await fn(txOn(conn));
          await conn.commit();
          return r;
        } catch (err) {
          await conn.rollback();
          throw err;
        }
      } finally {
        conn.release();
      }
    },
    query: (sql, params) => txOn(pool).select(sql, params),
    async close() {
      await pool.query(`DROP DATABASE ${name}`);
      await pool.end();
    },
  };
}
