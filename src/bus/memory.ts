// In-process bus, used when NATS_URL is unset: one process, so fan-out is a loop and durable
// consumers are called in order, one event at a time, with the next event waiting for the ack.
import type { Bus, ChangeEvent, Unsubscribe } from './types.js';

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly subscribers = new Set<(e: ChangeEvent) => void>();
  private readonly durables = new Map<string, { queue: ChangeEvent[]; running: boolean; handler: (e: ChangeEvent) => Promise<void> }>();
  private closed = false;

  async publish(events: ChangeEvent[]): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    for (const e of events) {
      for (const s of this.subscribers) {
        try {
          s(e);
        } catch {
          // a failing subscriber must not stop fan-out to the others
        }
      }
      for (const d of this.durables.values()) d.queue.push(e);
    }
    for (const d of this.durables.values()) void this.drain(d);
  }

  subscribe(handler: (e: ChangeEvent) => void): Unsubscribe {
    this.subscribers.add(handler);
    return () => this.subscribers.delete(handler);
  }

  async consumeDurable(name: string, handler: (e: ChangeEvent) => Promise<void>) {
    const d = { queue: [] as ChangeEvent[], running: false, handler };
    this.durables.set(name, d);
    return {
      stop: async () => {
        this.durables.delete(name);
      },
    };
  }

  private async drain(d: { queue: ChangeEvent[]; running: boolean; handler: (e: ChangeEvent) => Promise<void> }) {
    if (d.running) return;
    d.running = true;
    try {
      while (d.queue.length > 0) {
        const e = d.queue[0];
        try {
          await d.handler(e);
          d.queue.shift();
        } catch {
          // not acknowledged: retry after a pause (at-least-once)
          await new Promise((r) => setTimeout(r, 500));
          if (this.closed) return;
        }
      }
    } finally {
      d.running = false;
    }
  }

  healthy(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    this.durables.clear();
  }
}
