// The demo corpus: same seed, same rows; a different seed, different rows; and every edge case
// the spec names, checked by querying the database.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billNumberKey } from '../../src/domain/bill-number.js';
import { seed } from '../../src/demo/seed.js';
import { isInterfaceLabel } from '../../src/topics/rules.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

const BILLS = 600;
const TABLES = [
  'sessions',
  'people',
  'committees',
  'committee_members',
  'subjects',
  'subject_topics',
  'bills',
  'bill_sponsors',
  'bill_history',
  'bill_texts',
  'roll_calls',
  'roll_call_votes',
  'bill_subjects',
  'bill_topics',
  'amendments',
  'bill_referrals',
  'bill_calendar',
  'supplements',
  'bill_sasts',
  'bill_citations',
  'bill_analyses',
  'hearings',
  'candidates',
  'candidacies',
];

async function fingerprint(db: TestDatabase): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of TABLES) {
    const { rows } = await db.pool.query<{ h: string; n: number }>(
      `SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h, count(*)::int AS n FROM ${t} x`,
    );
    out[t] = `${rows[0].n}:${rows[0].h}`;
  }
  // created_at/seq of change rows come from the clock and the relay; what was recorded must match.
  const { rows } = await db.pool.query<{ h: string }>(
    `SELECT md5(string_agg(bill_id || ':' || reason_id || ':' || new_status, ',' ORDER BY change_id)) AS h FROM changes`,
  );
  out.changes = rows[0].h;
  return out;
}

// Every index and constraint of the schema, as the catalog defines them.
async function schemaShape(db: TestDatabase): Promise<string[]> {
  const { rows } = await db.pool.query<{ d: string }>(`
    SELECT tablename || ': ' || indexdef AS d FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT conrelid::regclass::text || ': ' || conname || ' ' || pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    ORDER BY 1`);
  return rows.map((r) => r.d);
}

let a: TestDatabase;
let b: TestDatabase;
let c: TestDatabase;
let printA: Record<string, string>;
let shapeBefore: string[];

beforeAll(async () => {
  [a, b, c] = await Promise.all([freshDatabase(4), freshDatabase(4), freshDatabase(4)]);
  shapeBefore = await schemaShape(a);
  await seed(a.pool, { bills: BILLS, seed: 7 });
  printA = await fingerprint(a);
}, 300_000);

afterAll(async () => {
  await Promise.all([a?.drop(), b?.drop(), c?.drop()]);
});

describe('seed bulk load', () => {
  it('leaves every index and constraint exactly as the migrations built them', async () => {
    expect(shapeBefore.length).toBeGreaterThan(100);
    expect(shapeBefore.some((d) => d.includes('USING gin (search)'))).toBe(true);
    expect(await schemaShape(a)).toEqual(shapeBefore);
  });

  it('rolls back completely when the load fails, keeping the previous corpus, indexes and constraints', async () => {
    const d = await freshDatabase(2);
    try {
      await seed(d.pool, { bills: 50, seed: 3 });
      const before = await fingerprint(d);
      // A check the 20th bill violates: COPY fails midway, after TRUNCATE and the index drops.
      await d.pool.query(`ALTER TABLE bills ADD CONSTRAINT seed_test_limit CHECK (bill_id < 10000020) NOT VALID`);
      await expect(seed(d.pool, { bills: 50, seed: 4 })).rejects.toThrow(/seed_test_limit/);
      await d.pool.query(`ALTER TABLE bills DROP CONSTRAINT seed_test_limit`);
      expect(await fingerprint(d)).toEqual(before);
      expect(await schemaShape(d)).toEqual(shapeBefore);
    } finally {
      await d.drop();
    }
  }, 300_000);
});

describe('seed determinism', () => {
  it('gives identical rows in every table for the same seed, in another database', async () => {
    const result = await seed(b.pool, { bills: BILLS, seed: 7 });
    expect(result.counts.bills).toBe(BILLS);
    expect(await fingerprint(b)).toEqual(printA);
  }, 300_000);

  it('gives different rows for a different seed', async () => {
    await seed(c.pool, { bills: BILLS, seed: 8 });
    const printC = await fingerprint(c);
    expect(printC.bills).not.toBe(printA.bills);
    expect(printC.people).not.toBe(printA.people);
    expect(printC.bill_texts).not.toBe(printA.bill_texts);
  }, 300_000);

  it('gives the same rows from the compiled command, which generates in a worker thread', async () => {
    const d = await freshDatabase(2);
    try {
      const bin = path.resolve(import.meta.dirname, '../../bin/lds.js');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [bin, 'seed', '--scale', String(BILLS), '--seed', '7'],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: d.url },
          timeout: 120_000,
        },
      );
      expect(stdout).toMatch(/bills\s+600/);
      expect(await fingerprint(d)).toEqual(printA);
    } finally {
      await d.drop();
    }
  }, 300_000);

  it('re-seeding replaces the demo corpus and leaves keys alone', async () => {
    await c.pool.query(
      `INSERT INTO api_keys (api_key_id, key_prefix, key_hash, org_name, monthly_cap, burst_limit) VALUES ('key_keepme', 'lds_x', '\\x01', 'org', 10, 1)`,
    );
    await seed(c.pool, { bills: BILLS, seed: 7 });
    expect(await fingerprint(c)).toEqual(printA);
    const { rowCount } = await c.pool.query(`SELECT 1 FROM api_keys WHERE api_key_id = 'key_keepme'`);
    expect(rowCount).toBe(1);
  }, 300_000);
});

describe('demo corpus coverage and edge cases', () => {
  const q = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await a.pool.query<T>(sql, params)).rows;
  const one = async (sql: string, params: unknown[] = []) => Number(Object.values((await q(sql, params))[0])[0]);

  it('covers all 52 jurisdictions with sessions, legislators, committees and bills', async () => {
    expect(await one('SELECT count(DISTINCT state_id) FROM sessions')).toBe(52);
    expect(await one('SELECT count(DISTINCT state_id) FROM people')).toBe(52);
    expect(await one('SELECT count(DISTINCT state_id) FROM committees')).toBe(52);
    expect(await one('SELECT count(DISTINCT state_id) FROM bills')).toBeGreaterThanOrEqual(45);
    // Every chamber of the bodies table (but joint conference) has members: DC 116, NE 64, US 114/115.
    expect(
      await one(
        `SELECT count(*) FROM bodies b WHERE role_id <> 3 AND NOT EXISTS (SELECT 1 FROM people p WHERE p.body_id = b.body_id)`,
      ),
    ).toBe(0);
    expect(await one(`SELECT count(*) FROM people WHERE body_id = 116`)).toBe(13);
    expect(await one(`SELECT count(*) FROM people WHERE body_id = 64`)).toBe(49);
    expect(await one(`SELECT count(*) FROM people WHERE body_id = 114`)).toBe(435);
    expect(await one(`SELECT count(*) FROM people WHERE body_id = 115`)).toBe(100);
  });

  it('has sitting and adjourned sessions, special sessions, prefile and prior flags, and missing start dates', async () => {
    expect(await one('SELECT count(*) FROM sessions WHERE sine_die = 0')).toBeGreaterThan(0);
    expect(
      await one('SELECT count(*) FROM sessions WHERE sine_die = 1 AND actual_sine_die_date IS NOT NULL'),
    ).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM sessions WHERE special = 1')).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM sessions WHERE prefile = 1')).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM sessions WHERE prior = 1')).toBe(52);
    expect(await one('SELECT count(*) FROM sessions WHERE session_start_date IS NULL')).toBeGreaterThan(0);
  });

  it('fills the dates the spec types non-null; transcript times are null exactly when their transcript is', async () => {
    expect(await one('SELECT count(*) FROM sessions WHERE expected_sine_die_date IS NULL')).toBe(0);
    expect(await one('SELECT count(*) FROM bill_referrals WHERE referral_date IS NULL')).toBe(0);
    expect(await one('SELECT count(*) FROM bill_referrals')).toBeGreaterThan(0);
    expect(
      await one('SELECT count(*) FROM hearings WHERE (transcript_extracted_at IS NULL) <> (transcript_text IS NULL)'),
    ).toBe(0);
    expect(
      await one(
        'SELECT count(*) FROM hearings WHERE (transcript_polished_at IS NULL) <> (transcript_polished_json IS NULL)',
      ),
    ).toBe(0);
    expect(await one('SELECT count(*) FROM hearings WHERE transcript_extracted_at IS NOT NULL')).toBeGreaterThan(0);
  });

  it('has people_id values above 2^32 and split identities (one person under two ids)', async () => {
    expect(await one('SELECT count(*) FROM people WHERE people_id > 4294967296')).toBeGreaterThan(100);
    const splits = await q<{
      ids: number[];
      names: string[];
    }>(`SELECT array_agg(people_id ORDER BY people_id) AS ids, array_agg(DISTINCT name) AS names
      FROM people GROUP BY person_hash HAVING count(*) = 2`);
    expect(splits.length).toBeGreaterThan(5);
    for (const s of splits) expect(s.names).toHaveLength(1);
    // The person's records really are partitioned: both ids carry votes or sponsorships.
    const both = await one(`SELECT count(*) FROM people p WHERE external_ids ? 'split_identity_with'
      AND (EXISTS (SELECT 1 FROM roll_call_votes v WHERE v.people_id = p.people_id) OR EXISTS (SELECT 1 FROM bill_sponsors s WHERE s.people_id = p.people_id))`);
    expect(both).toBeGreaterThan(1);
  });

  it('derives first and last names for legislators published with a combined name only', async () => {
    const rows = await q<{ name: string; first_name: string; last_name: string }>(
      `SELECT name, first_name, last_name FROM people WHERE name LIKE '%,%' ORDER BY people_id LIMIT 50`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      expect(r.first_name).not.toBe('');
      expect(r.last_name).not.toBe('');
      expect(r.name).not.toMatch(new RegExp(`^${r.first_name}`));
      expect(`${r.first_name} ${r.last_name}`).not.toMatch(/\b(Rep|Sen|Del)\./);
      expect(r.name).toContain(`${r.last_name},`);
    }
    expect(await one(`SELECT count(*) FROM people WHERE first_name = '' OR last_name = ''`)).toBe(0);
  });

  it('stores padded and compact bill numbers with a compact lookup key', async () => {
    const padded = await q<{ bill_number: string; bill_number_key: string }>(
      `SELECT bill_number, bill_number_key FROM bills WHERE bill_number ~ '^[A-Z]+0\\d' LIMIT 20`,
    );
    expect(padded.length).toBeGreaterThan(0);
    for (const r of padded) {
      expect(r.bill_number_key).toBe(billNumberKey(r.bill_number));
      expect(r.bill_number_key).not.toBe(r.bill_number);
    }
    expect(
      await one("SELECT count(*) FROM bills WHERE bill_number_key <> upper(bill_number_key) OR bill_number ~ '\\s'"),
    ).toBe(0);
    const all = await q<{ bill_number: string; bill_number_key: string }>(
      'SELECT bill_number, bill_number_key FROM bills',
    );
    for (const r of all) expect(r.bill_number_key).toBe(billNumberKey(r.bill_number));
    // Unique per state and session: a number resolves to exactly one bill.
    expect(
      await one(
        'SELECT count(*) FROM (SELECT 1 FROM bills GROUP BY state_id, session_id, bill_number_key HAVING count(*) > 1) d',
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM bills b JOIN states s USING (state_id) WHERE s.state_abbr = 'US' AND bill_number !~ '^(HR|S|HRES|SRES|HCONRES|SCONRES|HJRES|SJRES)\\d+$'`,
      ),
    ).toBe(0);
  });

  it('has bills with no rows in some sub-resources', async () => {
    for (const t of [
      'bill_sponsors',
      'bill_texts',
      'roll_calls',
      'amendments',
      'supplements',
      'bill_calendar',
      'bill_sasts',
    ]) {
      expect(
        await one(`SELECT count(*) FROM bills b WHERE NOT EXISTS (SELECT 1 FROM ${t} x WHERE x.bill_id = b.bill_id)`),
        t,
      ).toBeGreaterThan(0);
      expect(await one(`SELECT count(*) FROM ${t}`), t).toBeGreaterThan(0);
    }
  });

  it('has citations and analyses only in the states that publish them', async () => {
    for (const t of ['bill_citations', 'bill_analyses']) {
      const states = (
        await q<{ state_abbr: string }>(
          `SELECT DISTINCT state_abbr FROM ${t} JOIN bills USING (bill_id) JOIN states USING (state_id)`,
        )
      ).map((r) => r.state_abbr);
      expect(states.length).toBeGreaterThan(0);
      for (const s of states) expect(['CA', 'FL', 'TX', 'NY', 'WA', 'US']).toContain(s);
    }
  });

  it('has roll calls whose member list is shorter than the header, and others that match it', async () => {
    const sql = `SELECT count(*) FROM roll_calls r WHERE r.total %s (SELECT count(*) FROM roll_call_votes v WHERE v.roll_call_id = r.roll_call_id)`;
    expect(await one(sql.replace('%s', '>'))).toBeGreaterThan(0);
    expect(await one(sql.replace('%s', '='))).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM roll_calls WHERE yea + nay + nv + absent <> total')).toBe(0);
    expect(await one('SELECT count(*) FROM roll_calls WHERE (passed = 1) <> (yea > nay)')).toBe(0);
  });

  it('marks interface-label subjects, keeps counts and topics consistent', async () => {
    const labels = await q<{ subject_name: string; bill_count: number }>(
      'SELECT subject_name, bill_count FROM subjects WHERE is_interface_label',
    );
    expect(labels.length).toBeGreaterThan(0);
    for (const l of labels) expect(isInterfaceLabel(l.subject_name)).toBe(true);
    expect(labels.some((l) => l.bill_count > 0)).toBe(true);
    expect(
      await one('SELECT count(*) FROM subject_topics st JOIN subjects s USING (subject_id) WHERE s.is_interface_label'),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM subjects s WHERE bill_count <> (SELECT count(*) FROM bill_subjects b WHERE b.subject_id = s.subject_id)`,
      ),
    ).toBe(0);
    // bill_topics is exactly the topics reached through the bill's subjects.
    expect(
      await one(
        `SELECT count(*) FROM ((SELECT bill_id, topic_id FROM bill_subjects JOIN subject_topics USING (subject_id)) EXCEPT (SELECT bill_id, topic_id FROM bill_topics)) d`,
      ),
    ).toBe(0);
    expect(await one(`SELECT count(*) FROM bills WHERE subject_names = ''`)).toBe(0);
  });

  it('has hearings with and without media', async () => {
    expect(await one('SELECT count(*) FROM hearings WHERE video_url IS NOT NULL')).toBeGreaterThan(0);
    expect(
      await one(
        'SELECT count(*) FROM hearings WHERE video_url IS NULL AND audio_url IS NULL AND transcript_url IS NULL',
      ),
    ).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM hearings WHERE transcript_text IS NOT NULL')).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM hearings WHERE is_live')).toBeGreaterThan(0);
    expect(await one(`SELECT count(*) FROM hearings WHERE jsonb_array_length(bills_discussed) > 0`)).toBeGreaterThan(0);
  });

  it('has candidates with and without people_id and FEC ids, ids above 2^32', async () => {
    expect(
      await one('SELECT count(*) FROM candidates WHERE people_id IS NOT NULL AND fec_id IS NOT NULL'),
    ).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM candidates WHERE people_id IS NULL AND fec_id IS NOT NULL')).toBeGreaterThan(
      0,
    );
    expect(await one('SELECT count(*) FROM candidates WHERE people_id IS NOT NULL AND fec_id IS NULL')).toBeGreaterThan(
      0,
    );
    expect(await one('SELECT count(*) FROM candidates WHERE id > 4294967296')).toBeGreaterThan(0);
    expect(await one('SELECT count(*) FROM candidacies')).toBeGreaterThan(0);
  });

  it('has several text versions that really differ, and some that differ only in whitespace', async () => {
    const multi = await one(
      `SELECT count(*) FROM (SELECT bill_id FROM bill_texts GROUP BY bill_id HAVING count(DISTINCT text_hash) > 1) d`,
    );
    expect(multi).toBeGreaterThan(10);
    const ws = await q<{
      a: string;
      b: string;
    }>(`SELECT t1.content AS a, t2.content AS b FROM bill_texts t1 JOIN bill_texts t2 ON t1.bill_id = t2.bill_id AND t1.text_id < t2.text_id
      WHERE t1.content <> t2.content AND regexp_replace(t1.content, '\\s+', '', 'g') = regexp_replace(t2.content, '\\s+', '', 'g')`);
    expect(ws.length).toBeGreaterThan(0);
    expect(
      await one(
        'SELECT count(*) FROM bill_texts WHERE content IS NULL OR size_bytes <> octet_length(content) OR text_hash <> md5(content)',
      ),
    ).toBe(0);
  });

  it('keeps status, history and last action consistent', async () => {
    expect(await one('SELECT count(*) FROM bills WHERE status_id NOT BETWEEN 1 AND 8')).toBe(0);
    expect(await one('SELECT count(DISTINCT status_id) FROM bills')).toBe(8);
    expect(await one('SELECT count(*) FROM bills WHERE (completed = 1) <> (status_id IN (5, 6, 7, 8))')).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM bills b WHERE last_action IS DISTINCT FROM (SELECT history_action FROM bill_history h WHERE h.bill_id = b.bill_id ORDER BY history_step DESC LIMIT 1)`,
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM bills b WHERE last_action_date IS DISTINCT FROM (SELECT max(history_date) FROM bill_history h WHERE h.bill_id = b.bill_id)`,
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM bill_history h1 JOIN bill_history h2 ON h1.bill_id = h2.bill_id AND h2.history_step = h1.history_step + 1 WHERE h2.history_date < h1.history_date`,
      ),
    ).toBe(0);
    expect(await one(`SELECT count(*) FROM bills WHERE status_id = 5 AND last_action NOT LIKE 'Signed by%'`)).toBe(0);
    expect(await one(`SELECT count(*) FROM bills WHERE status_id = 6 AND last_action NOT LIKE 'Vetoed by%'`)).toBe(0);
    expect(await one(`SELECT count(*) FROM bills WHERE updated > '2026-11-21' OR updated < '2026-01-01'`)).toBe(0);
  });

  it('records NewBill changes for the most recently updated bills only', async () => {
    expect(await one('SELECT count(*) FROM changes')).toBe(200);
    expect(
      await one(
        `SELECT count(*) FROM changes c JOIN change_reasons r USING (reason_id) WHERE r.reason_name <> 'NewBill'`,
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*) FROM changes c WHERE c.bill_id NOT IN (SELECT bill_id FROM bills ORDER BY updated DESC, bill_id DESC LIMIT 200)`,
      ),
    ).toBe(0);
  });
});
