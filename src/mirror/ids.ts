// Wire ids of the push-mirror. LegiScan's stock schema stores session, people, committee and subject
// ids in 16-bit columns (smallint: at most 32,767 in its PostgreSQL variant) and bill, roll call and
// document ids in 24-bit columns (mediumint unsigned: at most 16,777,215). Records imported from
// LegiScan keep LegiScan's ids, which fit; every other writer of this service allocates ids from
// 10,000,000 upward (demo 10M+, simulator 50M+, imports 100M+, people up to 2^53), which do not.
//
// Choice: a per-mirror id map in PostgreSQL (mirror_ids). An id below 10,000,000 that fits its
// column is LegiScan's own and is sent unchanged; a person imported from LegiScan is sent with
// their LegiScan people_id. Every other id gets a wire id from that mirror's map, allocated the
// first time it is pushed, from the top of the column's range downward (LegiScan's own ids grow
// from the bottom), skipping ids that LegiScan records in our database already use. The API's ids
// never change; the map only exists on the wire. Limits: 16-bit kinds have 16,384 mapped ids per
// mirror (32,767 down to 16,384), 24-bit kinds 6,777,216 (16,777,215 down to 10,000,000); an
// exhausted range fails the push (retried, logged) instead of sending an id that would not fit.
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';

export type IdKind =
  'session' | 'people' | 'committee' | 'subject' | 'bill' | 'roll_call' | 'text' | 'amendment' | 'supplement';

/** Ids below this come from LegiScan (every other writer allocates from here upward). */
export const OWN_BELOW = 10_000_000;
const SMALL = { top: 32_767, floor: 16_384 };
const MEDIUM = { top: 16_777_215, floor: OWN_BELOW };
export const RANGES: Record<IdKind, { top: number; floor: number }> = {
  session: SMALL,
  people: SMALL,
  committee: SMALL,
  subject: SMALL,
  bill: MEDIUM,
  roll_call: MEDIUM,
  text: MEDIUM,
  amendment: MEDIUM,
  supplement: MEDIUM,
};

/** LegiScan's own ids of a kind that our database holds inside its band (an allocation never takes one of them). */
const OWN_IDS: Record<IdKind, string> = {
  session: `SELECT session_id::bigint AS id FROM sessions WHERE session_id BETWEEN $1 AND $2`,
  people: `SELECT legiscan_id AS id FROM people WHERE legiscan_id BETWEEN $1 AND $2
           UNION SELECT people_id FROM people WHERE people_id BETWEEN $1 AND $2 AND legiscan_id IS NULL`,
  committee: `SELECT committee_id::bigint AS id FROM committees WHERE committee_id BETWEEN $1 AND $2`,
  subject: `SELECT subject_id::bigint AS id FROM subjects WHERE subject_id BETWEEN $1 AND $2`,
  // 24-bit bands start at OWN_BELOW, above every LegiScan id: nothing to skip there
  bill: '',
  roll_call: '',
  text: '',
  amendment: '',
  supplement: '',
};

const isOwn = (kind: IdKind, id: number) => id > 0 && id < OWN_BELOW && id <= RANGES[kind].top;

/** Wire ids for local ids, per kind; 0 stays 0 (LegiScan's "none"). */
export class IdMap {
  private readonly cache = new Map<string, number>();
  constructor(
    private readonly pool: Pool,
    readonly subscriptionId: number,
  ) {}

  get(kind: IdKind, local: number): number {
    if (!local) return 0;
    const w = this.cache.get(`${kind}:${local}`);
    if (w === undefined) throw new Error(`no wire id resolved for ${kind} ${local}`);
    return w;
  }

  /** Resolves every id in `wanted` (allocating the missing ones), so get() answers synchronously. */
  async resolve(wanted: Map<IdKind, Set<number>>): Promise<void> {
    const people = [...(wanted.get('people') ?? [])].filter((id) => id > 0 && !this.cache.has(`people:${id}`));
    const need: { kind: IdKind; local: number }[] = [];
    for (const [kind, ids] of wanted) {
      for (const id of ids) {
        if (!id || this.cache.has(`${kind}:${id}`)) continue;
        if (isOwn(kind, id) && kind !== 'people') this.cache.set(`${kind}:${id}`, id);
        else need.push({ kind, local: id });
      }
    }
    // LegiScan people ids and the map, in one wave of round trips
    const [legiscan, found] = await Promise.all([
      people.length > 0
        ? this.pool.query<{ people_id: string; legiscan_id: string | null }>(
            'SELECT people_id::text, legiscan_id::text FROM people WHERE people_id = ANY($1::bigint[]) AND legiscan_id IS NOT NULL',
            [people],
          )
        : Promise.resolve({ rows: [] as { people_id: string; legiscan_id: string | null }[] }),
      need.length > 0 ? this.lookup(this.pool, need) : Promise.resolve(new Map<string, number>()),
    ]);
    for (const r of legiscan.rows) {
      const lid = Number(r.legiscan_id);
      if (isOwn('people', lid)) this.cache.set(`people:${r.people_id}`, lid);
    }
    for (const n of need)
      if (n.kind === 'people' && !this.cache.has(`people:${n.local}`) && isOwn('people', n.local))
        this.cache.set(`people:${n.local}`, n.local);
    const missing = need.filter((n) => !this.cache.has(`${n.kind}:${n.local}`) && !found.has(`${n.kind}:${n.local}`));
    if (missing.length > 0) for (const [k, v] of await this.allocate(missing)) found.set(k, v);
    // a LegiScan people_id wins over a mapping made before the person had one
    for (const [k, v] of found) if (!this.cache.has(k)) this.cache.set(k, v);
  }

  private async lookup(db: Queryable, need: { kind: IdKind; local: number }[]): Promise<Map<string, number>> {
    const { rows } = await db.query<{ kind: string; local_id: string; wire_id: number }>(
      `SELECT m.kind, m.local_id::text, m.wire_id FROM mirror_ids m JOIN unnest($2::text[], $3::bigint[]) AS w(kind, local_id) USING (kind, local_id)
       WHERE m.subscription_id = $1`,
      [this.subscriptionId, need.map((n) => n.kind), need.map((n) => n.local)],
    );
    return new Map(rows.map((r) => [`${r.kind}:${r.local_id}`, r.wire_id]));
  }

  /** Allocates under a per-mirror advisory lock so two workers never hand out the same wire id. */
  private async allocate(need: { kind: IdKind; local: number }[]): Promise<Map<string, number>> {
    return withTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(1296651845, $1::int)', [this.subscriptionId]);
      const out = await this.lookup(client, need); // another worker may have allocated them meanwhile
      const byKind = new Map<IdKind, number[]>();
      for (const n of need)
        if (!out.has(`${n.kind}:${n.local}`)) byKind.set(n.kind, [...(byKind.get(n.kind) ?? []), n.local]);
      for (const [kind, locals] of byKind) {
        const { top, floor } = RANGES[kind];
        const {
          rows: [low],
        } = await client.query<{ low: number | null }>(
          'SELECT min(wire_id) AS low FROM mirror_ids WHERE subscription_id = $1 AND kind = $2',
          [this.subscriptionId, kind],
        );
        let next = (low?.low ?? top + 1) - 1;
        const taken = new Set(
          OWN_IDS[kind]
            ? (await client.query<{ id: string }>(OWN_IDS[kind], [floor, next])).rows.map((r) => Number(r.id))
            : [],
        );
        const wires: number[] = [];
        for (let i = 0; i < locals.length; i++) {
          while (taken.has(next)) next--;
          if (next < floor) throw new Error(`mirror id range for ${kind} exhausted (${top - floor + 1} ids)`);
          wires.push(next--);
        }
        await client.query(
          `INSERT INTO mirror_ids (subscription_id, kind, local_id, wire_id) SELECT $1, $2, * FROM unnest($3::bigint[], $4::int[])`,
          [this.subscriptionId, kind, locals, wires],
        );
        locals.forEach((l, i) => out.set(`${kind}:${l}`, wires[i]!));
      }
      return out;
    });
  }
}

/** Local ids for wire ids a receiver asked for (`missing`): the map first, else LegiScan's own id. */
export async function localIds(db: Queryable, subscriptionId: number, kind: IdKind, wire: number[]): Promise<number[]> {
  if (wire.length === 0) return [];
  const { rows } = await db.query<{ wire_id: number; local_id: string }>(
    'SELECT wire_id, local_id::text FROM mirror_ids WHERE subscription_id = $1 AND kind = $2 AND wire_id = ANY($3::int[])',
    [subscriptionId, kind, wire],
  );
  const mapped = new Map(rows.map((r) => [r.wire_id, Number(r.local_id)]));
  const own = wire.filter((w) => !mapped.has(w));
  const ownLocal = new Map<number, number>();
  if (kind === 'people' && own.length > 0) {
    const { rows: ps } = await db.query<{ legiscan_id: string; people_id: string }>(
      'SELECT DISTINCT ON (legiscan_id) legiscan_id::text, people_id::text FROM people WHERE legiscan_id = ANY($1::bigint[]) ORDER BY legiscan_id, people_id',
      [own],
    );
    for (const p of ps) ownLocal.set(Number(p.legiscan_id), Number(p.people_id));
  }
  return wire.map((w) => mapped.get(w) ?? ownLocal.get(w) ?? w);
}
