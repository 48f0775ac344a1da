// Legislators for every chamber of every jurisdiction, at realistic chamber sizes. Edge cases:
// people_id values above 2^32 (some states and Congress), names published only as one combined
// string in some states, and split identities (one person under two people_id values).
import { splitPublishedName } from '../../domain/names.js';
import {
  COMBINED_NAME_STATES,
  DEMO_ID_BASE,
  SPLIT_IDENTITY_STATES,
  hex,
  isoTime,
  ANCHOR,
  type BodyRow,
  type SeedContext,
} from './context.js';
import { PgArray, type CopyBuffer } from './copy.js';
import { rngFor, type Rng } from './prng.js';
import { FIRST_NAMES, LAST_NAMES, MIDDLE_INITIALS, SUFFIXES } from './words.js';

/** [lower, upper] seats; unicameral bodies use the upper entry. */
const SEATS: Record<string, [number, number]> = {
  AL: [105, 35],
  AK: [40, 20],
  AZ: [60, 30],
  AR: [100, 35],
  CA: [80, 40],
  CO: [65, 35],
  CT: [151, 36],
  DE: [41, 21],
  FL: [120, 40],
  GA: [180, 56],
  HI: [51, 25],
  ID: [70, 35],
  IL: [118, 59],
  IN: [100, 50],
  IA: [100, 50],
  KS: [125, 40],
  KY: [100, 38],
  LA: [105, 39],
  ME: [151, 35],
  MD: [141, 47],
  MA: [160, 40],
  MI: [110, 38],
  MN: [134, 67],
  MS: [122, 52],
  MO: [163, 34],
  MT: [100, 50],
  NE: [0, 49],
  NV: [42, 21],
  NH: [400, 24],
  NJ: [80, 40],
  NM: [70, 42],
  NY: [150, 63],
  NC: [120, 50],
  ND: [94, 47],
  OH: [99, 33],
  OK: [101, 48],
  OR: [60, 30],
  PA: [203, 50],
  RI: [75, 38],
  SC: [124, 46],
  SD: [70, 35],
  TN: [99, 33],
  TX: [150, 31],
  UT: [75, 29],
  VT: [150, 30],
  VA: [100, 40],
  WA: [98, 49],
  WV: [100, 34],
  WI: [99, 33],
  WY: [62, 31],
  DC: [0, 13],
  US: [435, 100],
};
const US_STATES = [
  'CA',
  'TX',
  'FL',
  'NY',
  'PA',
  'IL',
  'OH',
  'GA',
  'NC',
  'MI',
  'NJ',
  'VA',
  'WA',
  'AZ',
  'TN',
  'MA',
  'IN',
  'MD',
  'MO',
  'WI',
  'CO',
  'MN',
];
const PARTY_NAMES: Record<number, string> = { 1: 'Democrat', 2: 'Republican', 3: 'Independent', 6: 'Nonpartisan' };
const TWO_POW_32 = 2 ** 32;

export interface Member {
  people_id: number;
  party_id: number;
  name: string;
  first_name: string;
  last_name: string;
  district: string;
  /** the other people_id of a split identity, if any */
  twin?: number;
}

export const PEOPLE_COLUMNS = [
  'people_id',
  'state_id',
  'role_id',
  'chamber',
  'body_id',
  'party_id',
  'party_name',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'nickname',
  'district',
  'ballotpedia',
  'followthemoney_eid',
  'votesmart_id',
  'opensecrets_id',
  'bioguide_id',
  'lis_id',
  'fec_ids',
  'openstates_id',
  'person_hash',
  'external_ids',
  'active',
  'source',
  'updated',
];

function district(abbr: string, body: BodyRow, k: number, rng: Rng): string {
  if (abbr === 'DC') return k < 8 ? `Ward ${k + 1}` : k < 12 ? 'At-Large' : 'Chairman';
  if (abbr === 'US')
    return body.role_id === 1
      ? `HD-${US_STATES[k % US_STATES.length]}-${Math.floor(k / US_STATES.length) + 1}`
      : `SD-${US_STATES[Math.floor(k / 2) % US_STATES.length]}`;
  if (abbr === 'NH' && body.role_id === 1)
    return `${rng.pick(['Hillsborough', 'Rockingham', 'Merrimack', 'Strafford', 'Grafton', 'Cheshire'])} ${rng.int(1, 45)}`;
  return String(k + 1);
}

/** Generates every chamber's members; returns them per body_id (twins included, flagged). */
export function generatePeople(ctx: SeedContext, out: CopyBuffer): Map<number, Member[]> {
  const byBody = new Map<number, Member[]>();
  let seq = 0;
  for (const st of ctx.states) {
    const rng = rngFor(ctx.seed, `people:${st.state_id}`);
    const lean = rng.next();
    // Congress and every fourth state use people_id values above 2^32.
    const wide = st.state_abbr === 'US' || st.state_id % 4 === 0;
    for (const body of ctx.chambers.get(st.state_id) ?? []) {
      const seats = SEATS[st.state_abbr][body.role_id === 1 ? 0 : 1];
      const members: Member[] = [];
      const title = body.body_role_abbr === 'CM' ? 'Councilmember' : body.body_role_abbr + '.';
      for (let k = 0; k < seats; k++) {
        seq++;
        const id = (wide ? TWO_POW_32 : 0) + DEMO_ID_BASE + seq;
        const first = rng.pick(FIRST_NAMES);
        const last = rng.pick(LAST_NAMES);
        const middle = rng.chance(0.4) ? rng.pick(MIDDLE_INITIALS) + '.' : '';
        const suffix = rng.chance(0.04) ? rng.pick(SUFFIXES) : '';
        const party = st.state_abbr === 'NE' ? 6 : rng.chance(0.03) ? 3 : rng.next() < lean ? 1 : 2;
        const combined = COMBINED_NAME_STATES.has(st.state_abbr);
        const fullName = [first, middle, last].filter(Boolean).join(' ') + (suffix ? ` ${suffix}` : '');
        // Combined-name states publish "Rep. Last, First" (or "Sen. First M. Last"); parts are derived.
        const name = combined
          ? rng.chance(0.7)
            ? `${title} ${last}, ${first}${middle ? ' ' + middle : ''}${suffix ? ', ' + suffix : ''}`
            : `${title} ${fullName}`
          : fullName;
        const parts = combined
          ? splitPublishedName(name)
          : { first_name: first, middle_name: middle, last_name: last, suffix, nickname: '' };
        const dist = district(st.state_abbr, body, k, rng);
        const isUS = st.state_abbr === 'US';
        const bioguide = isUS ? `${last[0].toUpperCase()}${String(rng.int(0, 999999)).padStart(6, '0')}` : null;
        const personHash = hex(rng, 8);
        const ext: Record<string, string> = isUS
          ? { bioguide: bioguide as string }
          : { openstates: `ocd-person/${hex(rng, 8)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 12)}` };
        const votesmart = String(rng.int(10000, 199999));
        const ftm = String(rng.int(1000000, 9999999));
        const opensecrets = isUS ? `N000${String(rng.int(10000, 99999))}` : '';
        const lis = isUS && body.role_id === 2 ? `S${String(rng.int(100, 999))}` : null;
        const updated = isoTime(ANCHOR + rng.int(0, 300) * 86_400_000);
        const fec =
          isUS && rng.chance(0.9)
            ? [
                `${body.role_id === 1 ? 'H' : 'S'}${rng.int(0, 9)}${dist.slice(3, 5) || 'XX'}${String(rng.int(0, 99999)).padStart(5, '0')}`,
              ]
            : [];
        const m: Member = {
          people_id: id,
          party_id: party,
          name,
          first_name: parts.first_name,
          last_name: parts.last_name,
          district: dist,
        };
        members.push(m);
        const emit = (pid: number, extra: Record<string, unknown>, active: boolean) =>
          out.row([
            pid,
            st.state_id,
            body.role_id,
            body.body_short,
            body.body_id,
            party,
            PARTY_NAMES[party],
            name,
            parts.first_name,
            parts.middle_name,
            parts.last_name,
            parts.suffix,
            parts.nickname,
            dist,
            `${first}_${last.replace(/\s/g, '_')}`,
            ftm,
            votesmart,
            opensecrets,
            bioguide,
            lis,
            new PgArray(fec),
            ext.openstates ?? null,
            personHash,
            { ...ext, ...extra },
            active,
            'demo',
            updated,
          ]);
        // Split identity: the same person published under a second people_id (same hash, same
        // external ids); records (sponsorships, votes) are partitioned across the two ids.
        if (SPLIT_IDENTITY_STATES.has(st.state_abbr) && k % 20 === 3) {
          const twin = id + 5_000_000;
          m.twin = twin;
          emit(id, { split_identity_with: twin }, true);
          emit(twin, { split_identity_with: id }, true);
        } else {
          emit(id, {}, true);
        }
      }
      byBody.set(body.body_id, members);
    }
  }
  return byBody;
}
