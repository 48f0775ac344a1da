// One LegiScan dataset file (JSON or XML) → its root object ({"bill":…} → the bill).
import { RecordError } from '../read/record-error.js';
import type { LegiscanRoots } from './source.js';
import { parseLegiscanXml } from './xml.js';

export const FOLDERS = ['people', 'bill', 'vote', 'text', 'amendment', 'supplement'] as const;
export type Folder = (typeof FOLDERS)[number];

const ROOT_OF: Record<Folder, string> = {
  people: 'person',
  bill: 'bill',
  vote: 'roll_call',
  text: 'text',
  amendment: 'amendment',
  supplement: 'supplement',
};
/** XML elements that are lists even with one child (JSON has arrays for them). */
export const XML_LISTS: ReadonlySet<string> = new Set([
  'step',
  'sponsor',
  'text',
  'vote',
  'amendment',
  'supplement',
  'subject',
  'sast',
  'event',
  'referral',
  'calendar',
]);

/** A dataset file as parsed: the record under its root element, itself under `legiscan` in XML files. */
interface LegiscanFile {
  legiscan?: LegiscanFile;
  [root: string]: unknown;
}

export function parsePayload<F extends Folder>(folder: F, file: string, body: string): LegiscanRoots[F] {
  let doc: LegiscanFile | null;
  const isXml = file.endsWith('.xml');
  try {
    doc = isXml ? parseLegiscanXml(body, XML_LISTS) : (JSON.parse(body) as LegiscanFile | null);
  } catch (err) {
    throw new RecordError(`malformed ${isXml ? 'XML' : 'JSON'}: ${(err as Error).message}`);
  }
  const outer = doc?.legiscan ?? doc;
  const root = outer?.[ROOT_OF[folder]];
  if (!root || typeof root !== 'object') throw new RecordError(`missing "${ROOT_OF[folder]}" object`, ROOT_OF[folder]);
  // The one place a LegiScan record gets its type: the object under the folder's root element.
  return root as LegiscanRoots[F];
}
