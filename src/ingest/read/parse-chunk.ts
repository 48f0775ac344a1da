// One chunk of source files read and parsed, in a worker thread or in-thread. The reader knows no
// source format: each source hands over a FileParser, whose `module` a worker thread imports and
// whose `parse` runs in-thread. Errors travel as plain { message, field } (a RecordError does not
// survive the trip between threads).
import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { RecordError } from './record-error.js';

/** Turns one file's text into its record (of the source's shape `T`); throws a RecordError for a bad one. */
export type ParseFn<O = unknown, T = unknown> = (file: string, body: string, options: O) => T;

/**
 * How a source's files are parsed. `module` is the URL of a module exporting `parse` (the same
 * function as `parse` here): a worker thread loads only that module, so a LegiScan import's workers
 * never load the YAML parser and the reader never imports a source. `T`: what `parse` returns, the
 * source's record shape, which the pool hands back as it is.
 */
export interface FileParser<O = unknown, T = unknown> {
  module: string;
  parse: ParseFn<O, T>;
  options: O;
}

/** A zip entry's bytes as stored (deflated or not), decoded by whoever parses it; `error`: why it cannot be */
export interface Blob {
  bytes: Uint8Array;
  deflated: boolean;
  error?: string;
}
/** `blobs`: the files' contents when they are not on disk (zip entries), in the order of `files` */
export interface ChunkRequest<O = unknown> {
  id: number;
  module: string;
  options: O;
  files: string[];
  blobs?: Blob[];
}
export interface ParsedFile<T = unknown> {
  file: string;
  data: T | null;
  error?: { message: string; field?: string };
}
export interface ChunkResult<T = unknown> {
  id: number;
  files: ParsedFile<T>[];
}

/** A blob's text: inflated when deflated; a RecordError when it cannot be read. */
export function decodeBlob(b: Blob): string {
  if (b.error) throw new RecordError(b.error);
  try {
    return (
      b.deflated ? inflateRawSync(b.bytes) : Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength)
    ).toString('utf8');
  } catch (err) {
    throw new RecordError(`unreadable zip entry: ${(err as Error).message}`);
  }
}

export function parseChunk<O, T>(req: ChunkRequest<O>, parse: ParseFn<O, T>): ChunkResult<T> {
  const files = req.files.map((file, i): ParsedFile<T> => {
    try {
      return {
        file,
        data: parse(file, req.blobs ? decodeBlob(req.blobs[i]!) : fs.readFileSync(file, 'utf8'), req.options),
      };
    } catch (err) {
      return {
        file,
        data: null,
        error: { message: (err as Error).message, field: err instanceof RecordError ? err.field : undefined },
      };
    }
  });
  return { id: req.id, files };
}

/** Some files parsed in-thread with a source's parser: what the pool does when it has no workers. */
export function parseWith<O, T>(parser: FileParser<O, T>, files: string[], blobs?: Blob[]): ParsedFile<T>[] {
  return parseChunk({ id: 0, module: parser.module, options: parser.options, files, blobs }, parser.parse).files;
}
