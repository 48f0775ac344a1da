// Delivery payloads: what a webhook subscriber receives for one (change, event) pair.
import type { ChangeEvent } from '../../changes/events.js';

/** The payload format version sent as `api_version` in every delivery. */
export const PAYLOAD_VERSION = 'v1';

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
  change: Pick<
    ChangeEvent,
    'change_id' | 'changed_at' | 'reason' | 'reason_id' | 'old_status' | 'new_status' | 'detail'
  >,
  bill: BillSnapshot,
  baseUrl: string,
): WebhookPayload {
  const detail = change.detail ?? {};
  const extra: Record<string, unknown> = {};
  for (const k of ['text_id', 'roll_call_id', 'amendment_id'] as const)
    if (detail[k] !== undefined) extra[k] = detail[k];
  return {
    type,
    id: `evt_${change.change_id}_${type}`,
    api_version: PAYLOAD_VERSION,
    occurred_at: change.changed_at,
    data: {
      bill: { ...bill, url: `${baseUrl}/v1/bills/${bill.bill_id}` },
      change: {
        reason: change.reason,
        reason_id: change.reason_id,
        old_status_id: change.old_status,
        new_status_id: change.new_status,
        ...extra,
      },
    },
  };
}
