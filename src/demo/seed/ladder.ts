// A bill's path up the status ladder (1 Introduced, 2 In Committee, 3 Passed One Chamber,
// 4 Passed Both Chambers, 5 Signed, 6 Vetoed, 7 Failed / Dead, 8 Chaptered): the history steps,
// committee referrals and floor votes, consistent with the final status and with each other.
import { DAY } from './context.js';
import type { CommitteeInfo } from './committees.js';
import type { Rng } from './prng.js';

export interface Step {
  date: number;
  action: string;
  body_id: number;
  major: number;
}

export interface FloorVote {
  date: number;
  body_id: number;
  passed: boolean;
  description: string;
  /** false for a voice vote: the action is in the history, but there is no roll call */
  recorded: boolean;
}

export interface Path {
  status: number;
  statusDate: number;
  steps: Step[];
  referrals: { committee: CommitteeInfo; date: number }[];
  votes: FloorVote[];
  pendingCommittee: number | null;
  /** the body holding the bill now */
  currentBody: number;
}

export interface PathInput {
  status: number;
  start: number;
  /** no step is dated after this */
  limit: number;
  origin: { body_id: number; name: string; committees: CommitteeInfo[] };
  other: { body_id: number; name: string; committees: CommitteeInfo[] } | null;
  executive: string;
  resolution: boolean;
  prefiled: boolean;
}

export function walkLadder(rng: Rng, p: PathInput): Path {
  const steps: Step[] = [];
  const referrals: Path['referrals'] = [];
  const votes: FloorVote[] = [];
  let date = p.start;
  let statusDate = p.start;
  let currentBody = p.origin.body_id;
  let pendingCommittee: number | null = null;
  const advance = (min: number, max: number) => {
    date = Math.min(p.limit, date + rng.int(min, max) * DAY);
    return date;
  };
  const step = (action: string, body: number, major = 0) => steps.push({ date, action, body_id: body, major });
  const final = p.status;
  // Dead bills die somewhere on the way; pick how far they got.
  const reach =
    final === 7
      ? rng.weighted([
          [2, 6],
          [3, 3],
          [4, 1],
        ] as const)
      : final === 6
        ? 4
        : final;

  step(p.prefiled ? 'Prefiled and referred for introduction' : 'Introduced and read first time', p.origin.body_id, 1);
  if (reach >= 2 || final === 7) {
    const c = p.origin.committees.length ? rng.pick(p.origin.committees) : null;
    advance(0, 6);
    if (c) {
      referrals.push({ committee: c, date });
      step(`Referred to ${c.name}`, p.origin.body_id, 1);
      pendingCommittee = c.committee_id;
    } else {
      step('Referred to committee', p.origin.body_id, 1);
    }
    statusDate = date;
  }
  if (reach >= 3) {
    advance(5, 40);
    step(rng.pick(['Reported favorably', 'Do pass as amended', 'Reported with amendments']), p.origin.body_id);
    advance(1, 14);
    const desc = p.resolution
      ? 'Adoption'
      : rng.pick(['Third Reading', 'Final Passage', 'Third Reading and Final Passage']);
    const failsHere = final === 7 && reach === 3 && rng.chance(0.3);
    // Most simple resolutions are adopted by voice vote, with no roll call to record.
    const voice = p.resolution && !failsHere && rng.chance(0.8);
    votes.push({ date, body_id: p.origin.body_id, passed: !failsHere, description: desc, recorded: !voice });
    if (failsHere) {
      step(`Failed ${desc.toLowerCase()} in ${p.origin.name}`, p.origin.body_id, 1);
    } else {
      step(
        p.resolution ? `Adopted by ${p.origin.name}${voice ? ' by voice vote' : ''}` : `Passed ${p.origin.name}`,
        p.origin.body_id,
        1,
      );
      pendingCommittee = null;
      statusDate = date;
      if (p.other) {
        advance(1, 7);
        currentBody = p.other.body_id;
        const c2 = p.other.committees.length ? rng.pick(p.other.committees) : null;
        step(
          c2 ? `Received in ${p.other.name}; referred to ${c2.name}` : `Received in ${p.other.name}`,
          p.other.body_id,
        );
        if (c2) {
          referrals.push({ committee: c2, date });
          pendingCommittee = c2.committee_id;
        }
      }
    }
  }
  if (reach >= 4 && !(final === 7 && reach === 3)) {
    if (p.other) {
      advance(7, 45);
      const failsHere = final === 7;
      const voice = p.resolution && !failsHere && rng.chance(0.8);
      votes.push({
        date,
        body_id: p.other.body_id,
        passed: !failsHere,
        description: p.resolution ? 'Adoption' : 'Final Passage',
        recorded: !voice,
      });
      if (failsHere) {
        step(`Failed final passage in ${p.other.name}`, p.other.body_id, 1);
      } else {
        step(
          p.resolution ? `Adopted by ${p.other.name}${voice ? ' by voice vote' : ''}` : `Passed ${p.other.name}`,
          p.other.body_id,
          1,
        );
        pendingCommittee = null;
        statusDate = date;
      }
    } else if (final !== 7) {
      statusDate = date;
    }
  }
  if (final === 5 || final === 6 || final === 8) {
    advance(2, 10);
    step(`Sent to ${p.executive}`, currentBody);
    advance(3, 20);
    step(final === 6 ? `Vetoed by ${p.executive}` : `Signed by ${p.executive}`, currentBody, 1);
    statusDate = date;
    if (final === 8) {
      advance(1, 10);
      step(
        `Chaptered by Secretary of State, Chapter ${rng.int(1, 900)}, Statutes of ${new Date(date).getUTCFullYear()}`,
        currentBody,
        1,
      );
      statusDate = date;
    }
  }
  if (final === 7 && /referred/i.test(steps[steps.length - 1].action)) {
    advance(30, 120);
    step(rng.pick(['Died in committee', 'Held in committee', 'Indefinitely postponed']), currentBody, 1);
    statusDate = date;
  }
  if (final >= 5) pendingCommittee = null;
  return { status: final, statusDate, steps, referrals, votes, pendingCommittee, currentBody };
}
