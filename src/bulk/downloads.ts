// The downloads made of the current files: per scope and `all`, the NDJSON file (its blocks' gzip
// members concatenated, scope by scope) and the CSV zip (laid out from the tables' deflate files). Each download
// is a list of pieces with a size and an ETag; the bytes of a given set of stored files never
// change, so the ETag is a hash of their ids.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { headerLine } from './csv.js';
import { GLOBAL_SCOPE } from './scope.js';
import { HEAD_BLOCK, type Piece, type StoredFile } from './store.js';
import { TABLES, tableNamed, tablesOf, type Table } from './tables.js';
import { zipLayout, type ZipEntry } from './zip.js';

export const NDJSON_SUFFIX = '.ndjson.gz';
export const CSV_SUFFIX = '.csv.zip';
export const ALL = 'all';
/** Bumped when the zip layout changes, so ETags (and Range resumes) never mix two layouts. */
const ZIP_LAYOUT_VERSION = 1;

export interface Download {
  name: string;
  content_type: string;
  size: number;
  etag: string;
  pieces: Piece[];
}

export interface Listed {
  scope: string;
  ndjson: Download & { counts: Record<string, number>; generated_at: string; cursor: string };
  /** absent while a scope's CSV tables were never built (files from before CSV existed) */
  csv?: Download & { rows: Record<string, number> };
}

const etagOf = (prefix: string, files: StoredFile[]) =>
  `"${createHash('sha1')
    .update(prefix + files.map((m) => m.file_id).join(','))
    .digest('base64url')}"`;

const headers = new Map<string, { head: Buffer; headCrc: number }>(
  TABLES.map((t) => {
    const head = headerLine(t);
    return [t.name, { head, headCrc: crc32(head) }];
  }),
);

/** Zip layouts by ETag (a layout costs a CRC combination per stored file; the set changes once per build). */
const layouts = new Map<string, { pieces: Piece[]; size: number }>();
const LAYOUTS_KEPT = 256;

function csvDownload(scope: string, tables: Table[], files: StoredFile[]): Listed['csv'] {
  const etag = etagOf(`zip${ZIP_LAYOUT_VERSION}:`, files);
  let layout = layouts.get(etag);
  if (!layout) {
    const entries: ZipEntry[] = tables.map((t) => ({
      name: `${t.name}.csv`,
      ...headers.get(t.name)!,
      pieces: files
        .filter((f) => f.part === t.name)
        .map((f) => ({ file_id: f.file_id, size: f.size, raw_size: f.raw_size!, crc32: f.crc32! })),
    }));
    const mtime = new Date(Math.max(...files.map((f) => Date.parse(f.built_at))));
    layout = zipLayout(entries, mtime);
    if (layouts.size >= LAYOUTS_KEPT) layouts.delete(layouts.keys().next().value!);
    layouts.set(etag, layout);
  }
  const rows: Record<string, number> = {};
  for (const t of tables) rows[t.name] = 0;
  for (const f of files) rows[f.part] += f.counts.rows ?? 0;
  return { name: scope + CSV_SUFFIX, content_type: 'application/zip', etag, rows, ...layout };
}

/** Whether a scope's head block has every CSV table (files written before CSV existed have none). */
export function hasEveryTable(files: StoredFile[], scope: string): boolean {
  const have = new Set(
    files.filter((f) => f.scope === scope && f.format === 'csv' && f.bill_from === HEAD_BLOCK.from).map((f) => f.part),
  );
  return tablesOf(scope === GLOBAL_SCOPE).every((t) => have.has(t.name));
}

/** `all` first (every jurisdiction in code order, then the nationwide records), then each scope. */
export function listDownloads(files: StoredFile[]): Listed[] {
  const ndjson = files.filter((f) => f.format === 'ndjson');
  if (ndjson.length === 0) return [];
  const ordered = [
    ...ndjson.filter((f) => f.scope !== GLOBAL_SCOPE),
    ...ndjson.filter((f) => f.scope === GLOBAL_SCOPE),
  ];
  // a block's CSV tables, by scope and block
  const blockOf = (f: StoredFile) => `${f.scope}:${f.session_id}:${f.bill_from}`;
  const csvOf = new Map<string, StoredFile[]>();
  for (const f of files) if (f.format === 'csv') csvOf.set(blockOf(f), [...(csvOf.get(blockOf(f)) ?? []), f]);

  const make = (scope: string, members: StoredFile[]): Listed => {
    const counts: Record<string, number> = {};
    for (const m of members) for (const [k, v] of Object.entries(m.counts)) counts[k] = (counts[k] ?? 0) + v;
    const listed: Listed = {
      scope,
      ndjson: {
        name: scope + NDJSON_SUFFIX,
        content_type: 'application/gzip',
        etag: etagOf('', members),
        size: members.reduce((n, m) => n + m.size, 0),
        pieces: members,
        counts,
        generated_at: members[0].generated_at,
        cursor: members[0].feed_cursor,
      },
    };
    const tables = scope === ALL ? TABLES : tablesOf(scope === GLOBAL_SCOPE);
    // the tables' files in the order of `members`; complete when every member scope's head block
    // has every table (a block of bills has only the tables it has rows for)
    const csv = members.flatMap((m) =>
      (csvOf.get(blockOf(m)) ?? []).filter((f) => tables.includes(tableNamed(f.part))),
    );
    const complete = members.filter((m) => m.bill_from === HEAD_BLOCK.from).every((m) => hasEveryTable(files, m.scope));
    if (complete) listed.csv = csvDownload(scope, tables, csv);
    return listed;
  };
  const byScope = new Map<string, StoredFile[]>();
  for (const f of ndjson) byScope.set(f.scope, [...(byScope.get(f.scope) ?? []), f]);
  return [make(ALL, ordered), ...[...byScope].map(([scope, blocks]) => make(scope, blocks))];
}

/** The download with this file name, if any. */
export function findDownload(listed: Listed[], name: string): { download: Download; cursor: string } | undefined {
  for (const l of listed) {
    if (l.ndjson.name === name) return { download: l.ndjson, cursor: l.ndjson.cursor };
    if (l.csv?.name === name) return { download: l.csv, cursor: l.ndjson.cursor };
  }
  return undefined;
}
