// A LegiScan Push consumer as a real local HTTP server: checks the Token, finds the root key in
// LegiScan's detection order, writes the push into LegiScan's tables in every store (one
// transaction per store, so a value that does not fit rejects the whole push), and answers the way
// LegiScan's endpoint does: {"status":"OK"}, {"status":"OK","missing":{…}} for the sponsors, roll
// call details and documents it does not hold yet, or {"status":"ERROR","alert":{"message"}}.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Row, Store, Tx } from './legiscan-store.js';

type Obj = Record<string, any>;
const ROOTS = ['bill', 'text', 'roll_call', 'person', 'amendment', 'supplement', 'session'];

export interface Rejection {
  root: string;
  id: unknown;
  store: string;
  message: string;
}

export interface LegiscanReceiver {
  url: string;
  token: string;
  /** pushes stored in every store, by root */
  stored: Record<string, number>;
  rejected: Rejection[];
  /** pushes answered, stored or not */
  answered: number;
  /** records asked for in `missing` replies that have not arrived yet */
  outstanding(): number;
  close(): Promise<void>;
}

const date = (store: Store, v: unknown) => (v === '0000-00-00' ? store.zeroDate : v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v : []);

function writeBill(tx: Tx, s: Store, b: Obj): void {
  const se = b.session;
  tx.upsert('ls_session', ['session_id'], {
    session_id: se.session_id,
    state_id: se.state_id,
    year_start: se.year_start,
    year_end: se.year_end,
    prefile: se.prefile,
    sine_die: se.sine_die,
    prior: se.prior,
    special: se.special,
    session_tag: se.session_tag,
    session_title: se.session_title,
    session_name: se.session_name,
  });
  if (b.pending_committee_id !== 0) {
    const c = b.committee;
    if (!c || Array.isArray(c))
      throw new Error(`bill ${b.bill_id}: pending_committee_id ${b.pending_committee_id} without a committee object`);
    tx.upsert('ls_committee', ['committee_id'], {
      committee_id: c.committee_id,
      committee_body_id: c.chamber_id,
      committee_name: c.name,
    });
  }
  tx.upsert('ls_bill', ['bill_id'], {
    bill_id: b.bill_id,
    state_id: b.state_id,
    session_id: b.session_id,
    body_id: b.body_id,
    current_body_id: b.current_body_id,
    bill_type_id: Number(b.bill_type_id),
    bill_number: b.bill_number,
    status_id: b.status,
    status_date: date(s, b.status_date),
    title: b.title,
    description: b.description,
    pending_committee_id: b.pending_committee_id,
    legiscan_url: b.url,
    state_url: b.state_link,
    change_hash: b.change_hash,
  });
  const id = { bill_id: b.bill_id };
  for (const t of [
    'ls_bill_progress',
    'ls_bill_history',
    'ls_bill_sponsor',
    'ls_bill_subject',
    'ls_bill_sast',
    'ls_bill_calendar',
    'ls_bill_referral',
  ])
    tx.del(t, id);
  const rows: [string, string[], Row[]][] = [
    [
      'ls_bill_progress',
      ['bill_id', 'progress_step'],
      list(b.progress).map((p, i) => ({
        ...id,
        progress_step: i + 1,
        progress_date: date(s, p.date),
        progress_event_id: p.event,
      })),
    ],
    [
      'ls_bill_history',
      ['bill_id', 'history_step'],
      list(b.history).map((h, i) => ({
        ...id,
        history_step: i + 1,
        history_date: date(s, h.date),
        history_body_id: h.chamber_id,
        history_action: h.action,
        history_major: h.importance,
      })),
    ],
    [
      'ls_bill_sponsor',
      ['bill_id', 'people_id'],
      list(b.sponsors).map((p) => ({
        ...id,
        people_id: p.people_id,
        sponsor_order: p.sponsor_order,
        sponsor_type_id: p.sponsor_type_id,
      })),
    ],
    [
      'ls_subject',
      ['subject_id'],
      list(b.subjects).map((x) => ({ subject_id: x.subject_id, state_id: b.state_id, subject_name: x.subject_name })),
    ],
    ['ls_bill_subject', ['bill_id', 'subject_id'], list(b.subjects).map((x) => ({ ...id, subject_id: x.subject_id }))],
    [
      'ls_bill_sast',
      ['bill_id', 'sast_type_id', 'sast_bill_id'],
      list(b.sasts).map((x) => ({
        ...id,
        sast_type_id: x.type_id,
        sast_bill_id: x.sast_bill_id,
        sast_bill_number: x.sast_bill_number,
      })),
    ],
    [
      'ls_bill_calendar',
      ['bill_id', 'event_hash'],
      list(b.calendar).map((c) => ({
        ...id,
        event_hash: c.event_hash,
        event_type_id: c.type_id,
        event_date: date(s, c.date),
        event_time: c.time,
        event_location: c.location,
        event_desc: c.description,
      })),
    ],
    [
      'ls_committee',
      ['committee_id'],
      list(b.referrals).map((r) => ({
        committee_id: r.committee_id,
        committee_body_id: r.chamber_id,
        committee_name: r.name,
      })),
    ],
    [
      'ls_bill_referral',
      ['bill_id', 'referral_step'],
      list(b.referrals).map((r, i) => ({
        ...id,
        referral_step: i + 1,
        referral_date: date(s, r.date),
        committee_id: r.committee_id,
      })),
    ],
    [
      'ls_bill_text',
      ['text_id'],
      list(b.texts).map((t) => ({
        text_id: t.doc_id,
        ...id,
        bill_text_type_id: t.type_id,
        bill_text_date: date(s, t.date),
        bill_text_mime_id: t.mime_id,
        bill_text_size: t.text_size,
        bill_text_hash: t.text_hash,
        local_copy: 0,
        legiscan_url: t.url,
        state_url: t.state_link,
      })),
    ],
    ['ls_bill_vote', ['roll_call_id'], list(b.votes).map((v) => voteRow(s, v, b.bill_id))],
    [
      'ls_bill_amendment',
      ['amendment_id'],
      list(b.amendments).map((a) => ({
        amendment_id: a.amendment_id,
        ...id,
        adopted: a.adopted,
        amendment_body_id: a.chamber_id,
        amendment_date: date(s, a.date),
        amendment_title: a.title,
        amendment_desc: a.description,
        amendment_mime_id: a.mime_id,
        amendment_size: a.amendment_size,
        amendment_hash: a.amendment_hash,
        local_copy: 0,
        legiscan_url: a.url,
        state_url: a.state_link,
      })),
    ],
    [
      'ls_bill_supplement',
      ['supplement_id'],
      list(b.supplements).map((x) => ({
        supplement_id: x.supplement_id,
        ...id,
        supplement_type_id: x.type_id,
        supplement_date: date(s, x.date),
        supplement_title: x.title,
        supplement_desc: x.description,
        supplement_mime_id: x.mime_id,
        supplement_size: x.supplement_size,
        supplement_hash: x.supplement_hash,
        local_copy: 0,
        legiscan_url: x.url,
        state_url: x.state_link,
      })),
    ],
  ];
  // a bill push does not touch what a document push stored (local_copy and the document)
  for (const [table, keys, rs] of rows) tx.upsert(table, keys, rs, ['local_copy']);
}

const voteRow = (s: Store, v: Obj, billId: number) => ({
  roll_call_id: v.roll_call_id,
  bill_id: billId,
  roll_call_body_id: v.chamber_id,
  roll_call_date: date(s, v.date),
  roll_call_desc: v.desc,
  yea: v.yea,
  nay: v.nay,
  nv: v.nv,
  absent: v.absent,
  total: v.total,
  passed: v.passed,
  legiscan_url: v.url,
  state_url: v.state_link,
});

function writePerson(tx: Tx, p: Obj): void {
  tx.upsert('ls_people', ['people_id'], {
    people_id: p.people_id,
    state_id: p.state_id,
    role_id: p.role_id,
    party_id: Number(p.party_id),
    name: p.name,
    first_name: p.first_name,
    middle_name: p.middle_name,
    last_name: p.last_name,
    suffix: p.suffix,
    nickname: p.nickname,
    district: p.district,
    committee_sponsor_id: p.committee_id,
    followthemoney_eid: p.ftm_eid,
    votesmart_id: p.votesmart_id,
    opensecrets_id: p.opensecrets_id,
    knowwho_pid: p.knowwho_pid,
    ballotpedia: p.ballotpedia,
    person_hash: p.person_hash,
  });
}

/** A document push: the decoded document must match the size and md5 the push states. */
function writeDoc(tx: Tx, s: Store, root: string, x: Obj): void {
  const doc = Buffer.from(String(x.doc ?? ''), 'base64');
  const [size, hash] =
    root === 'text'
      ? [x.text_size, x.text_hash]
      : root === 'amendment'
        ? [x.amendment_size, x.amendment_hash]
        : [x.supplement_size, x.supplement_hash];
  if (doc.length !== size || createHash('md5').update(doc).digest('hex') !== hash)
    throw new Error(`${root} document does not match its size/hash`);
  if (root === 'text')
    tx.upsert('ls_bill_text', ['text_id'], {
      text_id: x.doc_id,
      bill_id: x.bill_id,
      bill_text_type_id: x.type_id,
      bill_text_date: date(s, x.date),
      bill_text_mime_id: x.mime_id,
      bill_text_size: size,
      bill_text_hash: hash,
      local_copy: 1,
      legiscan_url: x.url,
      state_url: x.state_link,
      bill_text_doc: doc,
    });
  else if (root === 'amendment')
    tx.upsert('ls_bill_amendment', ['amendment_id'], {
      amendment_id: x.amendment_id,
      bill_id: x.bill_id,
      adopted: x.adopted,
      amendment_body_id: x.chamber_id,
      amendment_date: date(s, x.date),
      amendment_title: x.title,
      amendment_desc: x.description,
      amendment_mime_id: x.mime_id,
      amendment_size: size,
      amendment_hash: hash,
      local_copy: 1,
      legiscan_url: x.url,
      state_url: x.state_link,
      amendment_doc: doc,
    });
  else
    tx.upsert('ls_bill_supplement', ['supplement_id'], {
      supplement_id: x.supplement_id,
      bill_id: x.bill_id,
      supplement_type_id: x.type_id,
      supplement_date: date(s, x.date),
      supplement_title: x.title,
      supplement_desc: x.description,
      supplement_mime_id: x.mime_id,
      supplement_size: size,
      supplement_hash: hash,
      local_copy: 1,
      legiscan_url: x.url,
      state_url: x.state_link,
      supplement_doc: doc,
    });
}

// What the consumer looks up after a push, by the key of its `missing` reply: each query selects
// (id, h) of the records held among the ids in the IN (…) list it ends with.
const HELD: Record<string, string> = {
  sponsors: 'SELECT people_id AS id, person_hash AS h FROM ls_people WHERE people_id',
  votes: 'SELECT DISTINCT roll_call_id AS id, NULL AS h FROM ls_bill_vote_detail WHERE roll_call_id',
  texts: 'SELECT text_id AS id, NULL AS h FROM ls_bill_text WHERE bill_text_doc IS NOT NULL AND text_id',
  amendments:
    'SELECT amendment_id AS id, NULL AS h FROM ls_bill_amendment WHERE amendment_doc IS NOT NULL AND amendment_id',
  supplements:
    'SELECT supplement_id AS id, NULL AS h FROM ls_bill_supplement WHERE supplement_doc IS NOT NULL AND supplement_id',
};

/** What the consumer asks for after a push: people, roll call details and documents it lacks (one read). */
async function missingFor(tx: Tx, root: string, x: Obj): Promise<Record<string, number[]>> {
  const named: [key: string, ids: unknown[]][] =
    root === 'bill'
      ? [
          ['sponsors', list(x.sponsors).map((p) => p.people_id)],
          ['votes', list(x.votes).map((v) => v.roll_call_id)],
          ['texts', list(x.texts).map((t) => t.doc_id)],
          ['amendments', list(x.amendments).map((a) => a.amendment_id)],
          ['supplements', list(x.supplements).map((a) => a.supplement_id)],
        ]
      : root === 'roll_call'
        ? [['sponsors', list(x.votes).map((v) => v.people_id)]]
        : [];
  const wanted = named
    .map(([key, ids]) => [key, [...new Set(ids.map(Number))]] as const)
    .filter(([, ids]) => ids.length > 0);
  if (wanted.length === 0) return {};
  const rows = await tx.select(
    wanted
      .map(([key, ids]) => `SELECT '${key}' AS k, id, h FROM (${HELD[key]} IN (${ids.map(() => '?').join(', ')})) AS x`)
      .join(' UNION ALL '),
    wanted.flatMap(([, ids]) => ids),
  );
  const held = new Map<string, Map<number, unknown>>();
  for (const r of rows) {
    const k = String(r.k);
    if (!held.has(k)) held.set(k, new Map());
    held.get(k)!.set(Number(r.id), r.h);
  }
  const out: Record<string, number[]> = {};
  for (const [key, ids] of wanted) out[key] = ids.filter((id) => !held.get(key)?.has(id));
  if (root === 'bill') {
    // as the stock client: a sponsor it lacks, or whose person_hash differs from the one it holds
    const hash = held.get('sponsors') ?? new Map<number, unknown>();
    const changed = list(x.sponsors)
      .filter((p) => hash.has(Number(p.people_id)) && String(hash.get(Number(p.people_id))) !== p.person_hash)
      .map((p) => Number(p.people_id));
    if (changed.length > 0) out.changedSponsors = changed;
  }
  return out;
}

async function process(s: Store, root: string, x: Obj): Promise<Record<string, number[]>> {
  return s.transaction(async (tx) => {
    if (root === 'bill') writeBill(tx, s, x);
    else if (root === 'person') writePerson(tx, x);
    else if (root === 'roll_call') {
      tx.upsert('ls_bill_vote', ['roll_call_id'], voteRow(s, x, x.bill_id));
      tx.del('ls_bill_vote_detail', { roll_call_id: x.roll_call_id });
      tx.upsert(
        'ls_bill_vote_detail',
        ['roll_call_id', 'people_id'],
        list(x.votes).map((v) => ({ roll_call_id: x.roll_call_id, people_id: v.people_id, vote_id: v.vote_id })),
      );
    } else if (root === 'text' || root === 'amendment' || root === 'supplement') writeDoc(tx, s, root, x);
    else throw new Error(`unsupported push type ${root}`);
    return missingFor(tx, root, x);
  });
}

export async function startLegiscanReceiver(
  stores: Store[],
  token = 'f00dfeed0123456789abcdef01234567',
): Promise<LegiscanReceiver> {
  const asked = new Set<string>();
  const ASKED_ROOT: Record<string, string> = {
    sponsors: 'person',
    votes: 'roll_call',
    texts: 'text',
    amendments: 'amendment',
    supplements: 'supplement',
  };
  const idOf = (root: string, x: Obj) =>
    root === 'person'
      ? x.people_id
      : root === 'roll_call'
        ? x.roll_call_id
        : root === 'text'
          ? x.doc_id
          : root === 'amendment'
            ? x.amendment_id
            : x.supplement_id;
  const r: Omit<LegiscanReceiver, 'url' | 'close'> = {
    token,
    stored: {},
    rejected: [],
    answered: 0,
    outstanding: () => asked.size,
  };
  const handle = async (body: string, auth: string | undefined): Promise<object> => {
    const [type, value] = (auth ?? '').split(' ');
    if (type !== 'Token' || (value ?? '').toLowerCase() !== r.token.toLowerCase())
      return { status: 'ERROR', alert: { message: 'Invalid API authentication token' } };
    let payload: Obj;
    try {
      payload = JSON.parse(body);
    } catch {
      return { status: 'ERROR', alert: { message: 'Invalid JSON' } };
    }
    const root = ROOTS.find((k) => k in payload);
    if (!root)
      return {
        status: 'ERROR',
        alert: { message: `processPush could not determine payload type [${Object.keys(payload)[0]}]` },
      };
    const x = payload[root];
    asked.delete(`${root}:${idOf(root, x)}`);
    const missing: Record<string, Set<number>> = {};
    const results = await Promise.allSettled(stores.map((s) => process(s, root, x)));
    for (const [i, res] of results.entries()) {
      if (res.status === 'fulfilled')
        for (const [k, ids] of Object.entries(res.value))
          for (const id of ids) (missing[k === 'changedSponsors' ? 'sponsors' : k] ??= new Set()).add(id);
      else
        r.rejected.push({
          root,
          id: x?.bill_id ?? x?.people_id ?? x?.roll_call_id ?? x?.doc_id ?? x?.amendment_id ?? x?.supplement_id,
          store: stores[i]!.name,
          message: (res.reason as Error).message,
        });
    }
    const failed = results.find((res) => res.status === 'rejected');
    if (failed)
      return { status: 'ERROR', alert: { message: ((failed as PromiseRejectedResult).reason as Error).message } };
    r.stored[root] = (r.stored[root] ?? 0) + 1;
    // a record already asked for and not arrived yet is not asked for again
    const ask: Record<string, number[]> = {};
    for (const [k, v] of Object.entries(missing)) {
      const fresh = [...v].filter((id) => !asked.has(`${ASKED_ROOT[k]}:${id}`));
      if (fresh.length === 0) continue;
      ask[k] = fresh;
      for (const id of fresh) asked.add(`${ASKED_ROOT[k]}:${id}`);
    }
    return Object.keys(ask).length > 0 ? { status: 'OK', missing: ask } : { status: 'OK' };
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // pushes are handled as they come, concurrently, as a consumer behind a web server would
      void handle(Buffer.concat(chunks).toString('utf8'), req.headers.authorization).then(
        (reply) => {
          r.answered++;
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        },
        (err) => res.writeHead(500).end(String(err)),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}/push`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
}
