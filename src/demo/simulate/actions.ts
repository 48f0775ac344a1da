// One simulated legislative action = one transaction: the domain rows (bill, history, referrals,
// roll call with member votes, text version, amendment) plus the change-log rows, through the same
// writer path as every importer (recordChanges). New ids come from the simulator_ids sequence
// (50,000,000+), clear of the demo corpus and importer-allocated ids.
import type { PoolClient } from '../../db/pool.js';
import { recordChanges, type ChangeInput } from '../../changes/record.js';
import { billNumberKey } from '../../domain/bill-number.js';

export type ActionName = 'new_bill' | 'referral' | 'vote' | 'status' | 'text' | 'amendment';

export interface ActionResult {
  action: ActionName;
  state: string;
  bill_number: string;
  what: string;
  changes: number;
}

interface Bill {
  bill_id: number;
  state_id: number;
  state_abbr: string;
  session_id: number;
  bill_number: string;
  body_id: number;
  status_id: number;
  title: string;
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: T[]): T => xs[Math.floor(rng() * xs.length)];

const TOPICS = [
  'school funding',
  'broadband access',
  'water rights',
  'prescription drug prices',
  'rural hospitals',
  'short-term rentals',
  'election audits',
  'wildfire prevention',
  'child care subsidies',
  'data privacy',
  'transit safety',
  'property tax relief',
];
const VERBS = ['Relating to', 'Concerning', 'An act relating to', 'Providing for', 'Establishing'];
const CLAUSES = [
  'The department shall adopt rules to implement this section.',
  'Funds appropriated under this act may not be used for administrative costs exceeding five percent.',
  'A report shall be submitted to the legislature not later than December 1 of each year.',
  'This section expires on June 30, 2031.',
  'A person who violates this section is subject to a civil penalty not to exceed $5,000.',
  'The commission may contract with a third party to carry out the duties under this section.',
  'Local governments may not adopt ordinances more restrictive than this section.',
  'The grant program shall give priority to applicants in underserved counties.',
];

const nextId = async (c: PoolClient) =>
  (await c.query<{ id: number }>(`SELECT nextval('simulator_ids')::int AS id`)).rows[0].id;

async function addHistory(c: PoolClient, b: Bill, action: string, major = 0) {
  await c.query(
    `INSERT INTO bill_history (bill_id, history_step, history_date, history_action, history_body_id, history_major)
     SELECT $1, coalesce(max(history_step), 0) + 1, current_date, $2, $3, $4 FROM bill_history WHERE bill_id = $1`,
    [b.bill_id, action, b.body_id, major],
  );
}

async function setStatus(c: PoolClient, b: Bill, status: number, action: string, changes: ChangeInput[]) {
  await c.query(
    `UPDATE bills SET status_id = $2, status_date = current_date, last_action = $3, last_action_date = current_date, updated = now() WHERE bill_id = $1`,
    [b.bill_id, status, action],
  );
  changes.push({
    bill_id: b.bill_id,
    state_id: b.state_id,
    reason: 'StatusChange',
    old_status: b.status_id,
    new_status: status,
    detail: { action },
  });
  b.status_id = status;
}

/** A random bill of the chosen states whose status is in `statuses`; newest first to keep activity recent. */
async function findBill(
  c: PoolClient,
  states: number[] | null,
  statuses: number[],
  rng: Rng,
): Promise<Bill | undefined> {
  const { rows } = await c.query<Bill>(
    `SELECT b.bill_id, b.state_id, s.state_abbr::text AS state_abbr, b.session_id, b.bill_number, b.body_id, b.status_id, b.title
     FROM bills b JOIN states s USING (state_id)
     WHERE ($1::int[] IS NULL OR b.state_id = ANY ($1)) AND b.status_id = ANY ($2)
     ORDER BY b.updated DESC LIMIT 200`,
    [states, statuses],
  );
  return rows.length ? pick(rng, rows) : undefined;
}

async function newBill(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const { rows } = await c.query<{ session_id: number; state_id: number; state_abbr: string }>(
    `SELECT DISTINCT ON (se.state_id) se.session_id, se.state_id, st.state_abbr::text AS state_abbr
     FROM sessions se JOIN states st USING (state_id)
     WHERE ($1::int[] IS NULL OR se.state_id = ANY ($1)) ORDER BY se.state_id, se.year_start DESC, se.session_id DESC`,
    [states],
  );
  if (!rows.length) return undefined;
  const se = pick(rng, rows);
  const bodies = (
    await c.query<{ body_id: number; body_abbr: string }>(
      'SELECT body_id, body_abbr FROM bodies WHERE state_id = $1 AND role_id IN (1, 2)',
      [se.state_id],
    )
  ).rows;
  const body = bodies.length ? pick(rng, bodies) : { body_id: 0, body_abbr: 'H' };
  const id = await nextId(c);
  const n = (
    await c.query<{ n: number }>(`SELECT count(*)::int + 1 AS n FROM bills WHERE session_id = $1`, [se.session_id])
  ).rows[0].n;
  const number = `${body.body_abbr}B${n}`;
  const title = `${pick(rng, VERBS)} ${pick(rng, TOPICS)}`;
  await c.query(
    `INSERT INTO bills (bill_id, state_id, session_id, bill_number, bill_number_key, body_id, current_body_id, status_id, status_date, title, description, last_action, last_action_date, source)
     VALUES ($1, $2, $3, $4, $5, $6, $6, 1, current_date, $7, $7, 'Introduced', current_date, 'demo')`,
    [id, se.state_id, se.session_id, number, billNumberKey(number), body.body_id, title],
  );
  const b: Bill = {
    bill_id: id,
    state_id: se.state_id,
    state_abbr: se.state_abbr,
    session_id: se.session_id,
    bill_number: number,
    body_id: body.body_id,
    status_id: 1,
    title,
  };
  await addHistory(c, b, 'Introduced and read first time', 1);
  const sponsor = (
    await c.query<{ people_id: number }>(
      'SELECT people_id FROM people WHERE state_id = $1 AND active ORDER BY random() LIMIT 1',
      [se.state_id],
    )
  ).rows[0];
  if (sponsor)
    await c.query(
      `INSERT INTO bill_sponsors (bill_id, people_id, sponsor_order, sponsor_type_id) VALUES ($1, $2, 1, 1)`,
      [id, sponsor.people_id],
    );
  const textId = await nextId(c);
  const content = [title + '.', ...CLAUSES.slice(0, 3)].join('\n\n');
  await c.query(
    `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, size_bytes, word_count, content) VALUES ($1, $2, 1, current_date, $3, $4, $5)`,
    [textId, id, content.length, content.split(/\s+/).length, content],
  );
  await recordChanges(c, [
    { bill_id: id, state_id: se.state_id, reason: 'NewBill', new_status: 1, detail: { text_id: textId } },
  ]);
  return { action: 'new_bill', state: se.state_abbr, bill_number: number, what: title, changes: 1 };
}

async function referral(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const b = await findBill(c, states, [1], rng);
  if (!b) return undefined;
  const com = (
    await c.query<{ committee_id: number; committee_name: string }>(
      'SELECT committee_id, committee_name FROM committees WHERE state_id = $1 ORDER BY random() LIMIT 1',
      [b.state_id],
    )
  ).rows[0] ?? { committee_id: 0, committee_name: 'Committee on Rules' };
  await c.query(
    `INSERT INTO bill_referrals (bill_id, referral_step, committee_id, committee_name, referral_date)
     SELECT $1, coalesce(max(referral_step), 0) + 1, $2, $3, current_date FROM bill_referrals WHERE bill_id = $1`,
    [b.bill_id, com.committee_id, com.committee_name],
  );
  await c.query('UPDATE bills SET pending_committee_id = $2 WHERE bill_id = $1', [b.bill_id, com.committee_id || null]);
  const action = `Referred to ${com.committee_name}`;
  await addHistory(c, b, action);
  const changes: ChangeInput[] = [];
  await setStatus(c, b, 2, action, changes);
  await recordChanges(c, changes);
  return { action: 'referral', state: b.state_abbr, bill_number: b.bill_number, what: action, changes: changes.length };
}

async function vote(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const b = await findBill(c, states, [2, 3], rng);
  if (!b) return undefined;
  const members = (
    await c.query<{ people_id: number }>(
      'SELECT people_id FROM people WHERE state_id = $1 AND active ORDER BY random() LIMIT 120',
      [b.state_id],
    )
  ).rows;
  const rollCallId = await nextId(c);
  const lean = 0.45 + rng() * 0.5;
  const votes = members.map((m) => ({
    id: m.people_id,
    v: rng() < 0.06 ? (rng() < 0.5 ? 3 : 4) : rng() < lean ? 1 : 2,
  }));
  const count = (v: number) => votes.filter((x) => x.v === v).length;
  const [yea, nay, nv, absent] = [count(1), count(2), count(3), count(4)];
  const passed = yea > nay ? 1 : 0;
  const desc = b.status_id === 2 ? 'Third Reading' : 'Final Passage';
  await c.query(
    `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed)
     VALUES ($1, $2, $3, current_date, $4, $5, $6, $7, $8, $9, $10)`,
    [rollCallId, b.bill_id, b.body_id, desc, yea, nay, nv, absent, votes.length, passed],
  );
  if (votes.length) {
    await c.query(
      `INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) SELECT $1, * FROM unnest($2::bigint[], $3::smallint[])`,
      [rollCallId, votes.map((v) => v.id), votes.map((v) => v.v)],
    );
  }
  const action = `${desc}: ${passed ? 'passed' : 'failed'} ${yea}-${nay}`;
  await addHistory(c, b, action, passed);
  const changes: ChangeInput[] = [
    { bill_id: b.bill_id, state_id: b.state_id, reason: 'Vote', detail: { roll_call_id: rollCallId } },
  ];
  if (passed) await setStatus(c, b, b.status_id + 1, action, changes);
  else
    await c.query(
      'UPDATE bills SET last_action = $2, last_action_date = current_date, updated = now() WHERE bill_id = $1',
      [b.bill_id, action],
    );
  await recordChanges(c, changes);
  return { action: 'vote', state: b.state_abbr, bill_number: b.bill_number, what: action, changes: changes.length };
}

async function status(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const b = await findBill(c, states, [4, 5], rng);
  if (!b) return undefined;
  const [next, action] =
    b.status_id === 5 ? [8, 'Chaptered'] : rng() < 0.85 ? [5, 'Signed by Governor'] : [6, 'Vetoed by Governor'];
  await addHistory(c, b, action, 1);
  const changes: ChangeInput[] = [];
  await setStatus(c, b, next, action, changes);
  await recordChanges(c, changes);
  return { action: 'status', state: b.state_abbr, bill_number: b.bill_number, what: action, changes: 1 };
}

async function text(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const b = await findBill(c, states, [1, 2, 3, 4], rng);
  if (!b) return undefined;
  const prev = (
    await c.query<{ text_id: number; content: string | null }>(
      'SELECT text_id, content FROM bill_texts WHERE bill_id = $1 ORDER BY text_date DESC, text_id DESC LIMIT 1',
      [b.bill_id],
    )
  ).rows[0];
  // A real revision: drop one paragraph, add another, reword a number.
  const before = (prev?.content ?? `${b.title}.`).split('\n\n');
  const kept = [...before];
  if (kept.length > 2 && rng() < 0.5) kept.splice(1 + Math.floor(rng() * (kept.length - 1)), 1);
  // The added paragraph is one the previous version did not have, in either wording (not the one
  // just dropped, nor one the rewording turns into a paragraph already there), so every revision
  // really differs from the one before it.
  const reword = (p: string) => p.replace(/five percent/, 'three percent');
  let reserved = before.length + 1;
  while (before.includes(`Section ${reserved}. Reserved.`)) reserved++;
  const added =
    pick(
      rng,
      CLAUSES.filter((x) => !before.includes(x) && !before.includes(reword(x))),
    ) ?? `Section ${reserved}. Reserved.`;
  const content = [...kept.map(reword), added].join('\n\n');
  const textId = await nextId(c);
  const type = b.status_id >= 3 ? 3 : 2;
  await c.query(
    `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, size_bytes, word_count, content) VALUES ($1, $2, $3, current_date, $4, $5, $6)`,
    [textId, b.bill_id, type, content.length, content.split(/\s+/).length, content],
  );
  if (prev)
    await c.query(
      'INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [prev.text_id, textId, b.bill_id],
    );
  await c.query('UPDATE bills SET updated = now() WHERE bill_id = $1', [b.bill_id]);
  await recordChanges(c, [{ bill_id: b.bill_id, state_id: b.state_id, reason: 'Text', detail: { text_id: textId } }]);
  return {
    action: 'text',
    state: b.state_abbr,
    bill_number: b.bill_number,
    what: type === 2 ? 'committee substitute' : 'amended text',
    changes: 1,
  };
}

async function amendment(c: PoolClient, states: number[] | null, rng: Rng): Promise<ActionResult | undefined> {
  const b = await findBill(c, states, [2, 3], rng);
  if (!b) return undefined;
  const id = await nextId(c);
  const adopted = rng() < 0.6 ? 1 : 0;
  const title = `Amendment ${String.fromCharCode(65 + Math.floor(rng() * 26))}${Math.floor(rng() * 900 + 100)}`;
  await c.query(
    `INSERT INTO amendments (amendment_id, bill_id, adopted, amendment_body_id, amendment_date, amendment_title, amendment_desc) VALUES ($1, $2, $3, $4, current_date, $5, $6)`,
    [id, b.bill_id, adopted, b.body_id, title, pick(rng, CLAUSES)],
  );
  await addHistory(c, b, `${title} ${adopted ? 'adopted' : 'offered'}`);
  await c.query('UPDATE bills SET updated = now() WHERE bill_id = $1', [b.bill_id]);
  await recordChanges(c, [
    { bill_id: b.bill_id, state_id: b.state_id, reason: 'Amendment', detail: { amendment_id: id } },
  ]);
  return {
    action: 'amendment',
    state: b.state_abbr,
    bill_number: b.bill_number,
    what: `${title} ${adopted ? 'adopted' : 'offered'}`,
    changes: 1,
  };
}

export const ACTIONS: [
  ActionName,
  number,
  (c: PoolClient, states: number[] | null, rng: Rng) => Promise<ActionResult | undefined>,
][] = [
  ['new_bill', 2, newBill],
  ['referral', 3, referral],
  ['vote', 3, vote],
  ['status', 1, status],
  ['text', 2, text],
  ['amendment', 2, amendment],
];
