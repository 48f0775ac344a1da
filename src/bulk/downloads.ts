// The downloads made of the current files: per scope and `all`, the NDJSON file (its gzip
// members concatenated) and the CSV zip (laid out from the tables' deflate files). Each download
// is a list of pieces with a size and an ETag; the bytes of a given set of stored files never
// change, so the ETag is a hash of their ids.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { headerLine } from './csv.js';
import { GLOBAL_SCOPE } from './build.js';
import type { Piece, StoredFile } from './store.js';
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

/** `all` first (every jurisdiction in code order, then the nationwide records), then each scope. */
export function listDownloads(files: StoredFile[]): Listed[] {
  const ndjson = files.filter((f) => f.format === 'ndjson');
  if (ndjson.length === 0) return [];
  const ordered = [
    ...ndjson.filter((f) => f.scope !== GLOBAL_SCOPE),
    ...ndjson.filter((f) => f.scope === GLOBAL_SCOPE),
  ];
  const csvOf = new Map<string, StoredFile[]>();
  for (const f of files) if (f.format === 'csv') csvOf.set(f.scope, [...(csvOf.get(f.scope) ?? []), f]);

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
    // the tables' files in the order of `members`, each table complete for every member scope
    const csv = members.flatMap((m) => (csvOf.get(m.scope) ?? []).filter((f) => tables.includes(tableNamed(f.part))));
    const complete = members.every((m) =>
      tablesOf(m.scope === GLOBAL_SCOPE).every((t) => csvOf.get(m.scope)?.some((f) => f.part === t.name)),
    );
    if (complete) listed.csv = csvDownload(scope, tables, csv);
    return listed;
  };
  return [make(ALL, ordered), ...ndjson.map((f) => make(f.scope, [f]))];
}

/** The download with this file name, if any. */
export function findDownload(listed: Listed[], name: string): { download: Download; cursor: string } | undefined {
  for (const l of listed) {
    if (l.ndjson.name === name) return { download: l.ndjson, cursor: l.ndjson.cursor };
    if (l.csv?.name === name) return { download: l.csv, cursor: l.ndjson.cursor };
  }
  return undefined;
}
