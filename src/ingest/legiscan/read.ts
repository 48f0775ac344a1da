// Reading LegiScan datasets in any of their forms, one payload at a time (bounded memory):
//   - a folder (or folders) with bill/, people/, vote/, text/ … holding JSON or XML files;
//   - the zip getDataset returns (…/bill/*.json, …, last entry hash.md5).
// Folders are visited people → bill → vote → text so references resolve in one pass.
import fs from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import { readAhead } from '../readahead.js';
import { RecordError } from '../report.js';

export const FOLDERS = ['people', 'bill', 'vote', 'text', 'amendment', 'supplement'] as const;
export type Folder = (typeof FOLDERS)[number];

export interface Payload { folder: Folder; file: string; data: Record<string, unknown> | null; error?: unknown }

const ROOT_OF: Record<Folder, string> = { people: 'person', bill: 'bill', vote: 'roll_call', text: 'text', amendment: 'amendment', supplement: 'supplement' };
const XML_LISTS = new Set(['step', 'sponsor', 'text', 'vote', 'amendment', 'supplement', 'subject', 'sast', 'event', 'referral', 'calendar']);
const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name, jpath) => XML_LISTS.has(name) && String(jpath).split('.').length > 3 });

/** Parses one dataset file and returns its root object ({"bill":…} → the bill). */
export function parsePayload(folder: Folder, file: string, body: string): Record<string, unknown> {
  let doc: Record<string, unknown>;
  try {
    doc = file.endsWith('.xml') ? (xml.parse(body) as Record<string, unknown>) : (JSON.parse(body) as Record<string, unknown>);
  } catch (err) {
    throw new RecordError(`malformed ${file.endsWith('.xml') ? 'XML' : 'JSON'}: ${(err as Error).message}`);
  }
  const outer = (doc?.legiscan as Record<string, unknown> | undefined) ?? doc;
  const root = outer?.[ROOT_OF[folder]];
  if (!root || typeof root !== 'object') throw new RecordError(`missing "${ROOT_OF[folder]}" object`, ROOT_OF[folder]);
  return root as Record<string, unknown>;
}

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

export async function* readFolder(root: string, folder: Folder): AsyncGenerator<Payload> {
  const dir = path.join(root, folder);
  if (!(await isDir(dir))) return;
  // opendir streams entries: a dataset of any size never sits in memory as a list of payloads.
  const names: string[] = [];
  for await (const e of await fs.opendir(dir)) if (e.isFile() && /\.(json|xml)$/i.test(e.name)) names.push(e.name);
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  // Read ahead a bounded window: files load and parse while the writer waits on the database.
  const load = (name: string): Promise<Payload> => {
    const file = path.join(dir, name);
    return fs.readFile(file, 'utf8').then(
      (body) => ({ folder, file, data: parsePayload(folder, file, body) }),
    ).catch((error: unknown) => ({ folder, file, data: null, error }));
  };
  yield* readAhead(names, load);
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
