// Batched writes: records are written on one connection in transactions of `size` records.
// Most of the speed of a bulk import is fewer round trips, so the common path takes no per-record
// SAVEPOINT: a record that fails before touching the database (a mapping error) is just reported;
// a record that fails after writing poisons the batch, which is then rolled back and replayed one
// record per SAVEPOINT so the bad record rolls back alone and the rest still go in.
// Outcomes are reported when their batch commits, so counts never include rolled-back work, and
// change-log rows queued by the records are written once per batch, in the same transaction.
import { recordChanges, type ChangeInput } from '../../changes/record.js';
import { inTransaction, type Pool, type PoolClient, type Queryable } from '../../db/pool.js';
import { RowBuffer } from './buffer.js';
import type { ImportReport, Outcome } from './report.js';

/** An outcome known only once a group of records has been written together (see Group). */
export interface Later {
  later: true;
  value?: Outcome | { skip: string };
}
/** What a record's write did: an outcome, a skip with its reason, a Later, or nothing to count. */
export type WriteResult = Outcome | { skip: string } | Later | void;

/** Records of one kind written together by one statement when the batch commits. */
export interface Group {
  flush(db: Queryable, w: BatchWriter): Promise<void>;
  clear(): void;
}
/** A record's write: may update caches; must be safe to run again (a failed batch is replayed). */
export type RecordWrite = (db: Queryable, w: BatchWriter) => Promise<WriteResult>;

interface Item {
  entity: string;
  file: string;
  fn: RecordWrite;
}

export class BatchWriter {
  private client?: PoolClient;
  private items: Item[] = [];
  private done: { entity: string; outcome: WriteResult }[] = [];
  private changes: ChangeInput[] = [];
  private open = false;
  /**
   * Whether writes may take the bulk path (COPY of new bills and their parts, where one
   * conflicting row fails the whole statement). Off while a failed batch is replayed record by
   * record, so a conflicting record fails alone and the others are written.
   */
  bulk = true;
  /** child rows queued by the records, written when the batch commits */
  readonly buffer = new RowBuffer();
  private readonly groups = new Map<string, Group>();
  /** the other lane's batch (see PipelinedWriter): resolves true when that batch was replayed */
  private before: Promise<boolean> = Promise.resolve(false);

  /**
   * @param onReset clears the callers' in-memory caches when a batch rolls back (ids and rows
   *   learnt inside the rolled-back transaction no longer exist).
   */
  constructor(
    private readonly pool: Pool,
    private readonly report: ImportReport,
    private readonly size = 500,
    private readonly onReset: () => void = () => undefined,
  ) {}

  /**
   * This writer's next commit (or replay) waits for `p`, the commit of a batch written before it on
   * another connection, so batches reach the database in order; when that batch had to be
   * replayed (its records rewritten one by one, the callers' caches reset), this batch is
   * replayed too, since its records may have used ids from the rolled-back transaction.
   */
  follow(p: Promise<boolean>): void {
    this.before = p;
  }

  /** Waits for the batch this one follows, once. */
  private async settleBefore(): Promise<boolean> {
    const p = this.before;
    this.before = Promise.resolve(false);
    return p;
  }

  /** The batch's group of a kind, created on first use. */
  group<G extends Group>(name: string, make: () => G): G {
    let g = this.groups.get(name);
    if (!g) this.groups.set(name, (g = make()));
    return g as G;
  }

  /** Writes every queued group and child row now (a record needs to see them). */
  async flush(db: Queryable): Promise<void> {
    for (const g of this.groups.values()) await g.flush(db, this);
    await this.buffer.flush(db);
  }

  private clearQueued(): void {
    for (const g of this.groups.values()) g.clear();
    this.buffer.clear();
  }

  /** Queues change-log rows; written with the batch. */
  change(...c: ChangeInput[]): void {
    this.changes.push(...c);
  }

  // The open batch is one transaction spanning many run() calls and ended by commit(), replay() or
  // abort(), so it cannot be a withTransaction block; the replay of a failed batch is one.
  private async begin(): Promise<PoolClient> {
    if (!this.client) this.client = await this.pool.connect();
    if (!this.open) {
      // An import can always be run again (it is idempotent), so its commits need not wait for the
      // WAL to reach disk: a crash loses at most the last batches, which the re-run writes.
      await this.client.query('BEGIN; SET LOCAL synchronous_commit = off');
      this.open = true;
    }
    return this.client;
  }

  /** Writes one record in the current batch; failures are reported against entity and file. */
  async run(entity: string, file: string, fn: RecordWrite): Promise<void> {
    const db = await this.begin();
    let queries = 0;
    const counting: Queryable = {
      query: ((...args: Parameters<PoolClient['query']>) => {
        queries++;
        return (db.query as (...a: unknown[]) => unknown)(...args);
      }) as PoolClient['query'],
    };
    const item = { entity, file, fn };
    const mark = this.changes.length;
    try {
      const outcome = await fn(counting, this);
      this.items.push(item);
      this.done.push({ entity, outcome });
    } catch (err) {
      this.changes.length = mark;
      if (queries === 0) {
        this.report.problem(entity, file, err);
      } else {
        await this.replay(item);
      }
    }
    if (this.items.length >= this.size) await this.commit();
  }

  /** The batch failed mid-way: roll it back and write each record alone, the failing one reported. */
  private async replay(failing?: Item): Promise<void> {
    await this.settleBefore().catch(() => false);
    const db = this.client!;
    await db.query('ROLLBACK');
    this.clearQueued();
    this.onReset();
    const items = failing ? [...this.items, failing] : this.items;
    this.items = [];
    this.done = [];
    this.changes = [];
    this.open = false;
    this.bulk = false;
    await inTransaction(db, async (tx) => {
      await tx.query('SET LOCAL synchronous_commit = off');
      for (const item of items) {
        await tx.query('SAVEPOINT rec');
        const mark = this.changes.length;
        try {
          const outcome = await item.fn(tx, this);
          await this.flush(tx);
          await tx.query('RELEASE SAVEPOINT rec');
          this.done.push({ entity: item.entity, outcome });
        } catch (err) {
          await tx.query('ROLLBACK TO SAVEPOINT rec');
          this.clearQueued();
          this.changes.length = mark;
          this.report.problem(item.entity, item.file, err);
        }
      }
      await this.flushChanges(tx);
    }).finally(() => (this.bulk = true));
    this.report$();
  }

  private async flushChanges(db: Queryable): Promise<void> {
    const c = this.changes;
    this.changes = [];
    if (c.length) await recordChanges(db, c);
  }

  private report$(): void {
    for (const d of this.done) {
      const outcome = typeof d.outcome === 'object' && 'later' in d.outcome ? d.outcome.value : d.outcome;
      if (typeof outcome === 'object') this.report.skip(d.entity, outcome.skip);
      else if (outcome) this.report.count(d.entity, outcome);
    }
    this.done = [];
    this.items = [];
  }

  /** Writes and commits the open batch; true when it had to be replayed record by record. */
  async commit(): Promise<boolean> {
    const followsReplay = await this.settleBefore();
    if (!this.client || !this.open) return false;
    if (followsReplay) {
      await this.replay();
      return true;
    }
    try {
      await this.flush(this.client);
      await this.flushChanges(this.client);
      await this.client.query('COMMIT');
      this.open = false;
      this.report$();
      return false;
    } catch {
      await this.replay();
      return true;
    }
  }

  /** Without a second connection there is nothing to overlap: the batch is committed here. */
  async cut(): Promise<{ committed: Promise<unknown> }> {
    await this.commit();
    return { committed: Promise.resolve(true) };
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
    if (this.client && this.open) await this.client.query('ROLLBACK').catch(() => undefined);
    this.open = false;
    this.client?.release();
    this.client = undefined;
  }
}
