// One chunk of dataset files read and parsed, in a worker thread or in-thread. Errors travel as
// plain { message, field } (a RecordError does not survive the trip between threads).
import fs from 'node:fs';
import type { Folder } from './read.js';
import { parsePayload } from './parse.js';
import { RecordError } from '../report.js';

export interface ChunkRequest { id: number; folder: Folder; files: string[] }
export interface ParsedFile { file: string; data: Record<string, unknown> | null; error?: { message: string; field?: string } }
export interface ChunkResult { id: number; files: ParsedFile[] }

export function parseChunk(req: ChunkRequest): ChunkResult {
  const files = req.files.map((file): ParsedFile => {
    try {
      return { file, data: parsePayload(req.folder, file, fs.readFileSync(file, 'utf8')) };
    } catch (err) {
      return { file, data: null, error: { message: (err as Error).message, field: err instanceof RecordError ? err.field : undefined } };
    }
  });
  return { id: req.id, files };
}
