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
}

export async function simulate(db: Pool, o: SimulateOptions): Promise<{ actions: number; changes: number }> {
  let stateIds: number[] | null = null;
  if (o.states?.length) {
    const { rows } = await db.query<{ state_id: number }>('SELECT state_id FROM states WHERE state_abbr = ANY ($1)', [o.states]);
    stateIds = rows.map((r) => r.state_id);
  }
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE $1::int[] IS NULL OR state_id = ANY ($1)', [stateIds]);
  if (rows[0].n === 0) throw new Error('no sessions for the chosen states: load data first (`lds seed` or an import)');
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
