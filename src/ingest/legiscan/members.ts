// A roll call's member votes in a compact form made by the parse workers. A vote file is mostly
// its member list (MS 2014: 234,000 {people_id, vote_id, vote_text} objects in 1,923 files), and
// handing those objects to the main thread (structured clone) and walking them there was a large
// share of the import's main-thread time. The worker sends the pairs (LegiScan person id, vote id)
// as one Int32Array and the list itself as a JSON string, which crosses threads as one copy and
// is parsed on the main thread only when a voter is not known yet (a placeholder needs the name).
import { list, num, str } from './map.js';
import type { CompactMembers, LegiscanMemberVote, LegiscanRollCall } from './source.js';

const VOTE_IDS: Record<string, number> = { yea: 1, aye: 1, yes: 1, nay: 2, no: 2, nv: 3, 'not voting': 3, absent: 4 };

/** LegiScan's vote id of a member vote, from vote_id or its text; Not Voting when neither says. */
export const voteId = (v: LegiscanMemberVote): number =>
  num(v.vote_id) || VOTE_IDS[str(v.vote_text).toLowerCase()] || 3;

/** Field the compact form travels in, beside the roll call's own fields. */
export const COMPACT = '_members';

/** Replaces a parsed roll call's `votes` by its compact form (worker side). */
export function compactMembers(rollCall: LegiscanRollCall): void {
  const votes = list(rollCall.votes);
  const pairs = new Int32Array(votes.length * 2);
  for (const [i, v] of votes.entries()) {
    const id = num(v.people_id);
    pairs[2 * i] = Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : 0;
    pairs[2 * i + 1] = voteId(v);
  }
  const compact: CompactMembers = { pairs, json: JSON.stringify(votes) };
  rollCall[COMPACT] = compact;
  delete rollCall.votes;
}

/** The member entries of a roll call, compact or not: (index, person id, vote id, full entry on demand). */
export function eachMember(
  rollCall: LegiscanRollCall,
  fn: (lid: number, vote: number, entry: () => LegiscanMemberVote) => void,
): void {
  const compact = rollCall[COMPACT];
  if (!compact) {
    for (const v of list(rollCall.votes)) fn(num(v.people_id), voteId(v), () => v);
    return;
  }
  let entries: LegiscanMemberVote[] | undefined;
  const { pairs } = compact;
  for (let i = 0; i < pairs.length; i += 2) {
    const at = i / 2;
    // The member list compactMembers wrote out, as it was.
    fn(pairs[i]!, pairs[i + 1]!, () => (entries ??= JSON.parse(compact.json) as LegiscanMemberVote[])[at]!);
  }
}
