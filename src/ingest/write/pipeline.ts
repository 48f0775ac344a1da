// Two batches in flight: while one batch is written and committed on its connection, the next
// one is built (mapped, hashed, queued) on a second connection. The import's main thread spends
// about half of its time waiting for the database and the database about half of it waiting for
// the main thread; overlapping the two is the cheapest speed there is on a small machine.
//
// Order is kept: a batch's flush and commit wait for the commit of the batch before it (see
// BatchWriter.follow), so a record always sees every earlier batch's rows when its own rows are
// written, and counts and change-log rows are committed in file order. What runs concurrently with
// the previous commit is only the building of the next batch: mapping, and the rare record-time
// queries (a session or placeholder person not met before), which look at rows the caches
// already know. A batch whose predecessor had to be replayed is replayed too.
import type { Pool } from '../../db/pool.js';
import { BatchWriter, type RecordWrite } from './batch.js';
import type { ImportReport } from './report.js';

/** The BatchWriter surface an importer uses to hand records over. */
export interface RecordWriter {
  run(entity: string, file: string, fn: RecordWrite): Promise<void>;
  /** commits everything handed over so far (waits for every batch in flight) */
  commit(): Promise<unknown>;
  /**
   * Ends the current batch without waiting for its commit, so the next records are built while
   * it is written; resolves to a promise of that commit.
   */
  cut(): Promise<{ committed: Promise<unknown> }>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

// Measured on MS 2014: every 8 records cut the whole import by about 9 %; every record or every
// 32 did no better.
const YIELD_EVERY = 8;

export class PipelinedWriter implements RecordWriter {
  private readonly lanes: [BatchWriter, BatchWriter];
  private lane = 0;
  private count = 0;
  /** the commit of the other lane's batch, when one is in flight */
  private inflight?: Promise<boolean>;

  constructor(
    pool: Pool,
    report: ImportReport,
    private readonly size = 500,
    onReset: () => void = () => undefined,
  ) {
    // Each lane commits only when told to (size Infinity): the pipeline decides where batches end.
    this.lanes = [new BatchWriter(pool, report, Infinity, onReset), new BatchWriter(pool, report, Infinity, onReset)];
  }

  /** Whether a pool can give an import two connections and still serve others. */
  static fits(pool: Pool): boolean {
    return (pool.options.max ?? 10) >= 3;
  }

  async run(entity: string, file: string, fn: RecordWrite): Promise<void> {
    await this.lanes[this.lane]!.run(entity, file, fn);
    if (++this.count >= this.size) await this.handOver();
    // Records already parsed are built in one run of promise continuations, during which the
    // replies of the batch being written on the other connection wait unread: every few records,
    // let the event loop take them, so that batch's next statement goes out at once.
    else if (this.inflight && this.count % YIELD_EVERY === 0)
      await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Starts the current batch's commit behind the one in flight and switches lanes. */
  private async handOver(): Promise<void> {
    const lane = this.lanes[this.lane]!;
    const previous = this.inflight;
    if (previous) lane.follow(previous);
    const commit = lane.commit();
    // Awaited below or by the next hand-over / commit; never an unhandled rejection meanwhile.
    commit.catch(() => undefined);
    this.inflight = commit;
    this.lane ^= 1;
    this.count = 0;
    // The other lane's batch must be committed before that lane starts a new one. When it had to
    // be replayed (caches reset while this batch was being built), this batch replays too: wait
    // for that as well, so the next batch is built after every reset and follows nothing.
    if (previous && (await previous)) {
      await commit;
      this.inflight = undefined;
    }
  }

  async commit(): Promise<boolean> {
    await this.handOver();
    return (await this.inflight) ?? false;
  }

  async cut(): Promise<{ committed: Promise<unknown> }> {
    await this.handOver();
    return { committed: this.inflight ?? Promise.resolve(false) };
  }

  async close(): Promise<void> {
    try {
      await this.commit();
    } finally {
      await Promise.all(this.lanes.map((l) => l.close()));
    }
  }

  async abort(): Promise<void> {
    await this.inflight?.catch(() => undefined);
    await Promise.all(this.lanes.map((l) => l.abort()));
  }
}
