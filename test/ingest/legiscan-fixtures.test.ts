// LegiScan importer on small fixtures written here: first import, idempotent re-import, a newer
// dataset driving StatusChange/Text/Vote/Amendment changes, and malformed files skipped with
// their file and field named while the rest continues.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLegiscan } from '../../src/ingest/legiscan/import.js';
import { LADDER_TO_LEGISCAN, LEGISCAN_TO_LADDER, ladderFromLegiscan } from '../../src/domain/legiscan-status.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let db: TestDatabase;
let dir: string;

const person = {
  people_id: 9001,
  state_id: 24,
  party_id: '2',
  party: 'R',
  role_id: 1,
  role: 'Rep',
  name: 'Pat Example',
  first_name: 'Pat',
  middle_name: '',
  last_name: 'Example',
  suffix: '',
  nickname: '',
  district: 'HD-001',
  ftm_eid: 123,
  votesmart_id: 456,
  opensecrets_id: '',
  ballotpedia: 'Pat_Example',
  bioguide_id: '',
  knowwho_pid: 7,
};

function bill(version: 1 | 2) {
  return {
    bill: {
      bill_id: 777001,
      change_hash: `hash${version}`,
      session_id: 5001,
      session: {
        session_id: 5001,
        state_id: 24,
        year_start: 2024,
        year_end: 2024,
        special: 0,
        session_name: '2024 Regular Session',
        session_title: '2024 Regular Session',
      },
      url: 'https://legiscan.com/MS/bill/HB9/2024',
      state_link: 'https://example.test/HB9',
      completed: 0,
      status: version === 1 ? 1 : 2,
      status_date: version === 1 ? '2024-01-10' : '2024-02-01',
      progress:
        version === 1
          ? [{ date: '2024-01-10', event: 1 }]
          : [
              { date: '2024-01-10', event: 1 },
              { date: '2024-02-01', event: 2 },
            ],
      state: 'MS',
      state_id: 24,
      bill_number: 'HB9',
      bill_type: 'B',
      bill_type_id: '1',
      body: 'H',
      body_id: 57,
      current_body: 'H',
      current_body_id: 57,
      title: 'Farm roads',
      description: 'An act about farm roads',
      committee: [],
      pending_committee_id: 0,
      history: [
        { date: '2024-01-10', action: 'Introduced', chamber: 'H', chamber_id: 57, importance: 1 },
        ...(version === 2
          ? [{ date: '2024-02-01', action: 'Passed House', chamber: 'H', chamber_id: 57, importance: 1 }]
          : []),
      ],
      sponsors: [{ ...person, sponsor_type_id: 1, sponsor_order: 1, committee_sponsor: 0, committee_id: 0 }],
      subjects: [
        { subject_id: 4401, subject_name: 'Agriculture' },
        { subject_id: 4402, subject_name: 'Highways' },
      ],
      texts: [
        {
          doc_id: 880001,
          date: '2024-01-10',
          type: 'Introduced',
          type_id: 1,
          mime: 'text/html',
          mime_id: 1,
          state_link: '',
          text_size: 10,
          text_hash: '',
        },
        ...(version === 2
          ? [
              {
                doc_id: 880002,
                date: '2024-02-01',
                type: 'Engrossed',
                type_id: 4,
                mime: 'text/html',
                mime_id: 1,
                state_link: '',
                text_size: 12,
                text_hash: '',
              },
            ]
          : []),
      ],
      votes:
        version === 2
          ? [
              {
                roll_call_id: 990001,
                date: '2024-02-01',
                desc: 'House Passage',
                yea: 1,
                nay: 0,
                nv: 0,
                absent: 0,
                total: 1,
                passed: 1,
                chamber: 'H',
                chamber_id: 57,
                state_link: '',
              },
            ]
          : [],
      amendments:
        version === 2
          ? [
              {
                amendment_id: 660001,
                adopted: 1,
                chamber: 'H',
                chamber_id: 57,
                date: '2024-01-30',
                title: 'Amendment 1',
                description: 'x',
                mime: 'text/html',
                mime_id: 1,
                state_link: '',
                amendment_size: 1,
                amendment_hash: '',
              },
            ]
          : [],
      supplements: [],
      sasts: [],
      calendar: [],
      referrals: [],
    },
  };
}

async function writeDataset(name: string, version: 1 | 2, extra: Record<string, string> = {}): Promise<string> {
  const root = path.join(dir, name);
  for (const f of ['bill', 'people', 'vote', 'text']) await fs.mkdir(path.join(root, f), { recursive: true });
  await fs.writeFile(path.join(root, 'people', '9001.json'), JSON.stringify({ person }));
  await fs.writeFile(path.join(root, 'bill', 'HB9.json'), JSON.stringify(bill(version)));
  await fs.writeFile(
    path.join(root, 'text', '880001.json'),
    JSON.stringify({
      text: {
        doc_id: 880001,
        bill_id: 777001,
        date: '2024-01-10',
        type: 'Introduced',
        type_id: 1,
        mime: 'text/html',
        mime_id: 1,
        doc: Buffer.from('<p>Section 1. Farm roads.</p>').toString('base64'),
      },
    }),
  );
  if (version === 2) {
    await fs.writeFile(
      path.join(root, 'vote', '990001.json'),
      JSON.stringify({
        roll_call: {
          roll_call_id: 990001,
          bill_id: 777001,
          date: '2024-02-01',
          desc: 'House Passage',
          yea: 1,
          nay: 0,
          nv: 0,
          absent: 0,
          total: 1,
          passed: 1,
          chamber: 'H',
          chamber_id: 57,
          votes: [{ people_id: 9001, vote_id: 1, vote_text: 'Yea' }],
        },
      }),
    );
  }
  for (const [file, body] of Object.entries(extra)) await fs.writeFile(path.join(root, file), body);
  return root;
}

const changes = async () =>
  (
    await db.pool.query<{
      reason_id: number;
      old_status: number | null;
      new_status: number | null;
      detail: Record<string, number>;
    }>('SELECT reason_id, old_status, new_status, detail FROM changes ORDER BY change_id')
  ).rows;

beforeAll(async () => {
  db = await freshDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-legiscan-'));
});
afterAll(async () => {
  await db.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('status map', () => {
  it('maps every LegiScan code explicitly and keeps both directions on the ladder', () => {
    expect(
      Object.keys(LEGISCAN_TO_LADDER)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect([1, 9, 10, 2, 3, 4, 5, 6, 7, 8].map(ladderFromLegiscan)).toEqual([1, 2, 2, 3, 4, 5, 6, 7, 5, 8]);
    for (let s = 1; s <= 8; s++) expect(LADDER_TO_LEGISCAN[s]).toBeDefined();
    expect(ladderFromLegiscan(LADDER_TO_LEGISCAN[6]!.status)).toBe(6);
    expect(ladderFromLegiscan(LADDER_TO_LEGISCAN[3]!.status)).toBe(3);
  });
});

describe('LegiScan import on fixtures', () => {
  it('first import records NewBill only, with every part and decoded text', async () => {
    const report = await importLegiscan(db.pool, await writeDataset('v1', 1));
    expect(report.failed).toBe(false);
    expect(report.get('bills').inserted).toBe(1);
    expect((await changes()).map((c) => c.reason_id)).toEqual([1]);
    const b = (
      await db.pool.query('SELECT status_id, legiscan_status, subject_names, source FROM bills WHERE bill_id = 777001')
    ).rows[0];
    expect(b).toEqual({ status_id: 1, legiscan_status: 1, subject_names: 'Agriculture; Highways', source: 'legiscan' });
    const p = (
      await db.pool.query(
        'SELECT people_id, legiscan_id, votesmart_id, followthemoney_eid, ballotpedia, chamber FROM people',
      )
    ).rows;
    expect(p).toEqual([
      {
        people_id: 9001,
        legiscan_id: 9001,
        votesmart_id: '456',
        followthemoney_eid: '123',
        ballotpedia: 'Pat_Example',
        chamber: 'House',
      },
    ]);
    expect((await db.pool.query('SELECT content FROM bill_texts WHERE text_id = 880001')).rows[0].content).toBe(
      'Section 1. Farm roads.\n',
    );
    const topics = (
      await db.pool.query(
        `SELECT t.slug FROM bill_topics b JOIN topics t USING (topic_id) WHERE bill_id = 777001 ORDER BY 1`,
      )
    ).rows.map((r) => r.slug);
    expect(topics).toEqual(['agriculture', 'transportation']);
    expect((await db.pool.query('SELECT bill_count FROM subjects WHERE subject_id = 4401')).rows[0].bill_count).toBe(1);
  });

  it('re-importing the same data writes and records nothing', async () => {
    const before = await changes();
    const updated = (await db.pool.query('SELECT updated FROM bills WHERE bill_id = 777001')).rows[0].updated;
    const report = await importLegiscan(db.pool, path.join(dir, 'v1'));
    expect(report.get('bills')).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    expect(report.get('people')).toMatchObject({ unchanged: 1 });
    expect(await changes()).toEqual(before);
    expect((await db.pool.query('SELECT updated FROM bills WHERE bill_id = 777001')).rows[0].updated).toEqual(updated);
  });

  it('a newer dataset records StatusChange, Text, Vote and Amendment; re-importing it records nothing more', async () => {
    await importLegiscan(db.pool, await writeDataset('v2', 2));
    const rows = (await changes()).slice(1);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason_id: 2, old_status: 1, new_status: 3 }),
        expect.objectContaining({ reason_id: 20, detail: { text_id: 880002 } }),
        expect.objectContaining({ reason_id: 23, detail: { roll_call_id: 990001 } }),
        expect.objectContaining({ reason_id: 21, detail: { amendment_id: 660001 } }),
      ]),
    );
    expect(rows).toHaveLength(4);
    expect(
      (await db.pool.query('SELECT people_id, vote_id FROM roll_call_votes WHERE roll_call_id = 990001')).rows,
    ).toEqual([{ people_id: 9001, vote_id: 1 }]);
    await importLegiscan(db.pool, path.join(dir, 'v2'));
    expect(await changes()).toHaveLength(5);
  });

  it('text documents go in per batch: decoded, the new version queued for its diff, one of an unknown bill skipped, a re-import unchanged', async () => {
    const doc = (id: number, bill: number, date: string, html: string) =>
      JSON.stringify({
        text: {
          doc_id: id,
          bill_id: bill,
          date,
          type: 'Engrossed',
          type_id: 4,
          mime: 'text/html',
          mime_id: 1,
          doc: Buffer.from(html).toString('base64'),
        },
      });
    const root = await writeDataset('v2texts', 2, {
      'text/880002.json': doc(880002, 777001, '2024-02-01', '<p>Section 1. Farm roads and bridges.</p>'),
      'text/880009.json': doc(880009, 123456, '2024-02-01', '<p>Elsewhere.</p>'),
    });
    const first = await importLegiscan(db.pool, root);
    expect(first.get('texts')).toMatchObject({ updated: 1, unchanged: 1, skipped: 1, errors: 0 });
    const t = (await db.pool.query('SELECT content, word_count, size_bytes FROM bill_texts WHERE text_id = 880002'))
      .rows[0];
    expect(t).toEqual({
      content: 'Section 1. Farm roads and bridges.\n',
      word_count: 6,
      size_bytes: Buffer.byteLength('<p>Section 1. Farm roads and bridges.</p>'),
    });
    expect(
      (await db.pool.query('SELECT from_text_id, to_text_id FROM text_diff_queue WHERE bill_id = 777001')).rows,
    ).toEqual([{ from_text_id: 880001, to_text_id: 880002 }]);
    expect((await db.pool.query('SELECT 1 FROM bill_texts WHERE text_id = 880009')).rowCount).toBe(0);
    const again = await importLegiscan(db.pool, root);
    expect(again.get('texts')).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, skipped: 1 });
  });

  it('reports malformed files with file and field, skips them and imports the rest', async () => {
    const root = await writeDataset('bad', 1, {
      'bill/BROKEN.json': '{"bill": {"bill_id": 1,',
      'bill/NOID.json': JSON.stringify({ bill: { ...bill(1).bill, bill_id: undefined, bill_number: 'HB10' } }),
      'vote/1.json': JSON.stringify({ nothing: true }),
    });
    const report = await importLegiscan(db.pool, root);
    expect(report.failed).toBe(true);
    expect(report.get('bills').updated).toBe(1); // the good file (v1 over v2) still went through
    const byFile = Object.fromEntries(report.problems.map((p) => [path.basename(p.file), p]));
    expect(byFile['BROKEN.json']!.message).toMatch(/malformed JSON/);
    expect(byFile['NOID.json']!.field).toBe('bill_id');
    expect(byFile['1.json']!.field).toBe('roll_call');
    expect(report.summary()).toMatch(/NOID\.json \(field bill_id\)/);
  });
});

describe('LegiScan import: a batch that fails in the database', () => {
  it('rolls the batch back, replays it record by record and reports only the bad record', async () => {
    const fresh = await freshDatabase();
    try {
      const root = await writeDataset('replay', 1);
      // A date that looks valid to the reader but not to PostgreSQL: found only when the batch writes.
      const bad = bill(1);
      bad.bill.bill_id = 777002;
      bad.bill.bill_number = 'HB10';
      bad.bill.history = [{ date: '2024-02-30', action: 'Introduced', chamber: 'H', chamber_id: 57, importance: 1 }];
      await fs.writeFile(path.join(root, 'bill', 'HB10.json'), JSON.stringify(bad));
      const report = await importLegiscan(fresh.pool, root);
      expect(report.problems.map((p) => path.basename(p.file))).toEqual(['HB10.json']);
      expect(report.get('bills')).toMatchObject({ inserted: 1, errors: 1 });
      expect(report.get('texts')).toMatchObject({ updated: 1, errors: 0 }); // its header came with the bill
      expect((await fresh.pool.query('SELECT bill_id FROM bills ORDER BY 1')).rows).toEqual([{ bill_id: 777001 }]);
      expect(
        (await fresh.pool.query('SELECT count(*)::int AS n FROM bill_history WHERE bill_id = 777001')).rows[0].n,
      ).toBe(1);
      expect((await fresh.pool.query('SELECT bill_id, reason_id FROM changes')).rows).toEqual([
        { bill_id: 777001, reason_id: 1 },
      ]);
    } finally {
      await fresh.drop();
    }
  });
});

/**
 * A zip with entries in the given order, each stored (method 0, the default), deflated (8) or
 * marked with another method (its bytes left as they are): enough for yauzl and getDataset's layout.
 */
function makeZip(entries: [string, string, number?][]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, body, method = 0] of entries) {
    const raw = Buffer.from(body);
    const data = method === 8 ? zlib.deflateRawSync(raw) : raw;
    const fname = Buffer.from(name);
    const crc = zlib.crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(fname.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(raw.length, 24);
    dir.writeUInt16LE(fname.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, fname, data);
    central.push(dir, fname);
    offset += 30 + fname.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('LegiScan import from a getDataset zip', () => {
  it('reads people, bills, votes and texts from the zip (hash.md5 last), stored or deflated, reporting a malformed or undecodable entry by zip and entry name', async () => {
    const fresh = await freshDatabase();
    try {
      const src = await writeDataset('zipsrc', 2);
      const base = 'MS/2024-2024_Regular_Session';
      const entries: [string, string, number?][] = [];
      for (const f of ['bill', 'people', 'vote', 'text']) {
        // bills and votes deflated, as LegiScan's zips are; people and texts stored
        for (const name of await fs.readdir(path.join(src, f)))
          entries.push([
            `${base}/${f}/${name}`,
            await fs.readFile(path.join(src, f, name), 'utf8'),
            f === 'bill' || f === 'vote' ? 8 : 0,
          ]);
      }
      // a person file without a state (as the XML form has): the dataset's state, from its first bill
      const { state_id: _s, ...stateless } = {
        ...person,
        people_id: 9002,
        name: 'Sam Nostate',
        first_name: 'Sam',
        last_name: 'Nostate',
        ballotpedia: '',
        ftm_eid: 0,
        votesmart_id: 0,
      };
      entries.push([`${base}/people/9002.json`, JSON.stringify({ person: stateless }), 8]);
      entries.push([`${base}/bill/BROKEN.json`, '{"bill": ', 8]);
      entries.push([`${base}/bill/BZIP.json`, 'BZh91AY&SY', 12]);
      entries.push([`${base}/hash.md5`, 'd41d8cd98f00b204e9800998ecf8427e']);
      const zip = path.join(dir, 'MS_2024_Regular_Session.zip');
      await fs.writeFile(zip, makeZip(entries));

      const report = await importLegiscan(fresh.pool, zip);
      expect(report.get('people').inserted).toBe(2);
      expect((await fresh.pool.query('SELECT state_id FROM people WHERE people_id = 9002')).rows).toEqual([
        { state_id: 24 },
      ]);
      expect(report.get('bills')).toMatchObject({ inserted: 1, errors: 2 });
      expect(report.get('roll_calls').errors).toBe(0);
      expect(report.get('texts')).toMatchObject({ updated: 1, errors: 0 }); // its header came with the bill
      expect(report.problems.map((p) => [p.file, p.message])).toEqual([
        [
          expect.stringMatching(/MS_2024_Regular_Session\.zip:MS\/2024-2024_Regular_Session\/bill\/BROKEN\.json$/),
          expect.stringMatching(/malformed JSON/),
        ],
        [
          expect.stringMatching(/MS_2024_Regular_Session\.zip:MS\/2024-2024_Regular_Session\/bill\/BZIP\.json$/),
          'zip compression method 12 is not supported',
        ],
      ]);
      expect((await fresh.pool.query('SELECT status_id FROM bills WHERE bill_id = 777001')).rows).toEqual([
        { status_id: 3 },
      ]);
      expect(
        (await fresh.pool.query('SELECT people_id, vote_id FROM roll_call_votes WHERE roll_call_id = 990001')).rows,
      ).toEqual([{ people_id: 9001, vote_id: 1 }]);
      expect((await fresh.pool.query('SELECT content FROM bill_texts WHERE text_id = 880001')).rows[0].content).toBe(
        'Section 1. Farm roads.\n',
      );

      const again = await importLegiscan(fresh.pool, zip);
      expect(again.get('bills')).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
      expect((await fresh.pool.query('SELECT count(*)::int AS n FROM changes')).rows[0].n).toBe(1);
    } finally {
      await fresh.drop();
    }
  });
});
