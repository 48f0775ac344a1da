// Reading LegiScan datasets in any of their forms, one payload at a time (bounded memory):
//   - a folder (or folders) with bill/, people/, vote/, text/ … holding JSON or XML files;
//   - the zip getDataset returns (…/bill/*.json, …, last entry hash.md5).
// Folders are visited people → bill → vote → text so references resolve in one pass.
import fs from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { FOLDERS, parsePayload, type Folder } from './parse.js';
import { ParsePool } from '../parse-pool.js';

export { FOLDERS, parsePayload, type Folder } from './parse.js';

export interface Payload { folder: Folder; file: string; data: Record<string, unknown> | null; error?: unknown }

const byName = new Intl.Collator('en', { numeric: true }).compare;

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
export async function* readFolder(root: string, folder: Folder, pool?: ParsePool, compact = false): AsyncGenerator<Payload> {
  const dir = path.join(root, folder);
  if (!(await isDir(dir))) return;
  const names: string[] = [];
  for await (const e of await fs.opendir(dir)) if (e.isFile() && /\.(json|xml)$/i.test(e.name)) names.push(e.name);
  names.sort(byName);
  const own = pool ?? new ParsePool();
  try {
    for await (const p of own.files({ kind: 'legiscan', folder, compact }, names.map((n) => path.join(dir, n)))) yield { folder, ...p };
  } finally {
    if (!pool) await own.close();
  }
}

/** The first readable file of a folder (the dataset's state comes from its first bill). */
export async function firstPayload(root: string, folder: Folder): Promise<Record<string, unknown> | undefined> {
  const dir = path.join(root, folder);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => /\.(json|xml)$/i.test(n)).sort(byName);
  for (const n of names) {
    const file = path.join(dir, n);
    try {
      return parsePayload(folder, file, await fs.readFile(file, 'utf8'));
    } catch { /* reported when the folder is imported */ }
  }
  return undefined;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => (err ? reject(err) : resolve(zip!))));
}

/** Entries of one folder of a getDataset zip, read lazily one at a time. */
export async function* readZipFolder(file: string, folder: Folder): AsyncGenerator<Payload> {
  const zip = await openZip(file);
  const queue: Payload[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => { wake?.(); wake = undefined; };
  zip.on('entry', (entry: yauzl.Entry) => {
    const parts = entry.fileName.split('/');
    if (parts.length < 2 || parts[parts.length - 2] !== folder || !/\.(json|xml)$/i.test(entry.fileName)) return void zip.readEntry();
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) { failure = err; return notify(); }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const name = `${file}:${entry.fileName}`;
        try {
          queue.push({ folder, file: name, data: parsePayload(folder, name, Buffer.concat(chunks).toString('utf8')) });
        } catch (error) {
          queue.push({ folder, file: name, data: null, error });
        }
        notify();
      });
    });
  });
  zip.on('end', () => { done = true; notify(); });
  zip.on('error', (e) => { failure = e; notify(); });
  zip.readEntry();
  for (;;) {
    if (failure) throw failure;
    const next = queue.shift();
    if (next) {
      yield next;
      zip.readEntry();
      continue;
    }
    if (done) return;
    await new Promise<void>((r) => (wake = r));
  }
}
