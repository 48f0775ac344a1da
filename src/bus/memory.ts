// In-process bus, used when NATS_URL is unset: one process, so fan-out is a loop.
import type { Bus, BusMessage, Unsubscribe } from './types.js';

export class MemoryBus<E extends BusMessage = BusMessage> implements Bus<E> {
  readonly kind = 'memory' as const;
  private readonly subscribers = new Set<(e: E) => void>();
  private closed = false;

  async publish(events: E[]): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    for (const e of events) {
      for (const s of this.subscribers) {
        try {
          s(e);
        } catch {
          // a failing subscriber must not stop fan-out to the others
        }
      }
    }
  }

  subscribe(handler: (e: E) => void): Unsubscribe {
    this.subscribers.add(handler);
    return () => this.subscribers.delete(handler);
  }

  healthy(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
  }
}
