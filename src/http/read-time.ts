// A key's budget of expensive-read time. The slots (expensive-reads.ts) bound how many expensive reads
// a key runs at once; they do not bound how much of the database it uses: one slot kept busy with
// back-to-back half-second searches is a whole PostgreSQL core, and on a small server that core
// is the one every other tenant's cheap reads also need (bench/abuse). So a key also runs up a
// debt of the milliseconds its expensive statements ran, which drains at EXPENSIVE_READ_MS_PER_SEC
// (a share of one core); while the debt is above EXPENSIVE_READ_BURST_MS its next expensive read
// answers 429 read_budget_exceeded with the wait in Retry-After. Short searches barely count (a
// 5 ms search is 5 ms of debt), so a person searching as they type never meets it; a tenant
// running heavy searches all day gets its share, not the server.
//
// The debt arithmetic in one process (no Redis); expensive-reads.ts holds the same in a Redis
// script, shared by every replica, and checks it together with the slots.

export interface BudgetRate {
  /** ms of debt that drain each second (0: no budget) */
  msPerSec: number;
  /** the debt a key may carry and still start an expensive read */
  burstMs: number;
}

/** The wait (ms) of a key with `debt` ms of debt, under `rate`. */
const waitFor = (debt: number, rate: BudgetRate) =>
  debt <= rate.burstMs ? 0 : Math.ceil(((debt - rate.burstMs) / rate.msPerSec) * 1000);

export class MemoryReadTime {
  private debts = new Map<string, { debt: number; at: number }>();
  constructor(
    private readonly rate: BudgetRate,
    private readonly now: () => number = Date.now,
  ) {}

  private current(keyId: string, now: number): number {
    const d = this.debts.get(keyId);
    if (!d) return 0;
    const left = Math.max(0, d.debt - ((now - d.at) * this.rate.msPerSec) / 1000);
    if (left === 0) this.debts.delete(keyId);
    return left;
  }

  async wait(keyId: string): Promise<number> {
    return waitFor(this.current(keyId, this.now()), this.rate);
  }

  charge(keyId: string, ms: number): void {
    const now = this.now();
    this.debts.set(keyId, { debt: this.current(keyId, now) + ms, at: now });
  }
}
