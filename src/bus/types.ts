// The bus carries messages (stamped changes, from the relay) to every process. Transport only: two
// implementations, NATS (when NATS_URL is set) and in-process (bus/memory.ts).

/**
 * What the transport needs of a message: its id (NATS deduplicates JetStream publishes by it) and
 * the parts of its subject. The bus knows nothing else of what it carries (changes/ defines that).
 */
export interface BusMessage {
  change_id: number;
  state: string;
  reason: string;
}

export type Unsubscribe = () => void;

export interface Bus<E extends BusMessage = BusMessage> {
  readonly kind: 'memory' | 'nats';
  /** Publishes stamped changes in order (relay only). Resolves once the bus has accepted them. */
  publish(events: E[]): Promise<void>;
  /** Live fan-out to this process (at-most-once; consumers catch up from the change log by cursor). */
  subscribe(handler: (event: E) => void): Unsubscribe;
  /** Bus connectivity for readiness checks. */
  healthy(): boolean;
  close(): Promise<void>;
}
