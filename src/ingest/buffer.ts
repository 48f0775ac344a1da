// Child rows of many records written together: a bill's sponsors, history, parts and topics, and
// a roll call's member votes are queued here and go to the database as one multi-row
// INSERT … SELECT FROM unnest(…) per table when the batch commits, instead of a statement per
// record. The parent rows (and the deletes of replaced children) are written immediately, so
// foreign keys hold. A record whose key is already queued (the same bill twice in one batch)
// flushes the queue first, so the second write sees the first.
import type { Queryable } from '../db/pool.js';

export interface TableSpec {
  /** INSERT … SELECT * FROM unnest($1::t1[], …) with ON CONFLICT; `$COLS` is replaced by the unnest call */
  sql: string;
  types: string[];
  /** index of the column whose last value wins when one statement would touch a row twice */
  dedupe?: number;
}

export class RowBuffer {
  private readonly rows = new Map<TableSpec, unknown[][]>();
  private readonly keys = new Set<string>();

  /** True when the key is already queued: the caller flushes before writing that record again. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  claim(key: string): void {
    this.keys.add(key);
  }

  add(spec: TableSpec, rows: unknown[][]): void {
    if (!rows.length) return;
    let list = this.rows.get(spec);
    if (!list) this.rows.set(spec, (list = []));
    for (const r of rows) list.push(r);
  }

  clear(): void {
    this.rows.clear();
    this.keys.clear();
  }

  async flush(db: Queryable): Promise<void> {
    const work = [...this.rows.entries()];
    this.clear();
    for (const [spec, list] of work) {
      const rows = spec.dedupe === undefined ? list : [...new Map(list.map((r) => [r[spec.dedupe!], r])).values()];
      const cols = spec.types.map((_, i) => rows.map((r) => r[i]));
      const unnest = `unnest(${spec.types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      await db.query(spec.sql.replace('$COLS', unnest), cols);
    }
  }
}
