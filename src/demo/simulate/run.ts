// The simulator loop: picks weighted actions at a steady rate, one transaction each.
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/pool.js';
import { ACTIONS, type ActionResult } from './actions.js';

export interface SimulateOptions {
  /** actions per second */
  rate: number;
  count?: number;
  durationMs?: number;
  /** state codes; undefined = all states with sessions */
  states?: string[];
  onAction?: (r: ActionResult, n: number) => void;
  signal?: AbortSignal;
  /** run even where the chosen states hold imported (real) data, which the simulator rewrites */
  force?: boolean;
}

/** Refusal to rewrite imported data: the CLI prints the message and exits non-zero. */
export class ImportedDataError extends Error {
  constructor(readonly sources: { source: string; sessions: number }[]) {
    super(
      `refusing to simulate: the chosen states hold imported data (${sources.map((s) => `${s.sessions} session${s.sessions === 1 ? '' : 's'} from ${s.source}`).join(', ')}). ` +
        'The simulator moves statuses, adds votes, texts and amendments on existing bills, so it would rewrite real records and send the made-up changes to every ' +
        'stream, webhook and mirror consumer. Use a demo database (`lds seed`), pick --states holding only demo data, or pass --force.',
    );
    this.name = 'ImportedDataError';
  }
}

/**
 * Imported rows carry their source (legiscan, congress, openstates, ...); the demo corpus and the
 * simulator's own rows say 'demo'. Sessions are few, so they are counted; a bill imported into a
 * demo session (not something importers do) is caught by the EXISTS.
 */
async function importedSources(db: Pool, stateIds: number[] | null): Promise<{ source: string; sessions: number }[]> {
  const { rows } = await db.query<{ source: string; sessions: number }>(
    `SELECT source, count(*)::int AS sessions FROM sessions WHERE source <> 'demo' AND ($1::int[] IS NULL OR state_id = ANY ($1)) GROUP BY source
     UNION ALL
     SELECT 'bills', 0 WHERE EXISTS (SELECT 1 FROM bills WHERE source <> 'demo' AND ($1::int[] IS NULL OR state_id = ANY ($1)))
     ORDER BY 1`,
    [stateIds],
  );
  return rows;
}

export async function simulate(db: Pool, o: SimulateOptions): Promise<{ actions: number; changes: number }> {
  let stateIds: number[] | null = null;
  if (o.states?.length) {
    const { rows } = await db.query<{ state_id: number }>('SELECT state_id FROM states WHERE state_abbr = ANY ($1)', [
      o.states,
    ]);
    stateIds = rows.map((r) => r.state_id);
  }
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sessions WHERE $1::int[] IS NULL OR state_id = ANY ($1)',
    [stateIds],
  );
  if (rows[0].n === 0) throw new Error('no sessions for the chosen states: load data first (`lds seed` or an import)');
  if (!o.force) {
    const imported = await importedSources(db, stateIds);
    if (imported.length > 0) throw new ImportedDataError(imported);
  }
  const total = ACTIONS.reduce((s, a) => s + a[1], 0);
  const started = Date.now();
  let actions = 0;
  let changes = 0;
  let misses = 0;
  while (!o.signal?.aborted) {
    if (o.count !== undefined && actions >= o.count) break;
    if (o.durationMs !== undefined && Date.now() - started >= o.durationMs) break;
    let r = Math.random() * total;
    const [, , run] = ACTIONS.find(([, w]) => (r -= w) < 0) ?? ACTIONS[0];
    const result = await withTransaction(db, (c) => run(c, stateIds, Math.random));
    if (!result) {
      // nothing eligible for that action yet (e.g. no bill in committee): try another one
      if (++misses > 200) throw new Error('no eligible bills for any action');
      continue;
    }
    misses = 0;
    actions++;
    changes += result.changes;
    o.onAction?.(result, actions);
    const due = started + (actions / o.rate) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  return { actions, changes };
}
