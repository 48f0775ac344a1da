// One consistent snapshot with its exact change-feed cursor.
//
// The feed returns stamped changes with since < changed_at <= high_water, and the relay stamps a
// change only after its writer committed, always above the previous high_water. A REPEATABLE READ
// transaction that reads high_water H therefore sees every change stamped at or below H (their
// writers committed before the stamp, the stamp before the snapshot), and every change it does not
// see is stamped later, above H. The one case left: changes committed before the snapshot but not
// stamped yet. The snapshot holds their data, yet the feed would hand them out after H (and writers
// commit out of id order, so no other timestamp separates them from changes the snapshot lacks).
// So a snapshot is only used when it sees no unstamped change; otherwise it is dropped and taken
// again a moment later, once the relay (which stamps within milliseconds of a commit) caught up.
// Then `/v1/changes?since=<cursor>` returns exactly the changes the snapshot does not hold.
// Nothing is locked: writers and the relay never wait for a snapshot.
import type { PoolClient } from '../db/pool.js';
import { isoUs } from '../changes/events.js';

export interface Snapshot {
  /** the change-feed position of this snapshot */
  cursor: string;
  /** the database clock when the snapshot was taken (ISO 8601, UTC) */
  takenAt: string;
}

export class SnapshotUnavailable extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs fn inside a REPEATABLE READ, READ ONLY transaction on `client` whose snapshot sees no
 * unstamped change, with the snapshot's cursor. Retries up to `attempts` times (a continuous
 * import may keep unstamped rows around for a while); SnapshotUnavailable after that.
 */
export async function withSnapshot<T>(
  client: PoolClient,
  fn: (snap: Snapshot) => Promise<T>,
  attempts = 200,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      // The first statement takes the snapshot: the cursor and the check come from the same one.
      const { rows } = await client.query<{ cursor: string; taken_at: string; pending: boolean }>(
        `SELECT ${isoUs('high_water')} AS cursor, ${isoUs('now()')} AS taken_at,
           EXISTS (SELECT 1 FROM changes WHERE seq IS NULL) AS pending
         FROM relay_state WHERE id = 1`,
      );
      if (!rows[0].pending) {
        const result = await fn({ cursor: rows[0].cursor, takenAt: rows[0].taken_at });
        await client.query('COMMIT');
        return result;
      }
      await client.query('ROLLBACK');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    await sleep(Math.min(5 + i * 5, 250));
  }
  throw new SnapshotUnavailable('no moment without unstamped changes (is the relay running?)');
}
