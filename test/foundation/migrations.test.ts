// Migrations from an empty database: every table of the schema, the 52 jurisdictions numbered
// as LegiScan numbers them, and a second run that applies nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from '../../src/db/migrate.js';
import { emptyDatabase, type TestDatabase } from '../helpers/db.js';

const TABLES = [
  'states',
  'bodies',
  'bill_types',
  'text_types',
  'supplement_types',
  'sast_types',
  'event_types',
  'parties',
  'vote_types',
  'sponsor_types',
  'statuses',
  'change_reasons',
  'sessions',
  'people',
  'bills',
  'bill_sponsors',
  'bill_history',
  'bill_texts',
  'text_changes',
  'text_diff_queue',
  'roll_calls',
  'roll_call_votes',
  'subjects',
  'bill_subjects',
  'topics',
  'subject_topics',
  'bill_topics',
  'amendments',
  'committees',
  'committee_members',
  'bill_referrals',
  'bill_calendar',
  'supplements',
  'bill_sasts',
  'bill_citations',
  'bill_analyses',
  'hearings',
  'candidates',
  'candidacies',
  'changes',
  'relay_state',
  'api_keys',
  'usage_counters',
  'subscriptions',
  'deliveries',
  'delivery_attempts',
  'schema_migrations',
];

let db: TestDatabase;
let applied: string[];

beforeAll(async () => {
  db = await emptyDatabase();
  const before = await db.pool.query(
    `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`,
  );
  expect(before.rows[0].n).toBe(0);
  applied = await migrate(db.pool);
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

describe('migrations from empty', () => {
  it('applies every migration file in order', async () => {
    const files = await listMigrations();
    expect(applied).toEqual(files.map((m) => m.name));
    const { rows } = await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(files.map((m) => m.version));
  });

  it('creates every table of the schema', async () => {
    const { rows } = await db.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    const names = new Set(rows.map((r) => r.table_name));
    for (const t of TABLES) expect(names.has(t), t).toBe(true);
  });

  it('loads 52 jurisdictions with LegiScan state_id numbering (alphabetical by name, 51 DC, 52 US)', async () => {
    const { rows } = await db.pool.query<{ state_id: number; state_abbr: string; state_name: string }>(
      'SELECT state_id, state_abbr, state_name FROM states ORDER BY state_id',
    );
    expect(rows).toHaveLength(52);
    expect(rows.map((r) => r.state_id)).toEqual(Array.from({ length: 52 }, (_, i) => i + 1));
    const fifty = rows.slice(0, 50).map((r) => r.state_name);
    expect(fifty).toEqual([...fifty].sort((a, b) => a.localeCompare(b)));
    expect(rows[0].state_abbr).toBe('AL');
    expect(rows[49].state_abbr).toBe('WY');
    expect(rows[50].state_abbr).toBe('DC');
    expect(rows[51].state_abbr).toBe('US');
  });

  it('has the chambers the corpus relies on (unicameral NE and DC, both houses of Congress)', async () => {
    const { rows } = await db.pool.query<{ body_id: number; state_id: number }>(
      'SELECT body_id, state_id FROM bodies WHERE body_id IN (64, 114, 115, 116) ORDER BY body_id',
    );
    expect(rows).toEqual([
      { body_id: 64, state_id: 27 },
      { body_id: 114, state_id: 52 },
      { body_id: 115, state_id: 52 },
      { body_id: 116, state_id: 51 },
    ]);
    const { rows: states } = await db.pool.query<{ n: number }>(
      'SELECT count(DISTINCT state_id)::int AS n FROM bodies',
    );
    expect(states[0].n).toBe(52);
  });

  it('applies nothing when run again', async () => {
    expect(await migrate(db.pool)).toEqual([]);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM states');
    expect(rows[0].n).toBe(52);
  });

  it('is safe when two processes migrate at once', async () => {
    const other = await emptyDatabase();
    try {
      const [x, y] = await Promise.all([migrate(other.pool), migrate(other.pool)]);
      expect([...x, ...y].sort()).toEqual((await listMigrations()).map((m) => m.name).sort());
    } finally {
      await other.drop();
    }
  }, 120_000);
});
