// Roll calls' member votes as the bulk files write them, assembled as text. Member votes are three
// rows in four of a build (35.8 M of 49 M on the 1M corpus), and each is one of few thousand
// people with one of a few vote names: read as rows with their person's fields, each was a row
// parsed, an object, a JSON text and a CSV line made again and again, the largest part of a
// build's CPU. Here each person's text is made once per vote name (with JSON.stringify and the
// CSV encoder on the very row the endpoint would give), a roll call's votes are read as
// `people_id:vote_id` pairs and put in the endpoint's order by each person's rank, and its
// member votes become the JSON array and the CSV lines that those texts make up.
import type { Queryable } from '../db/pool.js';
import {
  memberDirectory,
  memberVotePairs,
  NOT_VOTING,
  voteNames,
  type MemberOfRollCall,
} from '../api/votes/repository.js';
import { csvLines } from './csv.js';
import { tableNamed } from './tables.js';
import type { RenderedList } from './record-types.js';

const TABLE = tableNamed('roll_call_votes');
// A member vote's line is its roll call's id and then the row's cells.
if (TABLE.columns[0] !== 'roll_call_id') throw new Error('bulk: roll_call_votes must start with roll_call_id');
const CELLS = TABLE.columns.slice(1);

interface Member {
  rank: number;
  row: MemberOfRollCall;
  /** JSON and CSV (without the roll call's id) of this person's vote, by vote name */
  texts: Map<string, { json: string; csv: string }>;
}

/** The member votes of a roll call without any. */
export const NO_MEMBER_VOTES: RenderedList = { key: 'member_votes', table: TABLE.name, json: '[]', csv: '', rows: 0 };

export class MemberVoteText {
  private readonly members = new Map<number, Member>();
  /** ids of votes' people that are in no row of people (memberVotes' join leaves their votes out) */
  private readonly nobody = new Set<number>();

  private constructor(private readonly names: Map<number, string>) {}

  /**
   * Reads the people of a jurisdiction and the vote names (in the caller's snapshot). Whoever else
   * votes in its roll calls is read when first met: a lane holds one jurisdiction's people
   * (about 150) instead of everyone (8,000 on the 1M corpus, 3.4 MiB of V8 heap per lane).
   */
  static async load(db: Queryable, stateId: number): Promise<MemberVoteText> {
    const text = new MemberVoteText(await voteNames(db));
    text.add(await memberDirectory(db, { stateId }));
    return text;
  }

  private add(rows: Array<MemberOfRollCall & { rank: number }>) {
    for (const { rank, ...row } of rows) this.members.set(Number(row.people_id), { rank, row, texts: new Map() });
  }

  /** The text of one person's vote: the row memberVotes gives, without `_rc`, in its key order. */
  private text(m: Member, vote: string) {
    let t = m.texts.get(vote);
    if (!t) {
      const row: Record<string, unknown> = { ...m.row, vote };
      t = { json: JSON.stringify(row), csv: csvLines([CELLS.map((c) => row[c])]) };
      m.texts.set(vote, t);
    }
    return t;
  }

  /** The member votes of roll calls, by roll call id (a roll call without any has none here). */
  async of(db: Queryable, rollCallIds: number[]): Promise<Map<number, RenderedList>> {
    if (rollCallIds.length === 0) return new Map();
    const pairs = await memberVotePairs(db, rollCallIds);
    const unknown = new Set<number>();
    const out = this.assemble(pairs, unknown);
    if (unknown.size === 0) return out;
    // people from outside the jurisdiction: read them, and assemble again
    this.add(await memberDirectory(db, { ids: [...unknown] }));
    for (const id of unknown) if (!this.members.has(id)) this.nobody.add(id);
    return this.assemble(pairs, unknown);
  }

  /** The lists of these pairs; the ids of people neither known nor known absent go into `unknown`. */
  private assemble(pairs: Array<{ roll_call_id: number; votes: string }>, unknown: Set<number>) {
    const out = new Map<number, RenderedList>();
    for (const { roll_call_id: rc, votes } of pairs) {
      const list: Array<{ m: Member; vote: string }> = [];
      for (const pair of votes.split(',')) {
        const colon = pair.indexOf(':');
        const id = Number(pair.slice(0, colon));
        const m = this.members.get(id);
        if (!m) {
          // no such person: memberVotes' join leaves the vote out too
          if (!this.nobody.has(id)) unknown.add(id);
          continue;
        }
        const voteId = pair.slice(colon + 1);
        list.push({ m, vote: (voteId === '' ? undefined : this.names.get(Number(voteId))) ?? NOT_VOTING });
      }
      list.sort((a, b) => a.m.rank - b.m.rank);
      let json = '';
      let csv = '';
      for (const { m, vote } of list) {
        const t = this.text(m, vote);
        json += json === '' ? t.json : `,${t.json}`;
        csv += `${rc},${t.csv}`;
      }
      out.set(rc, { ...NO_MEMBER_VOTES, json: `[${json}]`, csv, rows: list.length });
    }
    return out;
  }
}

/** A record's JSON with its rendered list as the last key. */
export function withRendered(data: Record<string, unknown>, list: RenderedList): string {
  const head = JSON.stringify(data);
  const tail = `${JSON.stringify(list.key)}:${list.json}}`;
  return head === '{}' ? `{${tail}` : `${head.slice(0, -1)},${tail}`;
}
