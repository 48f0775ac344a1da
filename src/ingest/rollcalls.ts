// Roll calls with member votes, and decoded bill text documents. A roll call or text version that
// was not there before, on a bill that was, is a change (Vote / Text) recorded with the rows.
import { recordChanges } from '../changes/record.js';
import type { Queryable } from '../db/pool.js';
import { contentHash } from './ids.js';
import type { Outcome } from './report.js';
import { RecordError } from './report.js';

export interface RollCallRecord {
  roll_call_id: number; bill_id: number; body_id: number | null; date: string | null; desc: string;
  yea: number; nay: number; nv: number; absent: number; total: number; passed: number; state_url: string;
  external_ids: Record<string, unknown>;
  members: { people_id: number; vote_id: number }[];
}

export async function upsertRollCall(db: Queryable, rc: RollCallRecord): Promise<Outcome> {
  const bill = (await db.query<{ state_id: number; body_id: number }>('SELECT state_id, body_id FROM bills WHERE bill_id = $1', [rc.bill_id])).rows[0];
  if (!bill) throw new RecordError(`bill ${rc.bill_id} is not imported`, 'bill_id');
  // One row per member: a duplicated member keeps the first vote listed.
  const seen = new Set<number>();
  const members = rc.members.filter((m) => !seen.has(m.people_id) && seen.add(m.people_id));
  const hash = contentHash({ ...rc, members });
  const existing = (await db.query<{ import_hash: string }>('SELECT import_hash FROM roll_calls WHERE roll_call_id = $1', [rc.roll_call_id])).rows[0];
  if (existing?.import_hash === hash) return 'unchanged';
  await db.query(
    `INSERT INTO roll_calls (roll_call_id, bill_id, roll_call_body_id, vote_date, description, yea, nay, nv, absent, total, passed, state_url, external_ids, import_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (roll_call_id) DO UPDATE SET bill_id = EXCLUDED.bill_id, roll_call_body_id = EXCLUDED.roll_call_body_id, vote_date = EXCLUDED.vote_date,
       description = CASE WHEN EXCLUDED.description <> '' THEN EXCLUDED.description ELSE roll_calls.description END, yea = EXCLUDED.yea, nay = EXCLUDED.nay,
       nv = EXCLUDED.nv, absent = EXCLUDED.absent, total = EXCLUDED.total, passed = EXCLUDED.passed,
       state_url = CASE WHEN EXCLUDED.state_url <> '' THEN EXCLUDED.state_url ELSE roll_calls.state_url END,
       external_ids = roll_calls.external_ids || EXCLUDED.external_ids, import_hash = EXCLUDED.import_hash`,
    [rc.roll_call_id, rc.bill_id, rc.body_id ?? bill.body_id, rc.date, rc.desc, rc.yea, rc.nay, rc.nv, rc.absent, rc.total, rc.passed, rc.state_url, JSON.stringify(rc.external_ids), hash],
  );
  await db.query('DELETE FROM roll_call_votes WHERE roll_call_id = $1', [rc.roll_call_id]);
  if (members.length) {
    await db.query('INSERT INTO roll_call_votes (roll_call_id, people_id, vote_id) SELECT $1, * FROM unnest($2::bigint[], $3::smallint[])',
      [rc.roll_call_id, members.map((m) => m.people_id), members.map((m) => m.vote_id)]);
  }
  if (!existing) await recordChanges(db, [{ bill_id: rc.bill_id, state_id: bill.state_id, reason: 'Vote', detail: { roll_call_id: rc.roll_call_id } }]);
  return existing ? 'updated' : 'inserted';
}

export interface TextDocument {
  text_id: number; bill_id: number; type_id: number; date: string | null; mime_id: number; size: number; hash: string; state_url: string;
  content: string | null;
}

export async function upsertTextDocument(db: Queryable, t: TextDocument): Promise<Outcome> {
  const bill = (await db.query<{ state_id: number }>('SELECT state_id FROM bills WHERE bill_id = $1', [t.bill_id])).rows[0];
  if (!bill) throw new RecordError(`bill ${t.bill_id} is not imported`, 'bill_id');
  const existing = (await db.query<{ text_hash: string; content: string | null }>('SELECT text_hash, content FROM bill_texts WHERE text_id = $1', [t.text_id])).rows[0];
  if (existing && existing.content === t.content && (existing.text_hash === t.hash || !t.hash)) return 'unchanged';
  const words = t.content ? (t.content.match(/\S+/g)?.length ?? 0) : 0;
  await db.query(
    `INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, mime_id, size_bytes, word_count, state_url, text_hash, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (text_id) DO UPDATE SET content = EXCLUDED.content, word_count = EXCLUDED.word_count, size_bytes = EXCLUDED.size_bytes,
       text_hash = CASE WHEN EXCLUDED.text_hash <> '' THEN EXCLUDED.text_hash ELSE bill_texts.text_hash END`,
    [t.text_id, t.bill_id, t.type_id, t.date, t.mime_id, t.size, words, t.state_url, t.hash, t.content],
  );
  if (t.content !== null) {
    // The text diff worker compares each version with the previous one of the same bill.
    await db.query(
      `INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id)
       SELECT p.text_id, $1, $2 FROM bill_texts p, bill_texts c
        WHERE c.text_id = $1 AND p.bill_id = $2 AND p.text_id <> $1 AND p.content IS NOT NULL
          AND (p.text_date, p.text_id) < (c.text_date, c.text_id)
        ORDER BY p.text_date DESC, p.text_id DESC LIMIT 1
       ON CONFLICT DO NOTHING`,
      [t.text_id, t.bill_id],
    );
  }
  if (!existing) await recordChanges(db, [{ bill_id: t.bill_id, state_id: bill.state_id, reason: 'Text', detail: { text_id: t.text_id } }]);
  return existing ? 'updated' : 'inserted';
}
