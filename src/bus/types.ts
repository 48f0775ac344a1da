// The bus carries stamped changes from the relay to every consumer. Two implementations:
// NATS (when NATS_URL is set) and in-process (bus/memory.ts).

/** A change as published by the relay, in public order. */
export interface ChangeEvent {
  /** internal id of the change-log row; also the Nats-Msg-Id */
  change_id: number;
  /** public sequence, strictly increasing */
  seq: number;
  /** public timestamp (ISO 8601, UTC, microseconds): the stream `id` and the feed cursor; strictly increasing */
  changed_at: string;
  bill_id: number;
  bill_number: string;
  /** state_abbr */
  state: string;
  title: string;
  reason_id: number;
  /** reason name: NewBill, StatusChange, Text, Vote, Amendment */
  reason: string;
  old_status: number | null;
  new_status: number | null;
  detail: Record<string, unknown>;
}

export type Unsubscribe = () => void;

export interface Bus {
  readonly kind: 'memory' | 'nats';
  /** Publishes stamped changes in order (relay only). Resolves once the bus has accepted them. */
  publish(events: ChangeEvent[]): Promise<void>;
  /** Live fan-out to this process (at-most-once; consumers catch up from the change log by cursor). */
  subscribe(handler: (event: ChangeEvent) => void): Unsubscribe;
  /**
   * Durable, at-least-once consumption shared by every process using the same name (dispatchers).
   * The handler's promise resolving acknowledges the event.
   */
  consumeDurable(name: string, handler: (event: ChangeEvent) => Promise<void>): Promise<{ stop(): Promise<void> }>;
  /** Bus connectivity for readiness checks. */
  healthy(): boolean;
  close(): Promise<void>;
}
