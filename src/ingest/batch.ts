// Batched writes: records are written on one connection in transactions of `size` records, each
// record inside its own SAVEPOINT so one bad record rolls back alone and the rest continue.
// Fewer commits is most of the speed of a bulk import; the savepoint keeps it forgiving.
import type { Pool, PoolClient } from '../db/pool.js';

export class BatchWriter {
  private client?: PoolClient;
  private inBatch = 0;

  constructor(private readonly pool: Pool, private readonly size = 200) {}

  /** Runs fn for one record; on error the record's writes are undone and the error rethrown. */
  async run<T>(fn: (db: PoolClient) => Promise<T>): Promise<T> {
    if (!this.client) this.client = await this.pool.connect();
    const db = this.client;
    if (this.inBatch === 0) await db.query('BEGIN');
    await db.query('SAVEPOINT rec');
    try {
      const out = await fn(db);
      await db.query('RELEASE SAVEPOINT rec');
      return out;
    } catch (err) {
      await db.query('ROLLBACK TO SAVEPOINT rec');
      throw err;
    } finally {
      if (++this.inBatch >= this.size) await this.commit();
    }
  }

  async commit(): Promise<void> {
    if (this.client && this.inBatch > 0) await this.client.query('COMMIT');
    this.inBatch = 0;
  }

  async close(): Promise<void> {
    try {
      await this.commit();
    } finally {
      this.client?.release();
      this.client = undefined;
    }
  }

  /** Abandons the open batch (fatal error path). */
  async abort(): Promise<void> {
    if (this.client && this.inBatch > 0) await this.client.query('ROLLBACK').catch(() => undefined);
    this.inBatch = 0;
    this.client?.release();
    this.client = undefined;
  }
}
