// Child rows of many records written together: a bill's sponsors, history, parts and topics, and
// a roll call's member votes are queued here and go to the database as one multi-row
// INSERT … SELECT FROM unnest(…) per table when the batch commits, instead of a statement per
// record. The parent rows (and the deletes of replaced children) are written immediately, so
// foreign keys hold. A record whose key is already queued (the same bill twice in one batch)
// flushes the queue first, so the second write sees the first.
// Plain inserts of many rows (member votes, sponsors, history) go through COPY FROM STDIN
// instead: no parameter arrays to build and parse, the cheapest way into PostgreSQL.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Queryable } from '../../db/pool.js';

export interface TableSpec {
  /** INSERT … SELECT * FROM unnest($1::t1[], …) with ON CONFLICT; `$COLS` is replaced by the unnest call */
  sql: string;
  types: string[];
  /** index of the column whose last value wins when one statement would touch a row twice */
  dedupe?: number;
  /** `table (col, …)` for COPY: only for plain inserts (no ON CONFLICT, no expressions) */
  copy?: string;
}

/**
 * The spec with `copy` set to the `table (col, …)` its INSERT names, so COPY writes the same
 * columns in the same order (for plain inserts, or rows known not to conflict).
 */
export function withCopy(spec: TableSpec): TableSpec {
  const target = /^\s*INSERT INTO (\w+ \([^)]*\))/.exec(spec.sql)?.[1];
  if (!target) throw new Error(`no INSERT column list in: ${spec.sql.slice(0, 60)}`);
  return { ...spec, copy: target };
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'string' ? v : String(v);
  // Only these four characters are special in COPY text format.
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : s;
}

/** Whether COPY can run on this connection: it needs a client of its own (not the pool, not a wrapper). */
export function canCopy(db: Queryable): boolean {
  return 'release' in db;
}

async function copyText(db: Queryable, target: string, chunks: string[]): Promise<void> {
  const stream = (db as unknown as { query(q: unknown): NodeJS.WritableStream }).query(
    copyFrom(`COPY ${target} FROM STDIN`),
  );
  await pipeline(Readable.from(chunks), stream);
}

/** Rows into `target` (`table (col, …)`) by COPY; the caller checks canCopy first. */
export async function copyRows(db: Queryable, target: string, rows: unknown[][]): Promise<void> {
  const chunks: string[] = [];
  for (let i = 0; i < rows.length; i += 2000)
    chunks.push(
      rows
        .slice(i, i + 2000)
        .map((r) => r.map(cell).join('\t') + '\n')
        .join(''),
    );
  await copyText(db, target, chunks);
}

/** COPY text rows (`a\tb\n…`) back to cells, for the rare write that cannot COPY. */
function splitCopyText(text: string): unknown[][] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t').map((c) => (c === '\\N' ? null : c)));
}

export class RowBuffer {
  private readonly rows = new Map<TableSpec, unknown[][]>();
  /** rows already in COPY text form (numbers only: nothing to escape), per COPY table */
  private readonly texts = new Map<TableSpec, string[]>();
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

  /**
   * Rows already formatted as COPY text, one `\n`-terminated line each, for tables written only
   * by COPY. Member votes (hundreds of thousands of three-number rows) come this way: building a
   * string per roll call costs far less than an array per row and a cell per value.
   */
  addCopyText(spec: TableSpec, text: string): void {
    if (!text) return;
    let list = this.texts.get(spec);
    if (!list) this.texts.set(spec, (list = []));
    list.push(text);
  }

  clear(): void {
    this.texts.clear();
    this.rows.clear();
    this.keys.clear();
  }

  async flush(db: Queryable): Promise<void> {
    const texts = [...this.texts.entries()];
    for (const [spec, list] of texts) {
      if (canCopy(db)) continue;
      // No COPY on this connection: the rows go the multi-row way with the others.
      this.add(spec, list.flatMap(splitCopyText));
      this.texts.delete(spec);
    }
    const work = [...this.rows.entries()];
    const copied = [...this.texts.entries()];
    this.clear();
    for (const [spec, list] of copied) await copyText(db, spec.copy!, list);
    for (const [spec, list] of work) {
      const rows = spec.dedupe === undefined ? list : [...new Map(list.map((r) => [r[spec.dedupe!], r])).values()];
      if (spec.copy && canCopy(db)) {
        await copyRows(db, spec.copy, rows);
        continue;
      }
      const cols = spec.types.map((_, i) => rows.map((r) => r[i]));
      const unnest = `unnest(${spec.types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      await db.query(spec.sql.replace('$COLS', unnest), cols);
    }
  }
}
