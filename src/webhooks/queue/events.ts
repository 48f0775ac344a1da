// Which change produces which webhook event: one table, documented in the README and the OpenAPI
// description. A StatusChange always emits status_change; moves into certain ladder steps emit a
// second, more specific event as well, so a subscriber can listen for "signed" alone.
import type { ChangeEvent } from '../../changes/events.js';

export const EVENT_NAMES = ['bill_introduced', 'status_change', 'vote_recorded', 'text_updated', 'passed', 'vetoed', 'signed', 'amendment_added'] as const;
export type EventName = (typeof EVENT_NAMES)[number];
export const EVENT_SET = new Set<string>(EVENT_NAMES);

/** The payload format version sent as `api_version` in every delivery. */
export const PAYLOAD_VERSION = 'v1';

/** change reason → events; StatusChange adds the ladder events below. */
export const REASON_EVENTS: Record<string, EventName[]> = {
  NewBill: ['bill_introduced'],
  StatusChange: ['status_change'],
  Text: ['text_updated'],
  Vote: ['vote_recorded'],
  Amendment: ['amendment_added'],
};

/** new status_id (ladder 1..8) → extra event on a StatusChange */
export const STATUS_EVENTS: Record<number, EventName> = {
  4: 'passed', // Passed Both Chambers
  5: 'signed', // Signed into Law
  6: 'vetoed', // Vetoed
  8: 'signed', // Chaptered (law)
};

export const EVENT_TABLE_DOC =
  'Event table: NewBill → bill_introduced; StatusChange → status_change, plus passed when the new status_id is 4 (Passed Both Chambers), ' +
  'signed when it is 5 (Signed into Law) or 8 (Chaptered), vetoed when it is 6; Text → text_updated; Vote → vote_recorded; Amendment → amendment_added.';

export function eventsForChange(reason: string, newStatus: number | null): EventName[] {
  const out = [...(REASON_EVENTS[reason] ?? [])];
  if (reason === 'StatusChange' && newStatus !== null && STATUS_EVENTS[newStatus]) out.push(STATUS_EVENTS[newStatus]);
  return out;
}

export interface BillSnapshot {
  bill_id: number;
  state: string;
  bill_number: string;
  title: string;
  status_id: number;
  status_date: string | null;
  updated: string;
}

export interface WebhookPayload {
  type: string;
  id: string;
  api_version: string;
  occurred_at: string;
  data: {
    bill: BillSnapshot & { url: string };
    change: Record<string, unknown>;
  };
}

/** The delivery body. `id` is stable per (change, event) so receivers can dedupe on it too. */
export function buildPayload(
  type: string,
  change: Pick<ChangeEvent, 'change_id' | 'changed_at' | 'reason' | 'reason_id' | 'old_status' | 'new_status' | 'detail'>,
  bill: BillSnapshot,
  baseUrl: string,
): WebhookPayload {
  const detail = change.detail ?? {};
  const extra: Record<string, unknown> = {};
  for (const k of ['text_id', 'roll_call_id', 'amendment_id'] as const) if (detail[k] !== undefined) extra[k] = detail[k];
  return {
    type,
    id: `evt_${change.change_id}_${type}`,
    api_version: PAYLOAD_VERSION,
    occurred_at: change.changed_at,
    data: {
      bill: { ...bill, url: `${baseUrl}/v1/bills/${bill.bill_id}` },
      change: { reason: change.reason, reason_id: change.reason_id, old_status_id: change.old_status, new_status_id: change.new_status, ...extra },
    },
  };
}
