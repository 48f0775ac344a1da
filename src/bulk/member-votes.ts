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
  private constructor(
    private readonly members: Map<number, Member>,
    private readonly names: Map<number, string>,
  ) {}

  /** Reads every person and vote name (in the caller's snapshot). */
  static async load(db: Queryable): Promise<MemberVoteText> {
    const people = await memberDirectory(db);
    const members = new Map(people.map((row, rank) => [Number(row.people_id), { rank, row, texts: new Map() }]));
    return new MemberVoteText(members, await voteNames(db));
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
    const out = new Map<number, RenderedList>();
    if (rollCallIds.length === 0) return out;
    for (const { roll_call_id: rc, votes } of await memberVotePairs(db, rollCallIds)) {
      const list: Array<{ m: Member; vote: string }> = [];
      for (const pair of votes.split(',')) {
        const colon = pair.indexOf(':');
        const m = this.members.get(Number(pair.slice(0, colon)));
        if (!m) continue; // no such person: memberVotes' join leaves the vote out too
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
