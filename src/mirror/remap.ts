// Where ids sit in each push type, and the rewrite from our ids to a mirror's wire ids (ids.ts).
import type { IdKind, IdMap } from './ids.js';

type Obj = Record<string, unknown>;
/** [field, kind] at the root of a payload, and [list, field, kind] inside its lists. */
type Paths = { root: [string, IdKind][]; lists: [string, string, IdKind][]; nested?: [string, string, IdKind][] };

const PATHS: Record<string, Paths> = {
  bill: {
    root: [
      ['bill_id', 'bill'],
      ['session_id', 'session'],
      ['pending_committee_id', 'committee'],
    ],
    nested: [
      ['session', 'session_id', 'session'],
      ['committee', 'committee_id', 'committee'],
    ],
    lists: [
      ['referrals', 'committee_id', 'committee'],
      ['sponsors', 'people_id', 'people'],
      ['sponsors', 'committee_id', 'committee'],
      ['sasts', 'sast_bill_id', 'bill'],
      ['subjects', 'subject_id', 'subject'],
      ['texts', 'doc_id', 'text'],
      ['votes', 'roll_call_id', 'roll_call'],
      ['amendments', 'amendment_id', 'amendment'],
      ['supplements', 'supplement_id', 'supplement'],
    ],
  },
  roll_call: {
    root: [
      ['roll_call_id', 'roll_call'],
      ['bill_id', 'bill'],
    ],
    lists: [['votes', 'people_id', 'people']],
  },
  person: {
    root: [
      ['people_id', 'people'],
      ['committee_id', 'committee'],
    ],
    lists: [],
  },
  text: {
    root: [
      ['doc_id', 'text'],
      ['bill_id', 'bill'],
    ],
    lists: [],
  },
  amendment: {
    root: [
      ['amendment_id', 'amendment'],
      ['bill_id', 'bill'],
    ],
    lists: [],
  },
  supplement: {
    root: [
      ['supplement_id', 'supplement'],
      ['bill_id', 'bill'],
    ],
    lists: [],
  },
};

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const nested = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** Visits every id slot of a payload: (kind, current value, setter). */
function visit(root: string, p: Obj, fn: (kind: IdKind, value: number, set: (v: number) => void) => void) {
  const paths = PATHS[root];
  if (!paths) return;
  for (const [f, kind] of paths.root) fn(kind, Number(p[f] ?? 0), (v) => (p[f] = v));
  for (const [o, f, kind] of paths.nested ?? []) {
    const obj = nested(p[o]);
    if (obj) fn(kind, Number(obj[f] ?? 0), (v) => (obj[f] = v));
  }
  for (const [l, f, kind] of paths.lists)
    for (const item of list(p[l])) fn(kind, Number(item[f] ?? 0), (v) => (item[f] = v));
}

/** Rewrites a payload (in place) from our ids to the mirror's wire ids, allocating new ones as needed. */
export async function toWire(map: IdMap, root: string, payload: Obj): Promise<Obj> {
  const wanted = new Map<IdKind, Set<number>>();
  visit(root, payload, (kind, v) => {
    if (v) wanted.set(kind, (wanted.get(kind) ?? new Set()).add(v));
  });
  await map.resolve(wanted);
  visit(root, payload, (kind, v, set) => set(map.get(kind, v)));
  return payload;
}
