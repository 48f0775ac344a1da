// Stored LegiScan rows against the API's answers, field by field. The only differences allowed
// are the documented wire conventions: ids through the mirror's id map (LegiScan's own ids pass
// through), LegiScan's status codes, HD-/SD- districts, HH:MM times, "0000-00-00" or NULL for an
// unknown date, a pending committee that cannot be named sent as 0, and values cut to the stock
// column they land in (src/mirror/columns.ts: fit).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Pool } from '../../src/db/pool.js';
import { legiscanFromLadder } from '../../src/domain/legiscan-status.js';
import { COLUMNS, fitString, PERSON_COLUMNS, type Limit } from '../../src/mirror/columns.js';
import { lsDistrict, lsTime } from '../../src/mirror/format.js';
import type { IdKind } from '../../src/mirror/ids.js';
import type { Row, Store } from './legiscan-store.js';

/** `ids`: the mirror's id map read once (loadWireIds), so a comparison of every record asks no query per id */
export interface Ctx {
  app: FastifyInstance;
  key: string;
  db: Pool;
  subId: number;
  base: string;
  ids?: WireIds;
}

/** The wire ids of one mirror, read in three statements: its id map, people's LegiScan ids, committee sponsors. */
export interface WireIds {
  map: Map<string, number>;
  legiscan: Map<number, number>;
  committeePeople: Set<number>;
}

export async function loadWireIds(db: Pool, subId: number): Promise<WireIds> {
  const map = new Map<string, number>();
  for (const r of (
    await db.query<{ kind: string; local_id: string; wire_id: string }>(
      'SELECT kind, local_id::text, wire_id::text FROM mirror_ids WHERE subscription_id = $1',
      [subId],
    )
  ).rows) {
    map.set(`${r.kind}:${r.local_id}`, Number(r.wire_id));
  }
  const legiscan = new Map<number, number>();
  for (const r of (
    await db.query<{ p: string; l: string }>(
      'SELECT people_id::text AS p, legiscan_id::text AS l FROM people WHERE legiscan_id IS NOT NULL',
    )
  ).rows)
    legiscan.set(Number(r.p), Number(r.l));
  const ids: WireIds = { map, legiscan, committeePeople: new Set() };
  const committees = (await db.query<{ people_id: string }>('SELECT people_id FROM people WHERE committee_id > 0'))
    .rows;
  for (const r of committees) ids.committeePeople.add(wireFrom(ids, 'people', Number(r.people_id)));
  return ids;
}

function wireFrom(ids: WireIds, kind: IdKind, local: number): number {
  return ids.map.get(`${kind}:${local}`) ?? (kind === 'people' ? ids.legiscan.get(local) : undefined) ?? local;
}

const VOTE_IDS: Record<string, number> = { Yea: 1, Nay: 2, 'Not Voting': 3, NV: 3, Absent: 4 };
const day = (v: unknown) => (v === null || v === undefined || v === '0000-00-00' ? null : String(v).slice(0, 10));
const num = (v: unknown) => (v === null || v === undefined ? v : Number(v));

async function api(c: Ctx, url: string): Promise<any> {
  const r = await c.app.inject({ method: 'GET', url, headers: { 'x-api-key': c.key } });
  expect(r.statusCode, url).toBe(200);
  return r.json().data;
}

/** The wire id the mirror sent for one of our ids. */
export async function wire(c: Ctx, kind: IdKind, local: number | null): Promise<number> {
  if (!local) return 0;
  if (c.ids) return wireFrom(c.ids, kind, local);
  const { rows } = await c.db.query<{ w: number }>(
    'SELECT wire_id AS w FROM mirror_ids WHERE subscription_id = $1 AND kind = $2 AND local_id = $3',
    [c.subId, kind, local],
  );
  if (rows[0]) return rows[0].w;
  if (kind === 'people') {
    const p = await c.db.query<{ l: string | null }>('SELECT legiscan_id::text AS l FROM people WHERE people_id = $1', [
      local,
    ]);
    if (p.rows[0]?.l) return Number(p.rows[0].l);
  }
  return local;
}

/** An API string as the mirror fits it for a column (root field, or a list's field). */
const fit = (v: unknown, limit: Limit | undefined) => (limit && !('max' in limit) ? fitString(v, limit) : v);
const B = COLUMNS.bill!;
const L = (list: string, field: string) => (v: unknown) => fit(v, B.lists![list]![field]);
/** A document stored with a size and md5 that describe it. */
function docConsistent(label: string, doc: unknown, size: unknown, hash: unknown) {
  if (doc === null || doc === undefined) return;
  const bytes = Buffer.from(doc as Buffer);
  expect([Number(size), String(hash)], label).toEqual([bytes.length, createHash('md5').update(bytes).digest('hex')]);
}

const byKey = (k: string) => (a: Row, b: Row) =>
  Number(a[k]) - Number(b[k]) || String(a[k]).localeCompare(String(b[k]));

export async function compareBill(c: Ctx, s: Store, id: number, label: string): Promise<void> {
  // the bill with every part in one request (include= embeds exactly each part's own endpoint)
  const b = await api(c, `/v1/bills/${id}?include=all`);
  const W = await wire(c, 'bill', id);
  const [row] = await s.query('SELECT * FROM ls_bill WHERE bill_id = ?', [W]);
  expect(row, `${label}: ls_bill row`).toBeDefined();
  const {
    rows: [own],
  } = await c.db.query<{ legiscan_status: number | null }>('SELECT legiscan_status FROM bills WHERE bill_id = $1', [
    id,
  ]);
  expect({ ...row, status_date: day(row!.status_date), bill_type_id: num(row!.bill_type_id) }, label).toMatchObject({
    state_id: b.state_id,
    session_id: await wire(c, 'session', b.session_id),
    body_id: b.body_id,
    current_body_id: b.current_body_id,
    bill_type_id: b.bill_type_id,
    bill_number: fit(b.bill_number, B.fields.bill_number),
    status_id: own!.legiscan_status ?? legiscanFromLadder(b.status_id).status,
    status_date: day(b.status_date),
    title: fit(b.title, B.fields.title),
    description: fit(b.description, B.fields.description),
    state_url: fit(b.state_url, B.fields.state_link),
  });
  expect(row!.change_hash).toMatch(/^[0-9a-f]{32}$/);
  const url = String(row!.legiscan_url);
  if (url.startsWith(c.base)) await api(c, url.slice(c.base.length));
  else expect(url, label).toMatch(/^https?:\/\/legiscan\.com\//);
  // pending committee: the named committee, or 0 when this service cannot name it
  const pending = Number(row!.pending_committee_id);
  if (pending !== 0) {
    expect(pending, label).toBe(await wire(c, 'committee', b.pending_committee_id));
    expect(
      await s.query('SELECT committee_name FROM ls_committee WHERE committee_id = ?', [pending]),
      label,
    ).toHaveLength(1);
  } else if (b.pending_committee_id) {
    const named = await c.db.query(
      `SELECT 1 FROM committees WHERE committee_id = $1 UNION ALL SELECT 1 FROM bill_referrals WHERE bill_id = $2 AND committee_id = $1 AND committee_name <> ''`,
      [b.pending_committee_id, id],
    );
    expect(named.rows, `${label}: a nameable pending committee was not sent`).toEqual([]);
  }

  const sub = async (what: string) => {
    expect(Array.isArray(b[what]), `${label}: include=all embeds ${what}`).toBe(true);
    return b[what] as any[];
  };
  const q = (sql: string) => s.query(sql, [W]);
  const history = (await sub('history')).sort(byKey('history_step'));
  expect(
    (await q('SELECT * FROM ls_bill_history WHERE bill_id = ? ORDER BY history_step')).map((h) => [
      day(h.history_date),
      h.history_action,
      num(h.history_body_id),
      num(h.history_major),
    ]),
    `${label} history`,
  ).toEqual(
    history.map((h) => [
      day(h.history_date),
      L('history', 'action')(h.history_action),
      h.history_body_id,
      h.history_major,
    ]),
  );

  // A committee sponsor is people_id 0 in the API and LegiScan's committee people record on the wire.
  const committees =
    c.ids?.committeePeople ??
    new Set(
      await Promise.all(
        (await c.db.query<{ people_id: string }>('SELECT people_id FROM people WHERE committee_id > 0')).rows.map((r) =>
          wire(c, 'people', Number(r.people_id)),
        ),
      ),
    );
  const sponsorKey = (x: { people_id: unknown; sponsor_order: unknown }) =>
    `${String(x.sponsor_order)}:${String(x.people_id)}`;
  const sponsors = await Promise.all(
    (await sub('sponsors')).map(async (p) => ({
      people_id: p.people_id === 0 ? 'committee' : await wire(c, 'people', p.people_id),
      sponsor_order: p.sponsor_order,
      sponsor_type_id: p.sponsor_type_id,
    })),
  );
  expect(
    (await q('SELECT people_id, sponsor_order, sponsor_type_id FROM ls_bill_sponsor WHERE bill_id = ?'))
      .map((r) => ({
        people_id: committees.has(Number(r.people_id)) ? 'committee' : num(r.people_id),
        sponsor_order: num(r.sponsor_order),
        sponsor_type_id: num(r.sponsor_type_id),
      }))
      .sort((x, y) => sponsorKey(x).localeCompare(sponsorKey(y))),
    `${label} sponsors`,
  ).toEqual(sponsors.sort((x, y) => sponsorKey(x).localeCompare(sponsorKey(y))));

  const subjects = await Promise.all(
    (await sub('subjects')).map(async (x) => ({
      subject_id: await wire(c, 'subject', x.subject_id),
      subject_name: L('subjects', 'subject_name')(x.subject_name),
    })),
  );
  expect(
    (
      await q(
        'SELECT s.subject_id, s.subject_name FROM ls_bill_subject b JOIN ls_subject s ON s.subject_id = b.subject_id WHERE b.bill_id = ?',
      )
    )
      .map((r) => ({ ...r, subject_id: num(r.subject_id) }))
      .sort(byKey('subject_id')),
    `${label} subjects`,
  ).toEqual(subjects.sort(byKey('subject_id')));

  const texts = await Promise.all(
    (await sub('texts')).map(async (x) => ({
      id: await wire(c, 'text', x.text_id),
      date: day(x.text_date),
      type_id: x.bill_text_type_id,
      state_url: L('texts', 'state_link')(x.state_url),
      doc: true,
    })),
  );
  const storedTexts = await q('SELECT * FROM ls_bill_text WHERE bill_id = ?');
  for (const r of storedTexts)
    docConsistent(`${label} text ${r.text_id}`, r.bill_text_doc, r.bill_text_size, r.bill_text_hash);
  expect(
    storedTexts
      .map((r) => ({
        id: num(r.text_id),
        date: day(r.bill_text_date),
        type_id: num(r.bill_text_type_id),
        state_url: r.state_url,
        doc: r.bill_text_doc !== null,
      }))
      .sort(byKey('id')),
    `${label} texts`,
  ).toEqual(texts.sort(byKey('id')));

  const votes = await sub('votes');
  const wv = await Promise.all(
    votes.map(async (v) => ({
      id: await wire(c, 'roll_call', v.roll_call_id),
      date: day(v.vote_date),
      desc: L('votes', 'desc')(v.description),
      yea: v.yea,
      nay: v.nay,
      nv: v.nv,
      absent: v.absent,
      total: v.total,
      passed: v.passed,
      body: v.roll_call_body_id,
    })),
  );
  expect(
    (await q('SELECT * FROM ls_bill_vote WHERE bill_id = ?'))
      .map((r) => ({
        id: num(r.roll_call_id),
        date: day(r.roll_call_date),
        desc: r.roll_call_desc,
        yea: num(r.yea),
        nay: num(r.nay),
        nv: num(r.nv),
        absent: num(r.absent),
        total: num(r.total),
        passed: num(r.passed),
        body: num(r.roll_call_body_id),
      }))
      .sort(byKey('id')),
    `${label} votes`,
  ).toEqual(wv.sort(byKey('id')));
  for (const v of votes) {
    const members = await Promise.all(
      ((await api(c, `/v1/votes/${v.roll_call_id}/details`)) as any[]).map(async (m) => ({
        people_id: await wire(c, 'people', m.people_id),
        vote_id: VOTE_IDS[m.vote],
      })),
    );
    expect(
      (
        await s.query('SELECT people_id, vote_id FROM ls_bill_vote_detail WHERE roll_call_id = ?', [
          await wire(c, 'roll_call', v.roll_call_id),
        ])
      )
        .map((r) => ({ people_id: num(r.people_id), vote_id: num(r.vote_id) }))
        .sort(byKey('people_id')),
      `${label} roll call ${v.roll_call_id}`,
    ).toEqual(members.sort(byKey('people_id')));
  }

  // An outcome the source does not publish (null) goes out as LegiScan's NOT NULL default, 0.
  const amendments = await Promise.all(
    (await sub('amendments')).map(async (a) => ({
      id: await wire(c, 'amendment', a.amendment_id),
      adopted: a.adopted ?? 0,
      body: a.amendment_body_id,
      date: day(a.amendment_date),
      title: L('amendments', 'title')(a.amendment_title),
      desc: L('amendments', 'description')(a.amendment_desc),
      doc: true,
    })),
  );
  const storedAmendments = await q('SELECT * FROM ls_bill_amendment WHERE bill_id = ?');
  for (const r of storedAmendments)
    docConsistent(`${label} amendment ${r.amendment_id}`, r.amendment_doc, r.amendment_size, r.amendment_hash);
  expect(
    storedAmendments
      .map((r) => ({
        id: num(r.amendment_id),
        adopted: num(r.adopted),
        body: num(r.amendment_body_id),
        date: day(r.amendment_date),
        title: r.amendment_title,
        desc: r.amendment_desc,
        doc: r.amendment_doc !== null,
      }))
      .sort(byKey('id')),
    `${label} amendments`,
  ).toEqual(amendments.sort(byKey('id')));

  const supplements = await Promise.all(
    (await sub('supplements')).map(async (x) => ({
      id: await wire(c, 'supplement', x.supplement_id),
      type_id: x.supplement_type_id,
      date: day(x.supplement_date),
      title: L('supplements', 'title')(x.title),
      desc: L('supplements', 'description')(x.description),
      doc: true,
    })),
  );
  const storedSupplements = await q('SELECT * FROM ls_bill_supplement WHERE bill_id = ?');
  for (const r of storedSupplements)
    docConsistent(`${label} supplement ${r.supplement_id}`, r.supplement_doc, r.supplement_size, r.supplement_hash);
  expect(
    storedSupplements
      .map((r) => ({
        id: num(r.supplement_id),
        type_id: num(r.supplement_type_id),
        date: day(r.supplement_date),
        title: r.supplement_title,
        desc: r.supplement_desc,
        doc: r.supplement_doc !== null,
      }))
      .sort(byKey('id')),
    `${label} supplements`,
  ).toEqual(supplements.sort(byKey('id')));

  const referrals = (await sub('referrals')).sort(byKey('referral_step'));
  const stored = await q(
    'SELECT r.referral_date, r.committee_id, c.committee_name FROM ls_bill_referral r LEFT JOIN ls_committee c ON c.committee_id = r.committee_id WHERE r.bill_id = ? ORDER BY r.referral_step',
  );
  expect(
    stored.map((r) => [day(r.referral_date), num(r.committee_id)]),
    `${label} referrals`,
  ).toEqual(
    await Promise.all(referrals.map(async (r) => [day(r.referral_date), await wire(c, 'committee', r.committee_id)])),
  );
  referrals.forEach(
    (r, i) =>
      r.committee_name &&
      expect(stored[i]!.committee_name, `${label} referral ${i}`).toBe(L('referrals', 'name')(r.committee_name)),
  );

  const calendar = (await sub('calendar')).map((e) => ({
    hash: e.event_hash,
    type_id: e.event_type_id,
    date: day(e.event_date),
    time: `${lsTime(e.event_time)}:00`,
    location: L('calendar', 'location')(e.event_location),
    desc: L('calendar', 'description')(e.event_desc),
  }));
  expect(
    (await q('SELECT * FROM ls_bill_calendar WHERE bill_id = ?'))
      .map((r) => ({
        hash: r.event_hash,
        type_id: num(r.event_type_id),
        date: day(r.event_date),
        time: String(r.event_time),
        location: r.event_location,
        desc: r.event_desc,
      }))
      .sort((a, b) => String(a.hash).localeCompare(String(b.hash))),
    `${label} calendar`,
  ).toEqual(calendar.sort((a, b) => a.hash.localeCompare(b.hash)));
}

export async function comparePerson(c: Ctx, s: Store, id: number, label: string): Promise<void> {
  const p = await api(c, `/v1/legislators/${id}`);
  const [row] = await s.query('SELECT * FROM ls_people WHERE people_id = ?', [await wire(c, 'people', id)]);
  expect(row, `${label}: ls_people row`).toBeDefined();
  const P = (f: string, v: unknown) => fit(v, PERSON_COLUMNS[f]);
  // char(n) columns come back blank-padded from PostgreSQL
  const opensecrets = row!.opensecrets_id === null ? null : String(row!.opensecrets_id).trimEnd();
  expect(
    {
      ...row,
      state_id: num(row!.state_id),
      role_id: num(row!.role_id),
      party_id: num(row!.party_id),
      opensecrets_id: opensecrets,
    },
    label,
  ).toMatchObject({
    state_id: p.state_id,
    role_id: p.role_id,
    party_id: p.party_id,
    name: P('name', p.name),
    first_name: P('first_name', p.first_name),
    middle_name: P('middle_name', p.middle_name),
    last_name: P('last_name', p.last_name),
    suffix: P('suffix', p.suffix),
    nickname: P('nickname', p.nickname),
    district: lsDistrict(p.district, p.role_id),
    ballotpedia: P('ballotpedia', p.ballotpedia),
    opensecrets_id: P('opensecrets_id', p.opensecrets_id),
  });
}
