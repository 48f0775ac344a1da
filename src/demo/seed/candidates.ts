// Candidates: members of Congress running again (linked to their legislator record, most with an
// FEC id), challengers known only from FEC filings (no people_id), and state legislators with a
// linked record but no FEC data. Candidacies: past and upcoming general elections.
import { DEMO_ID_BASE, type SeedContext } from './context.js';
import type { CopyBuffer } from './copy.js';
import type { Member } from './people.js';
import { rngFor } from './prng.js';
import { FIRST_NAMES, LAST_NAMES } from './words.js';

const TWO_POW_32 = 2 ** 32;
const ELECTIONS: [number, string][] = [
  [2026, '2026-11-03'],
  [2024, '2024-11-05'],
  [2022, '2022-11-08'],
];
const PARTY: Record<number, string> = { 1: 'DEM', 2: 'REP', 3: 'IND', 6: 'NON' };

export function generateCandidates(
  ctx: SeedContext,
  people: Map<number, Member[]>,
  out: CopyBuffer,
  races: CopyBuffer,
): void {
  const rng = rngFor(ctx.seed, 'candidates');
  let seq = 0;
  const contests = new Map<string, number>();
  const contest = (key: string) => {
    let id = contests.get(key);
    if (id === undefined) contests.set(key, (id = DEMO_ID_BASE + contests.size + 1));
    return id;
  };
  // Half the candidate ids sit above 2^32, as in the real candidate source.
  const nextId = () => (++seq % 2 === 0 ? TWO_POW_32 : 0) + DEMO_ID_BASE + seq;
  const us = ctx.states.find((s) => s.state_abbr === 'US');
  const usBodies = us ? (ctx.chambers.get(us.state_id) ?? []) : [];
  for (const body of usBodies) {
    const house = body.role_id === 1;
    for (const m of people.get(body.body_id) ?? []) {
      const [, st, dist] = m.district.split('-');
      const office = house ? 'House' : 'Senate';
      const district = house ? dist.padStart(2, '0') : '00';
      const contestKey = (year: number) => `${year}:${office}:${st}:${district}`;
      const party = PARTY[m.party_id] ?? 'IND';
      const incId = nextId();
      const fec = rng.chance(0.9)
        ? `${house ? 'H' : 'S'}${rng.int(0, 9)}${st}${String(rng.int(0, 99999)).padStart(5, '0')}`
        : null;
      out.row([
        incId,
        `${m.first_name} ${m.last_name}`,
        party,
        '',
        m.people_id,
        fec,
        office,
        st,
        district,
        2026,
        'I',
        null,
        `${m.first_name} ${m.last_name} represents ${st}.`,
        `https://${m.last_name.toLowerCase().replace(/[^a-z]/g, '')}.example.com`,
        { x: `@${m.last_name.replace(/[^A-Za-z]/g, '')}${rng.int(1, 99)}` },
        '',
        '',
      ]);
      const years = ELECTIONS.filter(([y]) => house || y === 2026 || rng.chance(0.2));
      for (const [year, date] of years) {
        const won = year < 2026;
        const pct = won ? 50 + rng.int(1, 300) / 10 : 0;
        races.row([
          incId,
          contest(contestKey(year)),
          party,
          year === 2026,
          false,
          won ? rng.int(80_000, 300_000) : 0,
          pct,
          won,
          'General Election',
          date,
          house ? `U.S. House ${st} District ${Number(district)}` : `U.S. Senate ${st}`,
          'federal',
          office,
          house ? district : '',
          year,
          st,
        ]);
      }
      // A challenger for most seats: FEC record only, no legislator link.
      if (rng.chance(0.8)) {
        const cId = nextId();
        const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
        const cParty = party === 'DEM' ? 'REP' : 'DEM';
        out.row([
          cId,
          name,
          cParty,
          '',
          null,
          `${house ? 'H' : 'S'}6${st}${String(rng.int(0, 99999)).padStart(5, '0')}`,
          office,
          st,
          district,
          2026,
          rng.chance(0.8) ? 'C' : 'O',
          null,
          '',
          '',
          {},
          '',
          '',
        ]);
        races.row([
          cId,
          contest(contestKey(2026)),
          cParty,
          false,
          rng.chance(0.1),
          0,
          0,
          false,
          'General Election',
          '2026-11-03',
          house ? `U.S. House ${st} District ${Number(district)}` : `U.S. Senate ${st}`,
          'federal',
          office,
          house ? district : '',
          2026,
          st,
        ]);
      }
    }
  }
  // State legislators on the ballot: linked record, no FEC data (FEC covers federal races only).
  for (const st of ctx.states) {
    if (st.state_abbr === 'US') continue;
    for (const body of ctx.chambers.get(st.state_id) ?? []) {
      for (const m of rng.sample(people.get(body.body_id) ?? [], 3)) {
        const id = nextId();
        out.row([
          id,
          `${m.first_name} ${m.last_name}`,
          PARTY[m.party_id] ?? '',
          '',
          m.people_id,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          '',
          '',
          {},
          '',
          rng.chance(0.5) ? `https://ballotpedia.example.org/${m.first_name}_${m.last_name.replace(/\s/g, '_')}` : '',
        ]);
        if (rng.chance(0.8)) {
          races.row([
            id,
            contest(`2026:${body.body_id}:${m.district}`),
            PARTY[m.party_id] ?? '',
            true,
            false,
            0,
            0,
            false,
            'General Election',
            '2026-11-03',
            `${st.state_name} ${body.body_name} District ${m.district}`,
            'state',
            body.body_short,
            m.district,
            2026,
            st.state_abbr,
          ]);
        }
      }
    }
  }
}
