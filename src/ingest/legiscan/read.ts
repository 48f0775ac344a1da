// Reading LegiScan datasets in any of their forms, one payload at a time (bounded memory):
//   - a folder (or folders) with bill/, people/, vote/, text/ … holding JSON or XML files;
//   - the zip getDataset returns (…/bill/*.json, …, last entry hash.md5).
// Folders are visited people → bill → vote → text so references resolve in one pass.
import fs from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { FOLDERS, parsePayload, type Folder } from './parse.js';
import { decodeBlob, type Blob } from '../read/parse-chunk.js';
import { ParsePool, type Parsed } from '../read/parse-pool.js';
import { legiscanParser } from './parse-file.js';
import type { LegiscanRoots } from './source.js';

export { FOLDERS, parsePayload, type Folder } from './parse.js';

/** A file of a folder, as the record at its root (null when it cannot be read: `error` says why). */
export type Payload = {
  [F in Folder]: { folder: F; file: string; data: LegiscanRoots[F] | null; error?: unknown };
}[Folder];

const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * A parsed file with its folder. The parser of a folder gives that folder's root record
 * (parse.ts), a pairing the parse pool, which knows no source, does not carry through.
 */
const payload = (folder: Folder, p: Parsed<LegiscanRoots[Folder]>) => ({ folder, ...p }) as Payload;

async function isDir(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isDirectory() ?? false;
}

/** Dataset roots under a path: folders that contain bill/, people/ or vote/. */
export async function datasetRoots(p: string, depth = 4): Promise<string[]> {
  for (const f of ['bill', 'people', 'vote']) if (await isDir(path.join(p, f))) return [p];
  if (depth === 0) return [];
  const out: string[] = [];
  for (const e of (await fs.readdir(p, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory()) out.push(...(await datasetRoots(path.join(p, e.name), depth - 1)));
  }
  return out;
}

/** Number of files per dataset (for progress), without reading them. */
export async function countFiles(roots: string[]): Promise<number> {
  let n = 0;
  for (const r of roots) for (const f of FOLDERS) n += (await fs.readdir(path.join(r, f)).catch(() => [])).length;
  return n;
}

/**
 * The folder's files in name order (HB2 before HB10), parsed by the pool's worker threads;
 * `compact`: roll calls come with their member lists in compact form (legiscan/members.ts).
 */
export async function* readFolder(
  root: string,
  folder: Folder,
  pool?: ParsePool,
  compact = false,
): AsyncGenerator<Payload> {
  const dir = path.join(root, folder);
  if (!(await isDir(dir))) return;
  const names: string[] = [];
  for await (const e of await fs.opendir(dir)) if (e.isFile() && /\.(json|xml)$/i.test(e.name)) names.push(e.name);
  names.sort(byName);
  const own = pool ?? new ParsePool();
  try {
    for await (const p of own.files(
      legiscanParser(folder, compact),
      names.map((n) => path.join(dir, n)),
    ))
      yield payload(folder, p);
  } finally {
    if (!pool) await own.close();
  }
}

/** The first readable file of a folder (the dataset's state comes from its first bill). */
export async function firstPayload<F extends Folder>(root: string, folder: F): Promise<LegiscanRoots[F] | undefined> {
  const dir = path.join(root, folder);
  const names = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter((n) => /\.(json|xml)$/i.test(n))
    .sort(byName);
  for (const n of names) {
    const file = path.join(dir, n);
    try {
      return parsePayload(folder, file, await fs.readFile(file, 'utf8'));
    } catch {
      /* reported when the folder is imported */
    }
  }
  return undefined;
}

/**
 * A getDataset zip (the form LegiScan's API delivers), read whole and its entries listed once for
 * every folder. Walking it through the file cost a few thread-pool round trips per entry (MS
 * 2014's 5,095 entries: 3 s of CPU, three times the import); dataset zips are a few megabytes to
 * a few tens of megabytes.
 */
export interface ZipDataset {
  file: string;
  buffer: Buffer;
  byFolder: Map<Folder, yauzl.Entry[]>;
}

export async function openZipDataset(file: string): Promise<ZipDataset> {
  const buffer = await fs.readFile(file);
  const entries = await new Promise<yauzl.Entry[]>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: yauzl.Entry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        out.push(e);
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    }),
  );
  // In name order (HB2 before HB10), as a folder's files are read: rows then go in by ascending
  // id, which their indexes take fastest, and both forms of a dataset import the same way.
  const byFolder = new Map<Folder, yauzl.Entry[]>(
    FOLDERS.map((f) => [f, entries.filter((e) => inFolder(e, f)).sort((a, b) => byName(a.fileName, b.fileName))]),
  );
  return { file, buffer, byFolder };
}

/** Where an entry's data begins: after its local header (signature, fixed part, name, extra field). */
function dataStart(buffer: Buffer, entry: yauzl.Entry): number {
  const at = entry.relativeOffsetOfLocalHeader;
  if (at + 30 > buffer.length || buffer.readUInt32LE(at) !== 0x04034b50) throw new Error('invalid local file header');
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  if (start + entry.compressedSize > buffer.length) throw new Error('entry data runs past the end of the zip');
  return start;
}

/** The dataset files of a folder (the entries under a `folder/` directory, JSON or XML). */
const inFolder = (entry: yauzl.Entry, folder: Folder) => {
  const parts = entry.fileName.split('/');
  return parts.length >= 2 && parts[parts.length - 2] === folder && /\.(json|xml)$/i.test(entry.fileName);
};

/** Number of dataset files in the zip (for progress). */
export function zipFileCount(zip: ZipDataset): number {
  return [...zip.byFolder.values()].reduce((n, l) => n + l.length, 0);
}

/** An entry as the bytes the zip stores (a view into the zip), or why it cannot be read. */
function entryBlob(zip: ZipDataset, entry: yauzl.Entry): Blob {
  const unreadable = (error: string): Blob => ({ bytes: new Uint8Array(0), deflated: false, error });
  if (entry.isEncrypted()) return unreadable('encrypted zip entry');
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    return unreadable(`zip compression method ${entry.compressionMethod} is not supported`);
  try {
    const start = dataStart(zip.buffer, entry);
    return { bytes: zip.buffer.subarray(start, start + entry.compressedSize), deflated: entry.compressionMethod === 8 };
  } catch (err) {
    return unreadable((err as Error).message);
  }
}

/**
 * The entries of one folder, in name order, as the bytes the zip stores: the parse workers
 * inflate them, and report an unreadable one against it like any unreadable file (the pool packs
 * a chunk's views into one buffer of its own for the worker).
 */
async function* zipBlobs(zip: ZipDataset, folder: Folder): AsyncGenerator<{ file: string; blob: Blob }> {
  for (const entry of zip.byFolder.get(folder) ?? [])
    yield { file: `${zip.file}:${entry.fileName}`, blob: entryBlob(zip, entry) };
}

/** The first readable entry of a zip folder (the dataset's state comes from its first bill), as firstPayload. */
export function firstZipPayload<F extends Folder>(zip: ZipDataset, folder: F): LegiscanRoots[F] | undefined {
  for (const entry of zip.byFolder.get(folder) ?? []) {
    try {
      return parsePayload(folder, entry.fileName, decodeBlob(entryBlob(zip, entry)));
    } catch {
      /* reported when the folder is imported */
    }
  }
  return undefined;
}

/**
 * Entries of one folder of a getDataset zip, inflated and parsed by the pool's worker threads a
 * few chunks ahead, as a folder's files are; `compact` as for readFolder.
 */
export async function* readZipFolder(
  zip: ZipDataset,
  folder: Folder,
  pool?: ParsePool,
  compact = false,
): AsyncGenerator<Payload> {
  const own = pool ?? new ParsePool();
  try {
    for await (const p of own.blobs(legiscanParser(folder, compact), zipBlobs(zip, folder))) yield payload(folder, p);
  } finally {
    if (!pool) await own.close();
  }
}
