// One chunk of source files read and parsed, in a worker thread or in-thread. Errors travel as
// plain { message, field } (a RecordError does not survive the trip between threads).
import fs from 'node:fs';
import { compactMembers } from './legiscan/members.js';
import { parsePayload, type Folder } from './legiscan/parse.js';
import { RecordError } from './record-error.js';

/** What to parse: a LegiScan dataset file of a folder, or a YAML document (Open States). */
/** `compact`: roll calls' member lists in their compact form (legiscan/members.ts), for the importer */
export type ParseKind = { kind: 'legiscan'; folder: Folder; compact?: boolean } | { kind: 'yaml' };
export type ChunkRequest = ParseKind & { id: number; files: string[] };
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

export function parseChunk(req: ChunkRequest): ChunkResult {
  const files = req.files.map((file): ParsedFile => {
    try {
      return { file, data: parseOne(req, file, fs.readFileSync(file, 'utf8')) };
    } catch (err) {
      return { file, data: null, error: { message: (err as Error).message, field: err instanceof RecordError ? err.field : undefined } };
    }
  });
  return { id: req.id, files };
}
