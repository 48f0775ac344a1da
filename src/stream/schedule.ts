// Shared timers of the stream hub. Nothing here allocates a timer per connection: 18,000
// connections with a setTimeout each cost memory, a timer list per distinct jittered duration and a
// callback per expiry; two intervals for the whole process do the same work in batches.

/**
 * Deadlines grouped into slots of slotMs: one interval checks the few slots (about 60 for any life)
 * and hands back everything due. A deadline fires up to one slot late, never early.
 */
export class DeadlineWheel<T> {
  private readonly slots = new Map<number, Set<T>>();
  private readonly slotOf = new Map<T, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    lifeMs: number,
    private readonly due: (item: T) => void,
    /** slot width: 1/50 of the life, between 10 ms and 1 s */
    private readonly slotMs = Math.min(1000, Math.max(10, Math.round(lifeMs / 50))),
  ) {
    this.timer = setInterval(() => this.check(), this.slotMs);
    this.timer.unref();
  }

  add(item: T, deadline: number): void {
    const slot = Math.ceil(deadline / this.slotMs);
    let set = this.slots.get(slot);
    if (!set) this.slots.set(slot, (set = new Set()));
    set.add(item);
    this.slotOf.set(item, slot);
  }

  delete(item: T): void {
    const slot = this.slotOf.get(item);
    if (slot === undefined) return;
    this.slotOf.delete(item);
    const set = this.slots.get(slot);
    set?.delete(item);
    if (set?.size === 0) this.slots.delete(slot);
  }

  private check(): void {
    const now = Math.floor(Date.now() / this.slotMs);
    for (const [slot, set] of this.slots) {
      if (slot > now) continue;
      this.slots.delete(slot);
      for (const item of set) {
        this.slotOf.delete(item);
        this.due(item);
      }
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Heartbeats: members are dealt round-robin into groups and one interval pings one group per tick,
 * so every member gets a ping per interval but 18,000 pings never leave in one burst that would
 * delay the events queued behind it: with the 15 s interval, 64 groups, a tick every 234 ms, about
 * 280 writes (~3 ms) per tick at 18,000 connections. Short intervals (tests) use fewer groups so a
 * tick never comes more often than every 200 ms.
 */
export class Heartbeat<T> {
  private readonly slices: number;
  private readonly groups: Set<T>[];
  private readonly groupOf = new Map<T, number>();
  private next = 0;
  private slice = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number, beat: (members: Iterable<T>, first: boolean) => void) {
    this.slices = Math.min(64, Math.max(1, Math.floor(intervalMs / 200)));
    this.groups = Array.from({ length: this.slices }, () => new Set<T>());
    this.timer = setInterval(
      () => {
        const s = this.slice;
        this.slice = (s + 1) % this.slices;
        beat(this.groups[s], s === 0);
      },
      Math.ceil(intervalMs / this.slices),
    );
    this.timer.unref();
  }

  add(item: T): void {
    const g = this.next++ % this.slices;
    this.groups[g].add(item);
    this.groupOf.set(item, g);
  }

  delete(item: T): void {
    const g = this.groupOf.get(item);
    if (g === undefined) return;
    this.groupOf.delete(item);
    this.groups[g].delete(item);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
