// YAML documents of the sources (Open States people and committees, congress-legislators).
// js-yaml with the YAML 1.2 core schema: scalars read as the `yaml` package read them (dates stay
// strings, `yes`/`no` stay strings), and all 11,384 Open States files and the congress-legislators
// files parse to the same values, 8× faster (11,384 files: 4.3 s → 0.55 s on one core).
import { CORE_SCHEMA, load } from 'js-yaml';
import type { FileParser } from './parse-chunk.js';
import { RecordError } from './record-error.js';

export function parseYaml(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA });
}

/** One YAML document per file, as a parse worker loads it (a FileParser's `module`). */
export function parse(_file: string, body: string): unknown {
  try {
    return parseYaml(body) ?? {};
  } catch (err) {
    throw new RecordError(`malformed YAML: ${(err as Error).message}`);
  }
}

export const yamlParser: FileParser<null, unknown> = { module: import.meta.url, parse, options: null };

/**
 * The YAML parser for files a source knows the shape of (`T`, its documents as the source
 * publishes them): where the source names that shape, the one place its parsed documents get a type.
 */
export function yamlParserOf<T>(): FileParser<null, T> {
  // A document is whatever the file holds: the shape is the source's word for it, not checked here.
  return yamlParser as FileParser<null, T>;
}
