// The receiver's DDL is LegiScan's published schema: every column of every table a push lands in,
// with the published type, length and nullability, in both variants (legiscan-published.ts), so a
// value the mirror sends that would not fit a stock receiver does not fit this one either; and a
// push's writes, queued and sent together (legiscan-store.ts), still fail on such a value and
// leave nothing of the push behind.
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

const person = (id: number, over: Record<string, unknown> = {}) => ({
  people_id: id,
  state_id: 2,
  role_id: 1,
  party_id: 1,
  name: 'Ann Example',
  first_name: 'Ann',
  middle_name: '',
  last_name: 'Example',
  suffix: '',
  nickname: '',
  district: 'HD-001',
  person_hash: 'abcd1234',
  ...over,
});

describe('receiver stores: a push is one transaction', () => {
  for (const variant of ['postgresql', 'mariadb'] as const) {
    it.skipIf(variant === 'mariadb' && !MYSQL)(
      `${variant}: a value that does not fit rejects the push and nothing of it is stored`,
      async () => {
        const s = stores.find((x) => x.name === variant)!;
        const held = async (ids: number[]) =>
          (await s.query(`SELECT people_id FROM ls_people WHERE people_id IN (${ids.join(', ')}) ORDER BY 1`)).map(
            (r) => Number(r.people_id),
          );
        // too long for varchar(128), and too large for the smallint key
        for (const [i, bad] of [{ name: 'x'.repeat(129) }, { people_id: 70_000 }].entries()) {
          const ok = 100 + i * 10;
          await expect(
            s.transaction(async (tx) => {
              tx.upsert('ls_people', ['people_id'], person(ok));
              tx.upsert('ls_people', ['people_id'], person(ok + 1, bad));
              return tx.select('SELECT count(*) AS n FROM ls_people');
            }),
          ).rejects.toThrow();
          expect(await held([ok, ok + 1])).toEqual([]);
        }
        // the same writes with values that fit are stored, and a read in the push sees them
        const n = await s.transaction(async (tx) => {
          tx.upsert('ls_people', ['people_id'], person(200));
          tx.upsert('ls_people', ['people_id'], [person(201), person(202, { name: "O'Brien \\ Sons" })]);
          tx.del('ls_people', { people_id: 201 });
          return (await tx.select('SELECT count(*) AS n FROM ls_people WHERE people_id >= ?', [200]))[0]!.n;
        });
        expect(Number(n)).toBe(2);
        expect(await held([200, 201, 202])).toEqual([200, 202]);
        expect((await s.query('SELECT name FROM ls_people WHERE people_id = ?', [202]))[0]!.name).toBe(
          "O'Brien \\ Sons",
        );
      },
    );
  }
});
