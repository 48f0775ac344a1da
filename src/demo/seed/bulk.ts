// Bulk-load mode for the tables the seed fills: their secondary indexes (btree, GIN full-text and
// trigram) and foreign keys are dropped before the COPY and recreated after it. Building an index
// once over loaded rows is several times cheaper than maintaining it row by row, and one
// validating join per foreign key replaces a trigger call per inserted row.
//
// The definitions are read from the catalog (pg_indexes.indexdef, pg_get_constraintdef) just
// before they are dropped, so what is recreated is exactly what the migrations built. Everything
// happens inside the seed's single transaction: if the seed fails or the process dies, the
// rollback brings every index and constraint back untouched.
import type { PoolClient } from '../../db/pool.js';

export interface Deferred {
  indexes: { name: string; def: string }[];
  foreignKeys: { table: string; name: string; def: string }[];
}

const quote = (ident: string) => '"' + ident.replace(/"/g, '""') + '"';

/** Drops secondary indexes and foreign keys of `tables` (primary keys and unique constraints stay). */
export async function deferIndexes(c: PoolClient, tables: readonly string[]): Promise<Deferred> {
  const { rows: indexes } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def
       FROM pg_indexes i
       JOIN pg_class ic ON ic.relname = i.indexname AND ic.relnamespace = i.schemaname::regnamespace
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = ic.oid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY i.tablename, i.indexname`,
    [tables],
  );
  const { rows: foreignKeys } = await c.query<{ table: string; name: string; def: string }>(
    `SELECT r.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid
      WHERE k.contype = 'f' AND r.relnamespace = current_schema()::regnamespace AND r.relname = ANY($1)
      ORDER BY r.relname, k.conname`,
    [tables],
  );
  for (const fk of foreignKeys) await c.query(`ALTER TABLE ${quote(fk.table)} DROP CONSTRAINT ${quote(fk.name)}`);
  if (indexes.length) await c.query(`DROP INDEX ${indexes.map((i) => quote(i.name)).join(', ')}`);
  return { indexes, foreignKeys };
}

/** Recreates what deferIndexes dropped, from the definitions it read. */
export async function restoreIndexes(
  c: PoolClient,
  d: Deferred,
  log: (msg: string) => void = () => undefined,
): Promise<void> {
  for (const i of d.indexes) await c.query(i.def);
  log(`${d.indexes.length} indexes rebuilt`);
  // Validates every existing row in one join per constraint.
  for (const fk of d.foreignKeys)
    await c.query(`ALTER TABLE ${quote(fk.table)} ADD CONSTRAINT ${quote(fk.name)} ${fk.def}`);
  log(`${d.foreignKeys.length} foreign keys restored`);
}
