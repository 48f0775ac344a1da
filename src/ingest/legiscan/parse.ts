// One LegiScan dataset file (JSON or XML) → its root object ({"bill":…} → the bill).
import { RecordError } from '../read/record-error.js';
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

export function parsePayload(folder: Folder, file: string, body: string): Record<string, unknown> {
  let doc: Record<string, unknown>;
  const isXml = file.endsWith('.xml');
  try {
    doc = isXml ? parseLegiscanXml(body, XML_LISTS) : (JSON.parse(body) as Record<string, unknown>);
  } catch (err) {
    throw new RecordError(`malformed ${isXml ? 'XML' : 'JSON'}: ${(err as Error).message}`);
  }
  const outer = (doc?.legiscan as Record<string, unknown> | undefined) ?? doc;
  const root = outer?.[ROOT_OF[folder]];
  if (!root || typeof root !== 'object') throw new RecordError(`missing "${ROOT_OF[folder]}" object`, ROOT_OF[folder]);
  return root as Record<string, unknown>;
}
