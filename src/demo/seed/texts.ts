// Bill text versions with real content that differs from version to version (amounts change,
// sections are added or struck), and a few re-issued versions whose only difference is
// whitespace, so the diff worker's whitespace-only flag has data.
import { createHash } from 'node:crypto';
import type { Rng } from './prng.js';

export interface TextVersion {
  type_id: number;
  date: number;
  content: string;
}

export interface DocHeader {
  jurisdiction: string;
  body: string;
  session: string;
  number: string;
  title: string;
  enacting: string;
  code: string;
}

const VERBS = [
  'shall establish',
  'shall maintain',
  'may adopt rules for',
  'shall report annually on',
  'shall not exceed',
  'shall publish',
];
const OBJECTS = [
  'a grant program',
  'the reporting requirements of this section',
  'an advisory council',
  'the fee schedule',
  'a public registry',
  'a pilot program',
];

function section(rng: Rng, n: number, code: string): string {
  const cite = `${rng.int(1, 60)}-${rng.int(100, 999)}`;
  const amount = rng.int(1, 500) * 1000;
  const days = rng.pick([30, 60, 90, 180]);
  return [
    `SECTION ${n}. ${code} ${cite} is amended to read:`,
    `(a) The department ${rng.pick(VERBS)} ${rng.pick(OBJECTS)}.`,
    `(b) The amount available under subsection (a) shall not exceed $${amount.toLocaleString('en-US')} in any fiscal year.`,
    `(c) Not later than ${days} days after the effective date of this act, the department shall adopt rules to implement this section.`,
  ].join('\n');
}

function render(h: DocHeader, sections: string[], effective: string): string {
  return [
    h.jurisdiction.toUpperCase(),
    h.body,
    h.session,
    '',
    h.number,
    '',
    h.title,
    '',
    h.enacting,
    '',
    ...sections.flatMap((s) => [s, '']),
    `SECTION ${sections.length + 1}. This act takes effect ${effective}.`,
    '',
  ].join('\n');
}

/** Versions for one bill, oldest first; count follows how far the bill got. */
export function textVersions(rng: Rng, h: DocHeader, types: { type_id: number; date: number }[]): TextVersion[] {
  const sections: string[] = [];
  const n0 = rng.int(2, 4);
  for (let i = 1; i <= n0; i++) sections.push(section(rng, i, h.code));
  let effective = rng.pick(['July 1, 2026', 'January 1, 2027', 'upon passage', 'ninety days after adjournment']);
  const out: TextVersion[] = [];
  types.forEach((t, i) => {
    if (i > 0) {
      // Each later version really changes: a new section, a changed amount or a struck section.
      const change = rng.int(0, 2);
      if (change === 0 || sections.length < 2) sections.push(section(rng, sections.length + 1, h.code));
      else if (change === 1) {
        const k = rng.int(0, sections.length - 1);
        sections[k] = sections[k]
          .replace(/\$[\d,]+/, `$${(rng.int(1, 500) * 1000).toLocaleString('en-US')}`)
          .replace(/(\d+) days/, `${rng.pick([45, 120, 365])} days`);
      } else {
        sections.splice(rng.int(0, sections.length - 1), 1);
        sections.forEach((s, j) => (sections[j] = s.replace(/^SECTION \d+\./, `SECTION ${j + 1}.`)));
      }
      if (rng.chance(0.3))
        effective = rng.pick(['October 1, 2026', 'January 1, 2028', 'upon approval by the executive']);
    }
    out.push({ type_id: t.type_id, date: t.date, content: render(h, sections, effective) });
  });
  return out;
}

/** The same text re-issued with different line breaks and spacing only. */
export function reflow(content: string): string {
  return content
    .replace(/\. /g, '.  ')
    .replace(/\n\n/g, '\n\n\n')
    .replace(/ is amended to read:/g, '\n    is amended to read:');
}

export const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
export function wordCount(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}
