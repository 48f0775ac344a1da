// Writing one scope's CSV tables: each table's rows (no header) go through the encoder below and
// raw deflate into a stored file of their own. The deflate data ends in a sync flush instead of a
// final block, so the files of several scopes, concatenated, are one valid deflate stream; the zip
// downloads are laid out from them (zip.ts), which is what lets `all` hold every jurisdiction
// without compressing anything again when one jurisdiction changes.
import { constants, createDeflateRaw, crc32 } from 'node:zlib';
import type { Pool } from '../db/pool.js';
import { chunkSink, createFile, finishFile, HEAD_BLOCK, openSink, type BlockRange, type OpenSink } from './store.js';
import { tableRows, type Table, type TableRows } from './tables.js';
import type { BulkRecord } from './record-types.js';

/*
 * RFC 4180 with LF line ends, written here rather than with a CSV library: the values are the
 * API's JSON (strings, numbers, booleans, null, nested lists and objects), so the whole format is a
 * few lines, and a general writer's per-field option handling cost about a third of a build's CPU.
 * Strings are always quoted, so an empty string ("") and null (an empty cell) stay apart, as
 * PostgreSQL's `COPY … CSV` reads them; booleans are true/false; a nested value is its JSON, quoted
 * when it holds a quote, comma or line feed. test/bulk/csv.test.ts holds the output byte for byte
 * to csv-stringify's with the options this replaced (quoted_string, those casts).
 */
const QUOTES = /"/g;
const NEEDS_QUOTES = /[",\n]/;

function cell(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v.includes('"') ? `"${v.replace(QUOTES, '""')}"` : `"${v}"`;
    case 'number':
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return '';
      const json = v instanceof Date ? String(v.getTime()) : JSON.stringify(v);
      return NEEDS_QUOTES.test(json) ? `"${json.replace(QUOTES, '""')}"` : json;
    }
    default:
      return ''; // undefined (a field the row lacks)
  }
}

/** CSV lines of rows, each ending in LF. */
export function csvLines(rows: readonly unknown[][]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) out += i === 0 ? cell(row[i]) : `,${cell(row[i])}`;
    out += '\n';
  }
  return out;
}

/** The header line of a table. */
export const headerLine = (t: Table): Buffer => Buffer.from(csvLines([t.columns]));

interface Open {
  table: Table;
  fileId: number;
  sink: OpenSink;
  rows: number;
  rawSize: number;
  crc: number;
}

export class CsvTablesWriter {
  private constructor(
    private readonly db: Pool,
    private readonly file: { scope: string; signature: string; block: BlockRange },
    private readonly tables: Map<string, Table>,
    private readonly open: Map<string, Open>,
  ) {}

  /**
   * Creates a file per table (status building) for the scope's block. `eager`: every table now,
   * empty or not (the head block, whose set of tables tells a scope is complete); otherwise a
   * table's file is created with its first rows (a block of bills has none of the head's tables).
   */
  static async create(
    db: Pool,
    scope: string,
    signature: string,
    tables: Table[],
    block: BlockRange = HEAD_BLOCK,
    eager = true,
  ): Promise<CsvTablesWriter> {
    const w = new CsvTablesWriter(db, { scope, signature, block }, new Map(tables.map((t) => [t.name, t])), new Map());
    if (eager) for (const t of tables) await w.opened(t.name);
    return w;
  }

  private async opened(name: string): Promise<Open> {
    const have = this.open.get(name);
    if (have) return have;
    const table = this.tables.get(name);
    if (!table) throw new Error(`bulk: no CSV table ${name} in this scope`);
    const { scope, signature, block } = this.file;
    const fileId = await createFile(this.db, scope, signature, 'csv', table.name, block);
    const deflate = createDeflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
    const t: Open = { table, fileId, sink: openSink(deflate, chunkSink(this.db, fileId)), rows: 0, rawSize: 0, crc: 0 };
    this.open.set(name, t);
    return t;
  }

  /** Adds the records' rows to their tables; resolves once every table can take more. */
  async write(records: BulkRecord[]): Promise<void> {
    const rows: TableRows = tableRows(records);
    const waits: Array<Promise<void>> = [];
    for (const [name, entries] of rows) {
      if (entries.length === 0) continue;
      const t = await this.opened(name);
      let text = '';
      for (const e of entries) {
        if (Array.isArray(e)) {
          text += csvLines([e]);
          t.rows++;
        } else {
          text += e.csv;
          t.rows += e.rows;
        }
      }
      const bytes = Buffer.from(text);
      t.rawSize += bytes.length;
      t.crc = crc32(bytes, t.crc);
      waits.push(t.sink.write(bytes));
    }
    await Promise.all(waits);
  }

  /** Ends every table and records its sizes and CRC; returns the file ids. */
  async finish(): Promise<number[]> {
    const all = [...this.open.values()];
    await Promise.all(
      all.map(async (t) => {
        const size = await t.sink.end();
        await finishFile(this.db, t.fileId, size, { rows: t.rows }, { rawSize: t.rawSize, crc32: t.crc });
      }),
    );
    return all.map((t) => t.fileId);
  }

  /** Stops every table's stream (an aborted or failed build). */
  destroy(err: Error): void {
    for (const t of this.open.values()) t.sink.destroy(err);
  }
}
