// The receiver's DDL is LegiScan's published schema: every column of every table a push lands in,
// with the published type, length and nullability, in both variants (legiscan-published.ts), so a
// value the mirror sends that would not fit a stock receiver does not fit this one either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED } from './legiscan-published.js';
import { mariadbStore, mariadbUrl, postgresStore, type Store } from './legiscan-store.js';

const MYSQL = mariadbUrl();
const stores: Store[] = [];
beforeAll(async () => {
  stores.push(await postgresStore());
  if (MYSQL) stores.push(await mariadbStore(MYSQL));
}, 120_000);
afterAll(async () => {
  for (const s of stores) await s.close();
});

const SQL = {
  postgresql: `SELECT c.relname AS t, a.attname AS c, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
               FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relname LIKE 'ls\\_%' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum`,
  mariadb: `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS type, IS_NULLABLE = 'YES' AS nullable FROM information_schema.COLUMNS
            WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'ls\\_%' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
};

describe("receiver DDL against LegiScan's published schema", () => {
  for (const variant of ['postgresql', 'mariadb'] as const) {
    it.skipIf(variant === 'mariadb' && !MYSQL)(
      `${variant}: every column has the published type and nullability`,
      async () => {
        const s = stores.find((x) => x.name === variant)!;
        const rows = await s.query(SQL[variant]);
        const got: Record<string, string[]> = {};
        for (const r of rows)
          (got[String(r.t)] ??= []).push(
            `${r.c} ${r.type}${Number(r.nullable) || r.nullable === true ? ' NULL' : ' NOT NULL'}`,
          );
        const want = Object.fromEntries(
          Object.entries(PUBLISHED).map(([t, cols]) => [
            t,
            cols.map(
              ([c, my, pg, nullable]) => `${c} ${variant === 'mariadb' ? my : pg}${nullable ? ' NULL' : ' NOT NULL'}`,
            ),
          ]),
        );
        expect(got).toEqual(want);
      },
    );
  }
});
