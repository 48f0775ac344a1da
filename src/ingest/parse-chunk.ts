// One chunk of source files read and parsed, in a worker thread or in-thread. Errors travel as
// plain { message, field } (a RecordError does not survive the trip between threads).
import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { compactMembers } from './legiscan/members.js';
import { parsePayload, type Folder } from './legiscan/parse.js';
import { RecordError } from './record-error.js';

/** What to parse: a LegiScan dataset file of a folder, or a YAML document (Open States). */
/** `compact`: roll calls' member lists in their compact form (legiscan/members.ts), for the importer */
export type ParseKind = { kind: 'legiscan'; folder: Folder; compact?: boolean } | { kind: 'yaml' };
/** A zip entry's bytes as stored (deflated or not), decoded by whoever parses it; `error`: why it cannot be */
export interface Blob { bytes: Uint8Array; deflated: boolean; error?: string }
/** `blobs`: the files' contents when they are not on disk (zip entries), in the order of `files` */
export type ChunkRequest = ParseKind & { id: number; files: string[]; blobs?: Blob[] };
export interface ParsedFile { file: string; data: Record<string, unknown> | null; error?: { message: string; field?: string } }
export interface ChunkResult { id: number; files: ParsedFile[] }

// The YAML parser is loaded on the first YAML chunk: a LegiScan import's workers start without it.
let parseYaml: ((body: string) => unknown) | undefined;

/** Loads what a kind of chunk needs beyond the LegiScan readers (the YAML parser); call before parseChunk. */
export async function prepareFor(kind: ParseKind): Promise<void> {
  if (kind.kind === 'yaml' && !parseYaml) parseYaml = (await import('./yaml.js')).parseYaml;
}

function parseOne(req: ChunkRequest, file: string, body: string): Record<string, unknown> {
  if (req.kind === 'legiscan') {
    const data = parsePayload(req.folder, file, body);
    if (req.compact && req.folder === 'vote') compactMembers(data);
    return data;
  }
  try {
    return (parseYaml!(body) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw new RecordError(`malformed YAML: ${(err as Error).message}`);
  }
}

/** A blob's text: inflated when deflated; a RecordError when it cannot be read. */
export function decodeBlob(b: Blob): string {
  if (b.error) throw new RecordError(b.error);
  try {
    return (b.deflated ? inflateRawSync(b.bytes) : Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength)).toString('utf8');
  } catch (err) {
    throw new RecordError(`unreadable zip entry: ${(err as Error).message}`);
  }
}

export function parseChunk(req: ChunkRequest): ChunkResult {
  const files = req.files.map((file, i): ParsedFile => {
    try {
      return { file, data: parseOne(req, file, req.blobs ? decodeBlob(req.blobs[i]!) : fs.readFileSync(file, 'utf8')) };
    } catch (err) {
      return { file, data: null, error: { message: (err as Error).message, field: err instanceof RecordError ? err.field : undefined } };
    }
  });
  return { id: req.id, files };
}
