// Full person records (not placeholders) written per batch: one query fetches every row any
// record of the batch could join (by LegiScan id, each join key, or the id it would derive),
// identity is resolved in memory with the same rules as upsertPerson (people.ts) — records of
// the same batch see each other — and the changed rows go in one multi-row upsert.
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group, Later } from './batch.js';
import { contentHash } from './ids.js';
import {
  COLS,
  JOIN_ORDER,
  comparable,
  derivedId,
  findExisting,
  merge,
  newPeopleId,
  recordRow,
  type PersonColumns,
  type PersonRecord,
  type Row,
} from './people.js';

interface Pending {
  rec: PersonRecord;
  later: Later;
  resolved?: (peopleId: number) => void;
}

export class PeopleGroup implements Group {
  private pending: Pending[] = [];

  add(rec: PersonRecord, resolved?: (peopleId: number) => void): Later {
    const later: Later = { later: true };
    this.pending.push({ rec, later, resolved });
    return later;
  }

  clear(): void {
    this.pending = [];
  }

  private async fetch(db: Queryable, work: Pending[]): Promise<Map<number, Row>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const legiscan = work.map((p) => p.rec.legiscan_id).filter((x): x is number => !!x);
    if (legiscan.length) where.push(`legiscan_id = ANY($${params.push(legiscan)}::int[])`);
    for (const [key, col] of JOIN_ORDER) {
      const vals = work.map((p) => p.rec.ids[key]).filter((v): v is string => typeof v === 'string' && v !== '');
      if (vals.length) where.push(`${col} = ANY($${params.push(vals)}::text[])`);
    }
    const derived = work.map((p) => derivedId(p.rec)).filter((x): x is number => x !== undefined);
    if (derived.length) where.push(`people_id = ANY($${params.push(derived)}::bigint[])`);
    if (!where.length) return new Map();
    const { rows } = await db.query<Row>(`SELECT * FROM people WHERE ${where.join(' OR ')}`, params);
    return new Map(rows.map((r) => [Number(r.people_id), r]));
  }

  async flush(db: Queryable): Promise<void> {
    const work = this.pending;
    this.pending = [];
    if (!work.length) return;
    const known = await this.fetch(db, work);
    const writes = new Map<number, PersonColumns>();
    for (const p of work) {
      const { rec } = p;
      const candidates = [...known.values()]
        .filter((r) => matches(r, rec))
        .sort((a, b) => Number(a.people_id) - Number(b.people_id));
      const existing = findExisting(candidates, rec);
      const row = existing ? merge(existing, rec) : recordRow(rec);
      let id: number;
      if (existing && contentHash(comparable(row)) === contentHash(comparable(existing))) {
        id = Number(existing.people_id);
        p.later.value = 'unchanged';
      } else {
        const derived = derivedId(rec);
        id = existing
          ? Number(existing.people_id)
          : await newPeopleId(db, rec, derived !== undefined && known.has(derived));
        p.later.value = existing ? 'updated' : 'inserted';
        writes.set(id, row);
        known.set(id, { ...row, people_id: id });
      }
      p.resolved?.(id);
    }
    if (!writes.size) return;
    const input = [...writes.entries()].map(([people_id, r]) => ({ ...r, people_id }));
    await db.query(
      `INSERT INTO people (people_id, ${COLS.join(', ')}, updated)
       SELECT people_id, ${COLS.join(', ')}, now() FROM json_populate_recordset(NULL::people, $1::json)
       ON CONFLICT (people_id) DO UPDATE SET ${COLS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated = now()`,
      [JSON.stringify(input)],
    );
  }
}

function matches(r: Row, rec: PersonRecord): boolean {
  if (rec.legiscan_id && r.legiscan_id !== null && Number(r.legiscan_id) === rec.legiscan_id) return true;
  return JOIN_ORDER.some(
    ([key, col]) => typeof rec.ids[key] === 'string' && rec.ids[key] !== '' && r[col] === rec.ids[key],
  );
}

/** Queues a full person record in the batch; `resolved` receives its people_id when written. */
export function queuePerson(w: BatchWriter, rec: PersonRecord, resolved?: (peopleId: number) => void): Later {
  return w.group('people', () => new PeopleGroup()).add(rec, resolved);
}
