// Decoded bill text documents, written per batch: one statement upserts every document of the
// batch whose content or hash differs (only where its bill exists), one more queues the diff of
// each new version against the previous one of its bill. A version not listed before on an
// existing bill is a change (Text), recorded with the rows.
import type { Queryable } from '../../db/pool.js';
import type { BatchWriter, Group, Later } from './batch.js';

export interface TextDocument {
  text_id: number;
  bill_id: number;
  type_id: number;
  date: string | null;
  mime_id: number;
  size: number;
  hash: string;
  state_url: string;
  content: string | null;
}

class TextGroup implements Group {
  private pending: { t: TextDocument; later: Later }[] = [];

  add(t: TextDocument): Later {
    const later: Later = { later: true };
    this.pending.push({ t, later });
    return later;
  }

  clear(): void {
    this.pending = [];
  }

  async flush(db: Queryable, w: BatchWriter): Promise<void> {
    const work = this.pending;
    this.pending = [];
    if (!work.length) return;
    // The last document of a text_id wins when one batch holds it twice.
    const byId = new Map(work.map(({ t }) => [t.text_id, t]));
    const input = [...byId.values()].map((t) => ({
      text_id: t.text_id,
      bill_id: t.bill_id,
      bill_text_type_id: t.type_id,
      text_date: t.date,
      mime_id: t.mime_id,
      size_bytes: t.size,
      word_count: t.content ? (t.content.match(/\S+/g)?.length ?? 0) : 0,
      state_url: t.state_url,
      text_hash: t.hash,
      content: t.content,
    }));
    const { rows } = await db.query<{ text_id: number; state_id: number | null; existed: boolean; wrote: boolean }>(
      `WITH input AS (SELECT * FROM json_populate_recordset(NULL::bill_texts, $1::json)),
         b AS (SELECT bill_id, state_id FROM bills WHERE bill_id IN (SELECT bill_id FROM input)),
         old AS (SELECT t.text_id FROM bill_texts t JOIN input USING (text_id)),
         up AS (
           INSERT INTO bill_texts (text_id, bill_id, bill_text_type_id, text_date, mime_id, size_bytes, word_count, state_url, text_hash, content)
           SELECT i.text_id, i.bill_id, i.bill_text_type_id, i.text_date, i.mime_id, i.size_bytes, i.word_count, i.state_url, i.text_hash, i.content
             FROM input i JOIN b USING (bill_id)
           ON CONFLICT (text_id) DO UPDATE SET content = EXCLUDED.content, word_count = EXCLUDED.word_count, size_bytes = EXCLUDED.size_bytes,
             text_hash = CASE WHEN EXCLUDED.text_hash <> '' THEN EXCLUDED.text_hash ELSE bill_texts.text_hash END
           WHERE bill_texts.content IS DISTINCT FROM EXCLUDED.content OR (EXCLUDED.text_hash <> '' AND bill_texts.text_hash IS DISTINCT FROM EXCLUDED.text_hash)
           RETURNING text_id)
       SELECT i.text_id, b.state_id, old.text_id IS NOT NULL AS existed, i.text_id IN (SELECT text_id FROM up) AS wrote
         FROM input i LEFT JOIN b USING (bill_id) LEFT JOIN old USING (text_id)`,
      [JSON.stringify(input)],
    );
    const found = new Map(rows.map((r) => [r.text_id, r]));
    const queued: number[] = [];
    for (const { t, later } of work) {
      const r = found.get(t.text_id)!;
      if (r.state_id === null) {
        later.value = { skip: 'its bill is not in this dataset or the database' };
        continue;
      }
      if (!r.wrote) {
        later.value = 'unchanged';
        continue;
      }
      if (t.content !== null) queued.push(t.text_id);
      if (!r.existed)
        w.change({ bill_id: t.bill_id, state_id: r.state_id, reason: 'Text', detail: { text_id: t.text_id } });
      later.value = r.existed ? 'updated' : 'inserted';
    }
    // The text diff worker compares each version with the previous one of the same bill.
    if (queued.length) {
      await db.query(
        `INSERT INTO text_diff_queue (from_text_id, to_text_id, bill_id)
         SELECT p.text_id, c.text_id, c.bill_id FROM bill_texts c
          CROSS JOIN LATERAL (SELECT p.text_id FROM bill_texts p
                               WHERE p.bill_id = c.bill_id AND p.text_id <> c.text_id AND p.content IS NOT NULL
                                 AND (p.text_date, p.text_id) < (c.text_date, c.text_id)
                               ORDER BY p.text_date DESC, p.text_id DESC LIMIT 1) p
          WHERE c.text_id = ANY($1::int[]) AND c.content IS NOT NULL
         ON CONFLICT DO NOTHING`,
        [queued],
      );
    }
  }
}

/** Queues a decoded document in the batch; its outcome is known when the batch is written. */
export function queueTextDocument(w: BatchWriter, t: TextDocument): Later {
  return w.group('texts', () => new TextGroup()).add(t);
}
