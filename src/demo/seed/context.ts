// What every generator module shares: the corpus seed, reference rows read from the database,
// fixed dates (the corpus never reads the clock) and the id ranges of demo data.
import type { Queryable } from '../../db/pool.js';

/** Demo int ids start here (LegiScan ids stay below it; importers allocate from 100,000,000). */
export const DEMO_ID_BASE = 10_000_000;
export const DEMO_ID_END = 100_000_000;
/** Every date in the corpus derives from this anchor; "now" for the corpus is CORPUS_NOW. */
export const ANCHOR = Date.UTC(2026, 0, 5);
export const CORPUS_NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
export const DAY = 86_400_000;

export interface StateRow {
  state_id: number;
  state_abbr: string;
  state_name: string;
}

export interface BodyRow {
  body_id: number;
  state_id: number;
  role_id: number;
  body_abbr: string;
  body_short: string;
  body_name: string;
  body_role_abbr: string;
}

export interface SeedContext {
  seed: number;
  states: StateRow[];
  /** legislative chambers per state (joint bodies excluded) */
  chambers: Map<number, BodyRow[]>;
  jointBodies: Map<number, BodyRow>;
  topicIds: Map<string, number>;
}

export async function loadContext(db: Queryable, seed: number): Promise<SeedContext> {
  const states = (await db.query<StateRow>('SELECT state_id, state_abbr, state_name FROM states ORDER BY state_id'))
    .rows;
  const bodies = (
    await db.query<BodyRow>(
      'SELECT body_id, state_id, role_id, body_abbr, body_short, body_name, body_role_abbr FROM bodies ORDER BY state_id, role_id, body_id',
    )
  ).rows;
  const topics = (await db.query<{ topic_id: number; slug: string }>('SELECT topic_id, slug FROM topics')).rows;
  const chambers = new Map<number, BodyRow[]>();
  const jointBodies = new Map<number, BodyRow>();
  for (const b of bodies) {
    if (b.role_id === 3) {
      jointBodies.set(b.state_id, b);
      continue;
    }
    const list = chambers.get(b.state_id) ?? [];
    list.push(b);
    chambers.set(b.state_id, list);
  }
  return { seed, states, chambers, jointBodies, topicIds: new Map(topics.map((t) => [t.slug, t.topic_id])) };
}

/** 'YYYY-MM-DD' for a millisecond timestamp (UTC). */
const dateCache = new Map<number, string>();
export const isoDate = (ms: number): string => {
  const day = Math.floor(ms / DAY);
  let s = dateCache.get(day);
  if (s === undefined) dateCache.set(day, (s = new Date(day * DAY).toISOString().slice(0, 10)));
  return s;
};
export const isoTime = (ms: number): string => new Date(ms).toISOString();
export const dayOf = (date: string): number => Date.parse(date + 'T00:00:00Z');

export const hex = (rng: { next(): number }, len: number): string => {
  let s = '';
  while (s.length < len)
    s += Math.floor(rng.next() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return s.slice(0, len);
};

/** States that publish citations and analyses; other states have none. */
export const CITING_STATES = new Set(['CA', 'FL', 'TX', 'NY', 'WA', 'US']);
/** States whose bill numbers are published zero-padded (HB0001). */
export const PADDED_STATES = new Set(['IL', 'WY']);
/** States that publish legislators' names only as one combined string ("Rep. Smith, John"). */
export const COMBINED_NAME_STATES = new Set(['AL', 'MS', 'SC', 'WV']);
/** States carrying split legislator identities (one person under two people_id values). */
export const SPLIT_IDENTITY_STATES = new Set(['LA', 'MS', 'OK']);
/** States whose portals tag bills with interface labels such as "Bill Text". */
export const INTERFACE_LABEL_STATES = new Set(['AZ', 'GA', 'MO', 'TN', 'KY']);
/** States whose roll-call member lists are sometimes shorter than the chamber's header tallies. */
export const SHORT_ROLL_STATES = new Set(['NH', 'MA', 'NY', 'PA']);
