// The LegiScan reader's FileParser: what a parse worker loads to turn one dataset file (JSON or
// XML) into its payload. It imports only the LegiScan parsers, so the workers stay small.
import type { FileParser } from '../read/parse-chunk.js';
import { compactMembers } from './members.js';
import { parsePayload, type Folder } from './parse.js';
import type { LegiscanRoots } from './source.js';

/** `compact`: roll calls' member lists in their compact form (members.ts), for the importer */
export interface LegiscanParse<F extends Folder = Folder> {
  folder: F;
  compact?: boolean;
}

/** A file of the folder, as the record at its root. */
export function parse<F extends Folder>(file: string, body: string, options: LegiscanParse<F>): LegiscanRoots[F];
export function parse(file: string, body: string, { folder, compact }: LegiscanParse): LegiscanRoots[Folder] {
  if (!compact || folder !== 'vote') return parsePayload(folder, file, body);
  const rollCall = parsePayload(folder, file, body);
  compactMembers(rollCall);
  return rollCall;
}

export function legiscanParser<F extends Folder>(
  folder: F,
  compact = false,
): FileParser<LegiscanParse<F>, LegiscanRoots[F]> {
  return { module: import.meta.url, parse, options: { folder, compact } };
}
