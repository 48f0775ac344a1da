// LegiScan payload → normalised records. Wire quirks handled here: ids as strings or ints,
// "0000-00-00" dates, 0/1 booleans, `committee` as [] or an object, XML lists wrapped in
// <step>/<sponsor>/… elements, and the 2015-era XML that omits chambers on roll calls.
import { createHash } from 'node:crypto';
import type { Reference } from '../write/reference.js';
import { PARTY_NAMES, idText, partyId } from '../write/reference.js';
import type { BillRecord, VoteHeader } from '../write/bills.js';
import { earliest, latest, utcDay } from '../read/dates.js';
import type { PersonRecord } from '../write/people.js';
import { RecordError } from '../read/record-error.js';
import { ladderForLegiscanBill } from '../../domain/legiscan-status.js';
import type { LegiscanBill, LegiscanPerson, LegiscanSession, LegiscanSponsor, Listed, Scalar } from './source.js';

export const num = (v: unknown, d = 0): number => {
  if (v === null || v === undefined || v === '') return d;
  const n = Number(v);
  return Number.isFinite(n) ? n : d;
};
export const str = (v: unknown): string => (v === null || v === undefined || typeof v === 'object' ? '' : String(v));
export const date = (v: unknown): string | null => {
  const s = str(v);
  return /^\d{4}-\d{2}-\d{2}/.test(s) && !s.startsWith('0000') ? s.slice(0, 10) : null;
};

/** A list field: a JSON array, an XML wrapper element holding one repeated child, or nothing. */
export function list<T extends object>(v: Listed<T> | undefined): T[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    const inner = Object.values(v).find(Array.isArray);
    if (inner) return inner;
    const only = Object.values(v);
    const first = only[0];
    // (never an array here: `inner` would have been it)
    if (only.length === 1 && first && typeof first === 'object' && !Array.isArray(first)) return [first];
  }
  return [];
}

/** The record's id in `field`, a positive integer, or a RecordError naming the field. */
export function need<R, F extends keyof R & string>(o: R, field: F): number {
  const v = num(o[field], NaN);
  if (!Number.isInteger(v) || v <= 0) throw new RecordError(`missing or invalid ${field}`, field);
  return v;
}

const BILL_TYPES: Record<string, number> = {
  B: 1,
  R: 2,
  CR: 3,
  JR: 4,
  JRCA: 5,
  EO: 6,
  CA: 7,
  M: 8,
  CL: 9,
  C: 10,
  CSR: 11,
  JM: 12,
  P: 13,
  SR: 14,
  A: 15,
  CM: 16,
  I: 17,
  PET: 18,
  SB: 19,
  IP: 20,
  RB: 21,
  RM: 22,
  CB: 23,
};
/** LegiScan chamber letters → role_id (House/Assembly, Senate, Joint). */
const CHAMBER_ROLE: Record<string, number> = { H: 1, A: 1, S: 2, J: 3 };
const BILL_TYPE_ABBR: Record<number, string> = Object.fromEntries(
  Object.entries(BILL_TYPES).map(([abbr, id]) => [id, abbr]),
);
const MIME: Record<string, number> = {
  'text/html': 1,
  'application/pdf': 2,
  'application/wpd': 3,
  'application/msword': 4,
  'application/rtf': 5,
};
export const mimeId = (o: { mime?: Scalar; mime_id?: Scalar }): number =>
  num(o.mime_id) || MIME[str(o.mime).toLowerCase()] || 1;

export function stateOf(o: Pick<LegiscanBill, 'state_id' | 'state'>, ref: Reference): number {
  const id = num(o.state_id);
  if (id >= 1 && id <= 52) return id;
  const byAbbr = ref.stateByAbbr.get(str(o.state).toUpperCase());
  if (!byAbbr) throw new RecordError('missing or unknown state', 'state_id');
  return byAbbr;
}

/** The body of a chamber role in a state, or 0 when the role is unknown or the state has no such body. */
const bodyOfRole = (ref: Reference, stateId: number, roleId: number): number => {
  const body = roleId ? ref.body(stateId, roleId) : undefined;
  return body && (body.role_id === roleId || roleId !== 3) ? body.body_id : 0;
};

/** Chamber of a roll call whose payload omits it: from "House …"/"Senate …" in its description. */
export function bodyFromDesc(desc: string, stateId: number, fallback: number, ref: Reference): number {
  const role = /^(house|assembly)\b/i.test(desc) ? 1 : /^senate\b/i.test(desc) ? 2 : 0;
  return (role && ref.body(stateId, role)?.body_id) || fallback;
}

export function mapPerson(p: LegiscanPerson, stateId: number, ref: Reference): PersonRecord {
  const people_id = need(p, 'people_id');
  const role_id = num(p.role_id);
  const body = role_id === 1 || role_id === 2 ? ref.body(stateId, role_id) : undefined;
  const party_id = num(p.party_id) || partyId(str(p.party));
  const knowwho = idText(p.knowwho_pid);
  return {
    source: 'legiscan',
    legiscan_id: people_id,
    ids: {
      bioguide: idText(p.bioguide_id) || undefined,
      votesmart: idText(p.votesmart_id) || undefined,
      opensecrets: idText(p.opensecrets_id) || undefined,
      followthemoney: idText(p.ftm_eid) || undefined,
      ballotpedia: idText(p.ballotpedia) || undefined,
    },
    extra: knowwho ? { knowwho: knowwho } : {},
    state_id: num(p.state_id) || stateId,
    role_id,
    chamber: body?.body_short ?? (role_id === 3 ? 'Joint' : ''),
    body_id: body?.body_id ?? null,
    party_id,
    party_name: PARTY_NAMES[party_id] ?? '',
    name: str(p.name),
    first_name: str(p.first_name),
    middle_name: str(p.middle_name),
    last_name: str(p.last_name),
    suffix: str(p.suffix),
    nickname: str(p.nickname),
    district: str(p.district),
    person_hash: str(p.person_hash),
    active: true,
    committee_id: num(p.committee_sponsor) ? num(p.committee_id) : 0,
  };
}

export interface PendingCommittee {
  committee_id: number;
  state_id: number;
  body_id: number;
  name: string;
}
/** A bill mapped: its record, its session as the payload gives it, and the committees it needs. */
export interface MappedBill {
  record: BillRecord;
  session: LegiscanSession;
  sponsorPeople: LegiscanSponsor[];
  committees: PendingCommittee[];
}

export function mapBill(b: LegiscanBill, ref: Reference, peopleId: (legiscanId: number) => number): MappedBill {
  const bill_id = need(b, 'bill_id');
  const state_id = stateOf(b, ref);
  const session = b.session ?? { session_id: b.session_id };
  const session_id = num(session.session_id) || need(b, 'session_id');
  const bill_number = str(b.bill_number);
  if (!bill_number) throw new RecordError('missing bill_number', 'bill_number');
  const body_id = num(b.body_id) || ref.body(state_id, str(b.body) === 'S' ? 2 : 1)?.body_id || 0;
  // A step published without a chamber (a governor's action) stays body-less: history_body_id 0,
  // body_name "" (LegiScan's own convention), never the bill's originating chamber.
  const chamberBody = (o: { chamber?: Scalar; chamber_id?: Scalar }) =>
    num(o.chamber_id) || bodyOfRole(ref, state_id, CHAMBER_ROLE[str(o.chamber).toUpperCase()] ?? 0);
  const history = list(b.history).map((h) => ({
    date: date(h.date),
    action: str(h.action),
    body_id: chamberBody(h),
    major: num(h.importance),
  }));
  const progress = list(b.progress).map((p) => num(p.event));
  const committee =
    b.committee && !Array.isArray(b.committee) && typeof b.committee === 'object' ? b.committee : undefined;
  const pending = num(b.pending_committee_id) || num(committee?.committee_id) || null;
  const legiscan_status = num(b.status, 1);
  const bill_type_id = num(b.bill_type_id) || BILL_TYPES[str(b.bill_type)] || 1;
  const status_id = ladderForLegiscanBill({
    status: legiscan_status,
    progress,
    billType: str(b.bill_type) || BILL_TYPE_ABBR[bill_type_id] || '',
    actions: history.map((h) => h.action),
    pendingCommittee: pending !== null,
  });
  const last = history[history.length - 1];
  const sponsors = list(b.sponsors);
  const votes: VoteHeader[] = list(b.votes).map((v) => {
    const desc = str(v.desc);
    const has = v.yea !== undefined;
    return {
      roll_call_id: need(v, 'roll_call_id'),
      body_id: num(v.chamber_id) || bodyFromDesc(desc, state_id, body_id, ref),
      date: date(v.date),
      desc,
      yea: has ? num(v.yea) : null,
      nay: has ? num(v.nay) : null,
      nv: has ? num(v.nv) : null,
      absent: has ? num(v.absent) : null,
      total: has ? num(v.total, num(v.yea) + num(v.nay) + num(v.nv) + num(v.absent)) : null,
      passed: num(v.passed),
      state_url: str(v.state_link),
    };
  });
  const texts = list(b.texts).map((t) => ({
    text_id: need(t, 'doc_id'),
    type_id: num(t.type_id) || textTypeId(str(t.type)),
    date: date(t.date),
    mime_id: mimeId(t),
    size: num(t.text_size),
    state_url: str(t.state_link),
    hash: str(t.text_hash),
  }));
  const progressDates = list(b.progress).map((p) => date(p.date));
  const datesSeen = [
    date(b.status_date),
    ...history.map((h) => h.date),
    ...progressDates,
    ...texts.map((t) => t.date),
    ...votes.map((v) => v.date),
  ];
  const record: BillRecord = {
    bill: {
      bill_id,
      state_id,
      session_id,
      bill_number,
      bill_type_id,
      body_id,
      current_body_id: num(b.current_body_id) || body_id,
      status_id,
      status_date: date(b.status_date),
      title: str(b.title),
      description: str(b.description),
      // LegiScan has no abstract beyond `description` (the long title, "An Act To …"): it is the summary.
      state_url: str(b.state_link),
      url: str(b.url),
      change_hash: str(b.change_hash),
      summary: str(b.summary) || str(b.description) || null,
      last_action: last?.action ?? null,
      last_action_date: last?.date ?? null,
      completed: b.completed === undefined ? null : num(b.completed),
      pending_committee_id: pending,
      legiscan_status,
      external_ids: { legiscan_bill_id: bill_id, progress },
      source: 'legiscan',
      // The bill's own dates, so a 2014 bill never ranks as newly updated: LegiScan's fields when
      // a payload carries them, else the latest / earliest date among status, history, progress,
      // texts and votes.
      updated: utcDay(date(b.updated) ?? latest(...datesSeen, date(b.last_action_date))),
      created: utcDay(date(b.created) ?? earliest(...datesSeen)),
    },
    sponsors: sponsors.map((s, i) => ({
      people_id: peopleId(need(s, 'people_id')),
      sponsor_order: num(s.sponsor_order, i + 1),
      // LegiScan's 0 "Sponsor" and 3 "Joint Sponsor" are primary-level; 2 is a cosponsor.
      sponsor_type_id: num(s.sponsor_type_id) === 2 ? 2 : 1,
      committee_sponsor: num(s.committee_sponsor),
      committee_id: num(s.committee_id),
    })),
    history,
    texts,
    votes,
    amendments: list(b.amendments).map((a) => ({
      amendment_id: need(a, 'amendment_id'),
      adopted: num(a.adopted),
      body_id: num(a.chamber_id) || body_id,
      date: date(a.date),
      title: str(a.title),
      desc: str(a.description),
      mime_id: mimeId(a),
      size: num(a.amendment_size),
      hash: str(a.amendment_hash),
      state_url: str(a.state_link),
    })),
    supplements: list(b.supplements).map((s) => ({
      supplement_id: need(s, 'supplement_id'),
      type_id: num(s.type_id, 7),
      date: date(s.date),
      title: str(s.title),
      desc: str(s.description),
      state_url: str(s.state_link),
      mime_id: mimeId(s),
      size: num(s.supplement_size),
      hash: str(s.supplement_hash),
    })),
    sasts: list(b.sasts).map((s) => ({
      type_id: num(s.type_id),
      sast_bill_id: num(s.sast_bill_id),
      sast_bill_number: str(s.sast_bill_number),
    })),
    subjects: list(b.subjects)
      .map((s) => ({ subject_id: num(s.subject_id) || undefined, name: str(s.subject_name) }))
      .filter((s) => s.name),
    calendar: list(b.calendar).map((c) => ({
      type_id: num(c.type_id, 1),
      date: date(c.date),
      time: str(c.time),
      location: str(c.location),
      desc: str(c.description),
      hash:
        str(c.event_hash) ||
        createHash('md5')
          .update(`${str(c.type)}-${str(c.date)}-${str(c.time)}-${str(c.location)}-${str(c.description)}`.toLowerCase())
          .digest('hex')
          .slice(0, 8),
    })),
    referrals: list(b.referrals).map((r) => ({
      committee_id: num(r.committee_id),
      name: str(r.name ?? r.committee_name),
      date: date(r.date),
    })),
  };
  // The committee a bill is pending in (and those it was referred to) must exist as committee rows.
  const committees: PendingCommittee[] = [];
  if (committee && num(committee.committee_id) > 0 && str(committee.name)) {
    committees.push({
      committee_id: num(committee.committee_id),
      state_id,
      body_id:
        num(committee.chamber_id) || ref.body(state_id, str(committee.chamber) === 'S' ? 2 : 1)?.body_id || body_id,
      name: str(committee.name),
    });
  }
  // A committee sponsor stands for a committee, which must exist as one.
  for (const s of sponsors) {
    const committee_id = num(s.committee_sponsor) ? num(s.committee_id) : 0;
    if (committee_id > 0 && str(s.name))
      committees.push({
        committee_id,
        state_id,
        body_id: bodyOfRole(ref, state_id, num(s.role_id)),
        name: str(s.name),
      });
  }
  for (const r of list(b.referrals)) {
    const name = str(r.name ?? r.committee_name);
    if (num(r.committee_id) > 0 && name)
      committees.push({ committee_id: num(r.committee_id), state_id, body_id: num(r.chamber_id) || body_id, name });
  }
  return { record, session: { ...session, session_id, state_id }, sponsorPeople: sponsors, committees };
}

const TEXT_TYPES = [
  '',
  'introduced',
  'comm sub',
  'amended',
  'engrossed',
  'enrolled',
  'chaptered',
  'fiscal note',
  'analysis',
  'draft',
  'conference sub',
  'prefiled',
  'veto message',
  'veto response',
  'substitute',
];
export const textTypeId = (t: string): number => Math.max(1, TEXT_TYPES.indexOf(t.toLowerCase()));

/** Decoded document text: HTML with tags stripped, plain text as is; PDF and others null. */
export function decodeDocument(
  doc: string,
  mime_id: number,
  mime: string,
): { text: string | null; hash: string; size: number } {
  const buf = Buffer.from(doc, 'base64');
  const hash = createHash('md5').update(buf).digest('hex');
  let text: string | null = null;
  if (mime_id === 1 || /html/i.test(mime)) {
    text = buf
      .toString('utf8')
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
      .replace(/<br\s*\/?>|<\/p>/gi, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  } else if (/text\/plain/i.test(mime)) {
    text = buf.toString('utf8');
  }
  return { text, hash, size: buf.length };
}
