// One bill and all its sub-resources. Every bill draws from its own random stream (seed + index),
// so bill i is the same whatever the batch size; ids of sub-rows come from shared counters that
// advance in bill order.
import { billNumberKey } from '../../domain/bill-number.js';
import {
  ANCHOR,
  CORPUS_NOW,
  DAY,
  DEMO_ID_BASE,
  INTERFACE_LABEL_STATES,
  hex,
  isoDate,
  isoTime,
  type BodyRow,
  type SeedContext,
  type StateRow,
} from './context.js';
import type { CommitteeInfo } from './committees.js';
import { writeExtras, type IdCounters } from './extras.js';
import { walkLadder } from './ladder.js';
import { BILL_TYPES, billTypeName, firstNumber, publishedNumber } from './numbers.js';
import type { Member } from './people.js';
import { rngFor, type Rng } from './prng.js';
import type { SessionInfo } from './sessions.js';
import type { StateSubjects } from './subjects.js';
import type { BillBuffers } from './tables.js';
import { md5, reflow, textVersions, wordCount } from './texts.js';
import { memberId, writeRollCall } from './votes.js';
import { TITLE_PHRASES } from './words.js';

export interface World {
  ctx: SeedContext;
  sessions: Map<number, SessionInfo[]>;
  people: Map<number, Member[]>;
  committees: Map<number, CommitteeInfo[]>;
  subjects: Map<number, StateSubjects>;
  ids: IdCounters;
  /** next number per session/body/type */
  numbers: Map<string, number>;
  /** latest bill per state/session/body, for companion cross-references */
  companions: Map<string, { id: number; number: string }>;
  /** a sample of bills per state, for hearings' bills_discussed */
  sample: Map<number, { bill_id: number; bill_number: string }[]>;
  stateWeights: [StateRow, number][];
}

const VOLUME: Record<string, number> = {
  NY: 3,
  NJ: 2.5,
  US: 3,
  TX: 2,
  MA: 2,
  CA: 1.5,
  IL: 1.5,
  MN: 1.3,
  PA: 1.2,
  WY: 0.4,
  ND: 0.4,
  SD: 0.4,
  AK: 0.5,
  DE: 0.5,
  DC: 0.6,
};

/** How bills spread over jurisdictions (busier legislatures file more). */
export const stateWeights = (ctx: SeedContext): [StateRow, number][] =>
  ctx.states.map((s) => [s, VOLUME[s.state_abbr] ?? 1]);

// Most bills never leave committee; a minority reach a floor vote (and a roll call).
const STATUS_WEIGHTS = [
  [1, 28],
  [2, 45],
  [3, 7],
  [4, 3],
  [5, 8],
  [6, 1],
  [7, 6],
  [8, 2],
] as const;

function titleFor(rng: Rng, abbr: string, type: number, subject: string): string {
  const phrase = rng.pick(TITLE_PHRASES[subject] ?? TITLE_PHRASES.default);
  if (type === 2)
    return rng.pick([
      `A Resolution recognizing the contributions of ${rng.pick(['public school teachers', 'first responders', 'rural health clinics', 'veterans'])}`,
      `A Resolution urging Congress to act on ${phrase}`,
    ]);
  if (type === 3) return `A Concurrent Resolution relating to ${phrase}`;
  if (type === 4) return `A Joint Resolution proposing an amendment to the Constitution relating to ${phrase}`;
  if (abbr === 'US')
    return `To amend title ${rng.int(5, 50)}, United States Code, with respect to ${phrase}, and for other purposes`;
  return rng.pick(['An Act relating to ', 'An Act concerning ', 'An Act to amend the law relating to ']) + phrase;
}

export function generateBill(
  w: World,
  t: BillBuffers,
  index: number,
): { bill_id: number; updated: number; state_id: number; status: number } {
  const { ctx } = w;
  const rng = rngFor(ctx.seed, `bill:${index}`);
  const st = rng.weighted(w.stateWeights);
  const abbr = st.state_abbr;
  const sessions = w.sessions.get(st.state_id) ?? [];
  const session = rng.weighted(
    sessions.map(
      (s) =>
        [s, s.kind === 'regular' ? 80 : s.kind === 'prior' ? 10 : s.kind === 'special' ? 6 : 4] as [
          SessionInfo,
          number,
        ],
    ),
  );
  const chambers = ctx.chambers.get(st.state_id) as BodyRow[];
  const origin = rng.pick(chambers);
  const other = chambers.find((c) => c.body_id !== origin.body_id) ?? null;
  const type = session.kind === 'special' ? 1 : rng.weighted(BILL_TYPES);
  const key = `${session.session_id}:${origin.body_id}:${type}`;
  const n = w.numbers.get(key) ?? firstNumber(abbr, origin.role_id, type);
  w.numbers.set(key, n + 1);
  const number = publishedNumber(abbr, origin.body_abbr, origin.role_id, type, n);
  const billId = DEMO_ID_BASE + index + 1;

  // When: within the session's window, never after the corpus' "now".
  const sStart = Date.parse(session.start + 'T00:00:00Z');
  const sEnd = Math.min(session.end ? Date.parse(session.end + 'T00:00:00Z') : CORPUS_NOW - DAY, CORPUS_NOW - DAY);
  const start = sStart + Math.floor(rng.next() ** 0.7 * Math.max(1, (sEnd - sStart) / DAY - 5)) * DAY;
  let status = rng.weighted(STATUS_WEIGHTS);
  if (!other && status === 3) status = 4;
  if (session.kind === 'prefile') status = rng.chance(0.5) ? 1 : 2;
  if ((session.kind === 'prior' || (session.end && session.kind !== 'prefile')) && status <= 3)
    status = rng.chance(0.85) ? 7 : status;
  if (type === 2 && status >= 5) status = 4;
  const executive = abbr === 'US' ? 'President' : abbr === 'DC' ? 'Mayor' : 'Governor';
  const path = walkLadder(rng, {
    status,
    start,
    limit: sEnd,
    executive,
    resolution: type === 2,
    prefiled: session.kind === 'prefile',
    origin: { body_id: origin.body_id, name: origin.body_name, committees: w.committees.get(origin.body_id) ?? [] },
    other:
      type === 2 || !other
        ? null
        : { body_id: other.body_id, name: other.body_name, committees: w.committees.get(other.body_id) ?? [] },
  });
  const last = path.steps[path.steps.length - 1];

  // Subjects: one to four policy subjects; some portals also tag bills with interface labels.
  const subj = w.subjects.get(st.state_id) as StateSubjects;
  const chosen = rng.sample(
    subj.policy,
    rng.weighted([
      [1, 3],
      [2, 4],
      [3, 2],
      [4, 1],
    ] as const),
  );
  const topics = new Set<number>();
  for (const s of chosen) {
    t.bill_subjects.row([billId, s.subject_id]);
    for (const tp of s.topicIds) topics.add(tp);
  }
  if (INTERFACE_LABEL_STATES.has(abbr) && subj.labels.length && rng.chance(0.35))
    t.bill_subjects.row([billId, rng.pick(subj.labels).subject_id]);
  for (const tp of [...topics].sort((a, b) => a - b)) t.bill_topics.row([billId, tp]);

  const title = titleFor(rng, abbr, type, chosen[0]?.name ?? '');
  const url = `https://legislature.example.gov/${abbr.toLowerCase()}/${session.year_start}/bills/${number}`;
  // updated: the last action, or a data refresh early in 2026 for bills quiet since before it.
  const updated =
    Math.max(last.date, ANCHOR + rng.int(0, 20) * DAY) + rng.int(6, 22) * 3_600_000 + rng.int(0, 3599) * 1000;
  const description = `${title.replace(/^An Act /, '')}; ${rng.pick(['amending', 'creating', 'repealing'])} provisions of law; ${rng.pick(['providing an effective date', 'making an appropriation', 'providing penalties', 'requiring rulemaking'])}.`;
  t.bills.row([
    billId,
    st.state_id,
    session.session_id,
    number,
    billNumberKey(number),
    type,
    origin.body_id,
    path.currentBody,
    path.status,
    isoDate(path.statusDate),
    title,
    description,
    url,
    `https://legiscan.example/${abbr}/bill/${number}/${session.year_start}`,
    isoTime(updated),
    isoTime(start + 9 * 3_600_000),
    hex(rng, 32),
    hex(rng, 32),
    rng.chance(0.5)
      ? `This ${billTypeName(type).toLowerCase()} ${description.charAt(0).toLowerCase()}${description.slice(1)}`
      : null,
    last.action,
    isoDate(last.date),
    path.status >= 5 ? 1 : 0,
    path.pendingCommittee,
    chosen.map((s) => s.name).join('; '),
    {},
    'demo',
  ]);

  path.steps.forEach((s, i) => t.bill_history.row([billId, i + 1, isoDate(s.date), s.action, s.body_id, s.major]));
  path.referrals.forEach((r, i) =>
    t.bill_referrals.row([billId, i + 1, r.committee.committee_id, r.committee.name, isoDate(r.date)]),
  );

  // Sponsors (a few committee bills have none listed).
  const members = w.people.get(origin.body_id) ?? [];
  if (members.length && rng.chance(0.97)) {
    const sponsors = rng.sample(
      members,
      rng.weighted([
        [1, 4],
        [2, 2],
        [4, 2],
        [8, 1],
      ] as const),
    );
    sponsors.forEach((m, i) => t.bill_sponsors.row([billId, memberId(m, start), i + 1, i === 0 ? 1 : 2, 0, 0]));
  }

  // Text versions, following the path; a few bills have none yet.
  if (rng.chance(0.98)) {
    const types = [{ type_id: session.kind === 'prefile' ? 11 : 1, date: start }];
    if (path.status >= 2 && rng.chance(0.35))
      types.push({ type_id: rng.pick([2, 3]), date: path.steps[Math.min(2, path.steps.length - 1)].date });
    if (path.status >= 3 && path.votes[0]) types.push({ type_id: 4, date: path.votes[0].date });
    if ([4, 5, 6, 8].includes(path.status)) types.push({ type_id: 5, date: path.statusDate });
    if (path.status === 8) types.push({ type_id: 6, date: path.statusDate });
    const versions = textVersions(
      rng,
      {
        jurisdiction: st.state_name,
        body: origin.body_name,
        session: session.year_start + ' Session',
        number,
        title,
        enacting:
          abbr === 'US'
            ? 'Be it enacted by the Senate and House of Representatives of the United States of America in Congress assembled,'
            : `BE IT ENACTED BY THE LEGISLATURE OF ${st.state_name.toUpperCase()}:`,
        code: abbr === 'US' ? 'Section' : `${st.state_abbr} Code §`,
      },
      types,
    );
    if (rng.chance(0.04))
      versions.push({
        type_id: 3,
        date: versions[versions.length - 1].date + DAY,
        content: reflow(versions[versions.length - 1].content),
      });
    for (const v of versions) {
      const id = ++w.ids.text;
      t.bill_texts.row([
        id,
        billId,
        v.type_id,
        isoDate(v.date),
        1,
        Buffer.byteLength(v.content),
        wordCount(v.content),
        `${url}/text/${id}`,
        md5(v.content),
        v.content,
        isoTime(v.date + 14 * 3_600_000),
      ]);
    }
  }

  for (const v of path.votes)
    if (v.recorded)
      writeRollCall(rng, t, ++w.ids.rollCall, billId, abbr, v, w.people.get(v.body_id) ?? [], `${url}/votes`);

  // Companion bills in the other chamber: "Same As" / "Similar To" cross-references.
  const compKey = `${session.session_id}:${other?.body_id ?? origin.body_id}`;
  const companion = w.companions.get(compKey);
  if (companion && rng.chance(0.06)) t.bill_sasts.row([billId, rng.pick([1, 2]), companion.id, companion.number]);
  w.companions.set(`${session.session_id}:${origin.body_id}`, { id: billId, number });

  writeExtras(
    rng,
    t,
    w.ids,
    { id: billId, abbr, number, body: origin.body_id, start, url },
    path,
    `${origin.body_name} ${rng.pick(['Appropriations', 'Judiciary', 'Rules'])} Committee staff`,
  );

  const sample = w.sample.get(st.state_id) ?? [];
  if (sample.length < 300) sample.push({ bill_id: billId, bill_number: number });
  w.sample.set(st.state_id, sample);
  return { bill_id: billId, updated, state_id: st.state_id, status: path.status };
}
