// Standing committees per chamber (some with subcommittees), joint committees in Congress, and
// their members: one chair, one vice chair, the rest members.
import { ANCHOR, DEMO_ID_BASE, isoTime, type SeedContext } from './context.js';
import type { CopyBuffer } from './copy.js';
import type { Member } from './people.js';
import { rngFor } from './prng.js';
import { COMMITTEE_NAMES } from './words.js';

export interface CommitteeInfo {
  committee_id: number;
  state_id: number;
  body_id: number;
  chamber: string;
  name: string;
}

export const COMMITTEE_COLUMNS = [
  'committee_id',
  'state_id',
  'body_id',
  'chamber',
  'committee_name',
  'committee_type',
  'description',
  'website_url',
  'meeting_schedule',
  'parent_id',
  'external_ids',
  'source',
  'updated',
];
export const COMMITTEE_MEMBER_COLUMNS = ['committee_id', 'people_id', 'member_role'];

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday'];

export function generateCommittees(
  ctx: SeedContext,
  people: Map<number, Member[]>,
  out: CopyBuffer,
  members: CopyBuffer,
): Map<number, CommitteeInfo[]> {
  const byBody = new Map<number, CommitteeInfo[]>();
  let seq = 0;
  for (const st of ctx.states) {
    const rng = rngFor(ctx.seed, `committees:${st.state_id}`);
    const bodies = [...(ctx.chambers.get(st.state_id) ?? [])];
    const joint = ctx.jointBodies.get(st.state_id);
    if (joint) bodies.push(joint);
    for (const body of bodies) {
      const pool =
        body.role_id === 3
          ? (ctx.chambers.get(st.state_id) ?? []).flatMap((b) => people.get(b.body_id) ?? [])
          : (people.get(body.body_id) ?? []);
      if (pool.length === 0) continue;
      const names =
        body.role_id === 3
          ? ['Joint Economic Committee', 'Joint Committee on Taxation', 'Joint Committee on the Library']
          : rng.sample(COMMITTEE_NAMES, rng.int(8, 14));
      const list: CommitteeInfo[] = [];
      const add = (name: string, type: string, parentId: number | null) => {
        const id = DEMO_ID_BASE + ++seq;
        const chamber = body.body_short;
        list.push({ committee_id: id, state_id: st.state_id, body_id: body.body_id, chamber, name });
        const schedule = `${rng.pick(DAYS)}s, ${rng.pick(['8:00 AM', '9:00 AM', '10:30 AM', '1:30 PM', 'upon adjournment'])}`;
        out.row([
          id,
          st.state_id,
          body.body_id,
          chamber,
          name,
          type,
          `The ${name} committee of the ${st.state_name} ${body.body_name}.`,
          `https://legislature.example.gov/${st.state_abbr.toLowerCase()}/committees/${id}`,
          schedule,
          parentId,
          {},
          'demo',
          isoTime(ANCHOR + rng.int(0, 200) * 86_400_000),
        ]);
        // Twins of split identities are not seated twice: only the first id sits on committees.
        const seated = rng.sample(pool, Math.min(pool.length, rng.int(5, 13)));
        seated.forEach((m, i) => members.row([id, m.people_id, i === 0 ? 'chair' : i === 1 ? 'vice chair' : 'member']));
        return id;
      };
      for (const name of names) {
        const full = body.role_id === 3 ? name : `${body.body_short} ${name}`;
        const id = add(full, body.role_id === 3 ? 'joint' : 'standing', null);
        if (rng.chance(0.15))
          add(
            `${full} Subcommittee on ${rng.pick(['Oversight', 'Budget', 'Rules', 'Operations'])}`,
            'subcommittee',
            id,
          );
      }
      byBody.set(body.body_id, list);
    }
  }
  return byBody;
}
