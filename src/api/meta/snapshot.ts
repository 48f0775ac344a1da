// A value computed at most once per `ttlMs`, shared by concurrent callers. A failed computation is
// not cached, so the next request tries again (the route answers 503 meanwhile).
export class Snapshot<T> {
  private value?: { at: number; data: T };
  private pending?: Promise<{ at: number; data: T }>;

  constructor(
    private ttlMs: number,
    private compute: () => Promise<T>,
    private now: () => number = Date.now,
  ) {}

  async get(): Promise<{ at: Date; data: T }> {
    if (this.value && this.now() - this.value.at < this.ttlMs)
      return { at: new Date(this.value.at), data: this.value.data };
    this.pending ??= this.compute()
      .then((data) => (this.value = { at: this.now(), data }))
      .finally(() => (this.pending = undefined));
    const v = await this.pending;
    return { at: new Date(v.at), data: v.data };
  }
}
