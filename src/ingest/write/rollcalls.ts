// Roll calls with member votes. A roll call that was not there before, on a bill that was, is a
// change (Vote) recorded with the rows.
// Roll calls are written per batch, a few statements for hundreds of them (RollCallGroup).
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group, Later } from './batch.js';
import { withCopy } from './buffer.js';
import { createHash } from 'node:crypto';
import { RecordError } from './report.js';

export interface RollCallRecord {
  roll_call_id: number;
  bill_id: number;
  body_id: number | null;
  date: string | null;
  desc: string;
  yea: number;
  nay: number;
  nv: number;
  absent: number;
  total: number;
  passed: number;
  state_url: string;
  external_ids: Record<string, unknown>;
  members: { people_id: number; vote_id: number }[];
}

type RollCallHeader = Omit<RollCallRecord, 'members'>;

const MEMBER_VOTES = withCopy({
  types: ['int', 'bigint', 'smallint'],
  sql: 'INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) SELECT * FROM $COLS',
});

/**
 * Roll calls are written in groups: one statement per batch upserts every header whose hash
 * differs (only when its bill exists), deletes the member rows it replaces and returns what was
 * there before; the member rows are then queued as one multi-row insert.
 */
class RollCallGroup implements Group {
  private pending: { rc: RollCallHeader; members: string; hash: string; later: Later }[] = [];

  /** `members`: the member rows as COPY text */
  add(rc: RollCallHeader, members: string, hash: string): Later {
    const later: Later = { later: true };
    this.pending.push({ rc, members, hash, later });
    return later;
  }

  clear(): void {
    this.pending = [];
  }

  async flush(db: Queryable, w: BatchWriter): Promise<void> {
    const all = this.pending;
    this.pending = [];
    if (!all.length) return;
    // Hashes first: unchanged roll calls (a re-import) are settled without shipping their rows.
    const stored = new Map(
      (
        await db.query<{ roll_call_id: number; import_hash: string }>(
          'SELECT roll_call_id, import_hash FROM roll_calls WHERE roll_call_id = ANY($1::int[])',
          [all.map((x) => x.rc.roll_call_id)],
        )
      ).rows.map((r) => [r.roll_call_id, r.import_hash]),
    );
    const work = all.filter((x) => {
      if (stored.get(x.rc.roll_call_id) !== x.hash) return true;
      x.later.value = 'unchanged';
      return false;
    });
    if (!work.length) return;
    const input = work.map(({ rc, hash }) => ({
      roll_call_id: rc.roll_call_id,
      bill_id: rc.bill_id,
      roll_call_body_id: rc.body_id,
      vote_date: rc.date,
      description: rc.desc,
      yea: rc.yea,
      nay: rc.nay,
      nv: rc.nv,
      absent: rc.absent,
      total: rc.total,
      passed: rc.passed,
      state_url: rc.state_url,
      external_ids: rc.external_ids,
      import_hash: hash,
    }));
    const { rows } = await db.query<{
      roll_call_id: number;
      state_id: number | null;
      import_hash: string | null;
      wrote: boolean;
    }>(
      `WITH input AS (SELECT * FROM json_populate_recordset(NULL::roll_calls, $1::json)),
         b AS (SELECT bill_id, state_id, body_id FROM bills WHERE bill_id IN (SELECT bill_id FROM input)),
         old AS (SELECT r.roll_call_id, r.import_hash FROM roll_calls r JOIN input USING (roll_call_id)),
         up AS (
           INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url, external_ids, import_hash)
           SELECT i.roll_call_id, i.bill_id, coalesce(i.roll_call_body_id, b.body_id), i.vote_date, i.description, i.yea, i.nay, i.nv, i.absent, i.total, i.passed,
                  i.state_url, i.external_ids, i.import_hash
             FROM input i JOIN b USING (bill_id)
           ON CONFLICT (roll_call_id) DO UPDATE SET bill_id = EXCLUDED.bill_id, roll_call_body_id = EXCLUDED.roll_call_body_id, vote_date = EXCLUDED.vote_date,
             description = CASE WHEN EXCLUDED.description <> '' THEN EXCLUDED.description ELSE roll_calls.description END, yea = EXCLUDED.yea, nay = EXCLUDED.nay,
             nv = EXCLUDED.nv, absent = EXCLUDED.absent, total = EXCLUDED.total, passed = EXCLUDED.passed,
             state_url = CASE WHEN EXCLUDED.state_url <> '' THEN EXCLUDED.state_url ELSE roll_calls.state_url END,
             external_ids = roll_calls.external_ids || EXCLUDED.external_ids, import_hash = EXCLUDED.import_hash
           WHERE roll_calls.import_hash IS DISTINCT FROM EXCLUDED.import_hash
           RETURNING roll_call_id),
         gone AS (DELETE FROM roll_call_votes WHERE roll_call_id IN (SELECT roll_call_id FROM up))
       SELECT i.roll_call_id, b.state_id, old.import_hash, i.roll_call_id IN (SELECT roll_call_id FROM up) AS wrote
         FROM input i LEFT JOIN b USING (bill_id) LEFT JOIN old USING (roll_call_id)`,
      [JSON.stringify(input)],
    );
    const byId = new Map(rows.map((r) => [r.roll_call_id, r]));
    for (const { rc, members, later } of work) {
      const found = byId.get(rc.roll_call_id)!;
      // Fails the group; the batch replay then writes each roll call alone and reports this one.
      if (found.state_id === null) throw new RecordError(`bill ${rc.bill_id} is not imported`, 'bill_id');
      if (!found.wrote) {
        later.value = 'unchanged';
        continue;
      }
      w.buffer.addCopyText(MEMBER_VOTES, members);
      // A roll call its bill listed (a header row, import_hash '') is new when its own file first
      // arrives: counted inserted. The Vote change was already recorded with the bill's row.
      if (found.import_hash === null)
        w.change({
          bill_id: rc.bill_id,
          state_id: found.state_id,
          reason: 'Vote',
          detail: { roll_call_id: rc.roll_call_id },
        });
      later.value = found.import_hash ? 'updated' : 'inserted';
    }
  }
}

export async function upsertRollCall(db: Queryable, rc: RollCallRecord, w: BatchWriter): Promise<Later> {
  const key = `rc:${rc.roll_call_id}`;
  // The same roll call twice in one batch: the second must see the first.
  if (w.buffer.has(key)) await w.flush(db);
  w.buffer.claim(key);
  // One row per member: a duplicated member keeps the first vote listed.
  const seen = new Set<number>();
  // Built by hand, not JSON.stringify: hashing a hundred member objects per roll call was a
  // visible share of an import's CPU. The member rows are COPY text built in the same loop.
  const { members: all, external_ids, ...header } = rc;
  let body = JSON.stringify(header) + JSON.stringify(external_ids);
  let rows = '';
  for (const m of all) {
    if (seen.has(m.people_id)) continue;
    seen.add(m.people_id);
    body += `|${m.people_id}:${m.vote_id}`;
    rows += `${rc.roll_call_id}\t${m.people_id}\t${m.vote_id}\n`;
  }
  const hash = createHash('md5').update(body).digest('hex');
  // The header only: the member objects (a hundred per roll call) die here instead of living,
  // and being copied by every young-generation collection, until the batch is written.
  return w.group('roll_calls', () => new RollCallGroup()).add({ ...header, external_ids }, rows, hash);
}
