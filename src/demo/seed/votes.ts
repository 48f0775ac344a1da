// Roll calls with member votes. Header tallies are what the chamber recorded; in some states the
// published member list is shorter than the header (members missing from the detail list).
import { DAY, SHORT_ROLL_STATES, isoDate, isoTime } from './context.js';
import type { FloorVote } from './ladder.js';
import type { Member } from './people.js';
import type { Rng } from './prng.js';
import type { BillBuffers } from './tables.js';

/** Split identities: records dated from this day on use the person's second people_id. */
export const SPLIT_DAY = Date.UTC(2026, 2, 1);

export const memberId = (m: Member, date: number): number => (m.twin && date >= SPLIT_DAY ? m.twin : m.people_id);

export function writeRollCall(
  rng: Rng,
  t: BillBuffers,
  id: number,
  billId: number,
  abbr: string,
  v: FloorVote,
  members: Member[],
  url: string,
): void {
  const lean = v.passed ? 0.82 : 0.38;
  let yea = 0,
    nay = 0,
    nv = 0,
    absent = 0;
  const rows: [number, number][] = [];
  for (const m of members) {
    const r = rng.next();
    // Members of the bill's majority party vote together more often than not.
    const p = m.party_id === 1 ? lean + 0.08 : lean - 0.08;
    const vote = r < p ? 1 : r < 0.96 ? 2 : r < 0.98 ? 3 : 4;
    if (vote === 1) yea++;
    else if (vote === 2) nay++;
    else if (vote === 3) nv++;
    else absent++;
    rows.push([memberId(m, v.date), vote]);
  }
  // The outcome is decided by the bill's path; turn votes over until the tally agrees with it.
  for (let i = 0; i < rows.length && (v.passed ? yea <= nay : yea >= nay); i++) {
    const [pid, vote] = rows[i];
    if (v.passed && vote === 2) {
      rows[i] = [pid, 1];
      yea++;
      nay--;
    }
    if (!v.passed && vote === 1) {
      rows[i] = [pid, 2];
      yea--;
      nay++;
    }
  }
  const total = members.length;
  t.roll_calls.row([
    id,
    billId,
    v.body_id,
    isoDate(v.date),
    v.description,
    yea,
    nay,
    nv,
    absent,
    total,
    v.passed ? 1 : 0,
    url,
    isoTime(v.date + DAY / 2),
  ]);
  const short = SHORT_ROLL_STATES.has(abbr) && rng.chance(0.3);
  const keep = short ? Math.max(1, total - rng.int(1, Math.max(2, Math.floor(total * 0.05)))) : total;
  for (let i = 0; i < keep; i++) t.roll_call_votes.line(id + '\t' + rows[i][0] + '\t' + rows[i][1] + '\n');
}
