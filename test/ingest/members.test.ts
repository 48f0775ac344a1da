// The compact member-vote form the parse workers send (legiscan/members.ts): every roll call of
// the MS 2014 dataset gives the same (person, vote) pairs and the same full entries as the plain
// list, and the worker's chunk parse produces it only when asked.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPACT, compactMembers, eachMember } from '../../src/ingest/legiscan/members.js';
import { list, num } from '../../src/ingest/legiscan/map.js';
import { parsePayload } from '../../src/ingest/legiscan/parse.js';
import { parseWith } from '../../src/ingest/read/parse-chunk.js';
import { legiscanParser } from '../../src/ingest/legiscan/parse-file.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data/legiscan/xml-ms-2014-regular/vote');
const present = existsSync(DATA);
if (!present) console.warn(`compact member votes on real files skipped: ${DATA} is absent`);

type Obj = Record<string, unknown>;
const members = (rc: Obj) => {
  const out: [number, number, Obj][] = [];
  eachMember(rc, (lid, vote, entry) => out.push([lid, vote, entry()]));
  return out;
};

describe('compact member votes', () => {
  it.skipIf(!present)('match the plain member list on every MS 2014 roll call', () => {
    let n = 0;
    for (const name of readdirSync(DATA)) {
      const body = readFileSync(path.join(DATA, name), 'utf8');
      const plain = parsePayload('vote', name, body);
      const compact = parsePayload('vote', name, body);
      compactMembers(compact);
      expect(compact.votes).toBeUndefined();
      expect(members(compact)).toEqual(members(plain));
      n += list(plain.votes).length;
    }
    expect(n).toBeGreaterThan(100_000);
  });

  it('reads vote ids from vote_text when vote_id is missing, and leaves unusable person ids 0 with their entry', () => {
    const rc: Obj = {
      roll_call_id: 1,
      votes: [
        { people_id: '12', vote_id: '', vote_text: 'Aye' },
        { people_id: 'x', vote_text: 'No' },
        { people_id: 3e9, vote_text: 'Absent' },
        { people_id: 5, vote_text: 'Excused' },
      ],
    };
    compactMembers(rc);
    const got = members(rc);
    expect(got.map(([lid, vote]) => [lid, vote])).toEqual([
      [12, 1],
      [0, 2],
      [0, 4],
      [5, 3],
    ]);
    expect(num(got[2]![2].people_id)).toBe(3e9);
  });

  it('is made by the chunk parse only when the request asks for it', () => {
    const file = path.join(os.tmpdir(), `lds-members-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ roll_call: { roll_call_id: 7, votes: [{ people_id: 1, vote_id: 2 }] } }));
    try {
      const read = (compact: boolean) => parseWith(legiscanParser('vote', compact), [file])[0]!.data!;
      expect(read(false).votes).toEqual([{ people_id: 1, vote_id: 2 }]);
      expect(read(false)[COMPACT]).toBeUndefined();
      expect(read(true).votes).toBeUndefined();
      expect(read(true)[COMPACT]).toEqual({ pairs: new Int32Array([1, 2]), json: '[{"people_id":1,"vote_id":2}]' });
    } finally {
      rmSync(file, { force: true });
    }
  });
});
