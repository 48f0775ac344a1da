// The change event: one change to a bill as the relay publishes it, in public order. It is the
// shape every consumer shares (the feed, the stream, the dispatcher, sync), so it lives below them
// all, and the process's background context can name its bus without importing the change log.

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
  /** reason name: NewBill, StatusChange, Text, Vote, Amendment, TextDiff */
  reason: string;
  old_status: number | null;
  new_status: number | null;
  detail: Record<string, unknown>;
}
