// The optional sub-resources: amendments, supplements, calendar events, cross-references,
// citations and analyses (the last two only in states that publish them).
import { CITING_STATES, DAY, hex, isoDate, isoTime } from './context.js';
import type { Path } from './ladder.js';
import type { Rng } from './prng.js';
import type { BillBuffers } from './tables.js';

export interface IdCounters {
  text: number;
  rollCall: number;
  amendment: number;
  supplement: number;
  citation: number;
  analysis: number;
}

const CODES: Record<string, string[]> = {
  CA: ['Educ. Code', 'Health & Saf. Code', 'Veh. Code', 'Gov. Code', 'Pen. Code', 'Rev. & Tax. Code'],
  FL: ['Fla. Stat.'],
  TX: ['Education Code', 'Government Code', 'Tax Code', 'Health and Safety Code'],
  NY: ['Educ. Law', 'Pub. Health Law', 'Tax Law'],
  WA: ['RCW'],
  US: ['U.S.C.'],
};

export function writeExtras(
  rng: Rng,
  t: BillBuffers,
  ids: IdCounters,
  bill: { id: number; abbr: string; number: string; body: number; start: number; url: string },
  path: Path,
  author: string,
): void {
  const firstAction = path.steps[1]?.date ?? bill.start;
  if (path.status >= 2 && rng.chance(0.18)) {
    for (let k = rng.int(1, 3); k > 0; k--) {
      const id = ++ids.amendment;
      const d = Math.min(path.statusDate, firstAction + rng.int(3, 40) * DAY);
      t.amendments.row([
        id,
        bill.id,
        rng.chance(0.55) ? 1 : 0,
        rng.chance(0.8) ? bill.body : path.currentBody,
        isoDate(d),
        `${bill.number} Amendment ${String.fromCharCode(64 + k)}`,
        rng.pick([
          'Strikes section 2 and renumbers',
          'Changes the effective date',
          'Adds a reporting requirement',
          'Reduces the appropriation',
        ]),
        1,
        rng.int(8_000, 90_000),
        hex(rng, 32),
        `${bill.url}/amendments/${id}`,
      ]);
    }
  }
  if (path.status >= 2 && rng.chance(0.22)) {
    const id = ++ids.supplement;
    const type = rng.weighted([
      [1, 6],
      [2, 2],
      [4, 1],
      [5, 1],
    ] as const);
    const title = ['', 'Fiscal Note', 'Analysis', '', 'Vote Image', 'Local Mandate'][type];
    t.supplements.row([
      id,
      bill.id,
      type,
      isoDate(Math.min(path.statusDate, firstAction + rng.int(2, 20) * DAY)),
      `${title} for ${bill.number}`,
      type === 1 ? `Estimated fiscal impact: $${rng.int(0, 9000)}K` : '',
      `${bill.url}/supplements/${id}`,
      2,
      rng.int(20_000, 400_000),
      hex(rng, 32),
    ]);
  }
  if (path.status >= 2 && path.referrals.length && rng.chance(0.25)) {
    const r = path.referrals[0];
    const d = r.date + rng.int(5, 25) * DAY;
    t.bill_calendar.row([
      bill.id,
      hex(rng, 8),
      1,
      isoDate(d),
      rng.pick(['8:00 AM', '9:30 AM', '1:30 PM', '']),
      `Room ${rng.int(100, 499)}, State Capitol`,
      `Hearing: ${r.committee.name}`,
    ]);
    if (rng.chance(0.4))
      t.bill_calendar.row([
        bill.id,
        hex(rng, 8),
        2,
        isoDate(d + 7 * DAY),
        '10:00 AM',
        `Room ${rng.int(100, 499)}, State Capitol`,
        `Executive session: ${r.committee.name}`,
      ]);
  }
  if (CITING_STATES.has(bill.abbr) && rng.chance(0.5)) {
    const code = rng.pick(CODES[bill.abbr]);
    for (let k = rng.int(1, 3); k > 0; k--) {
      const num =
        bill.abbr === 'US'
          ? `${rng.int(5, 50)} ${code} ${rng.int(100, 9999)}`
          : bill.abbr === 'WA'
            ? `RCW ${rng.int(1, 90)}.${rng.int(10, 99)}.${rng.int(10, 990)}`
            : `${code} § ${rng.int(100, 99999)}`;
      t.bill_citations.row([
        ++ids.citation,
        bill.id,
        rng.pick(['amends', 'adds', 'repeals']),
        num,
        rng.pick(['Definitions', 'Penalties', 'Reporting', 'Applicability', 'Fees']),
        `Page ${rng.int(1, 30)}, Line ${rng.int(1, 40)}`,
        `${bill.url}/citations`,
        isoTime(firstAction + DAY),
      ]);
    }
  }
  if (CITING_STATES.has(bill.abbr) && path.status >= 2 && rng.chance(0.5)) {
    const types =
      bill.abbr === 'US'
        ? ['CBO Cost Estimate', 'CRS Summary']
        : ['Committee Analysis', 'Floor Analysis', 'Fiscal Analysis'];
    for (let k = rng.int(1, 2); k > 0; k--) {
      const type = rng.pick(types);
      const d = Math.min(path.statusDate, firstAction + rng.int(3, 30) * DAY);
      t.bill_analyses.row([
        ++ids.analysis,
        bill.id,
        type,
        `${type} of ${bill.number}`,
        author,
        isoDate(d),
        `${bill.url}/analyses`,
        isoTime(d + DAY / 3),
      ]);
    }
  }
}
