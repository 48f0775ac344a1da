// The LegiScan reader's FileParser: what a parse worker loads to turn one dataset file (JSON or
// XML) into its payload. It imports only the LegiScan parsers, so the workers stay small.
import type { FileParser } from '../read/parse-chunk.js';
import { compactMembers } from './members.js';
import { parsePayload, type Folder } from './parse.js';

/** `compact`: roll calls' member lists in their compact form (members.ts), for the importer */
export interface LegiscanParse {
  folder: Folder;
  compact?: boolean;
}

export function parse(file: string, body: string, options: LegiscanParse): Record<string, unknown> {
  const data = parsePayload(options.folder, file, body);
  if (options.compact && options.folder === 'vote') compactMembers(data);
  return data;
}

export function legiscanParser(folder: Folder, compact = false): FileParser<LegiscanParse> {
  return { module: import.meta.url, parse, options: { folder, compact } };
}
