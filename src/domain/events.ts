// Which change produces which webhook event: one table, documented in the README and the OpenAPI
// description. A StatusChange always emits status_change; moves into certain ladder steps emit a
// second, more specific event as well, so a subscriber can listen for "signed" alone.

export const EVENT_NAMES = [
  'bill_introduced',
  'status_change',
  'vote_recorded',
  'text_updated',
  'passed',
  'vetoed',
  'signed',
  'amendment_added',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
export const EVENT_SET = new Set<string>(EVENT_NAMES);

/**
 * change reason → events; StatusChange adds the ladder events below. TextDiff (the diff worker
 * computed a text change some time after the text arrived, whose Text change already sent
 * text_updated) emits none, so neither webhooks nor push mirrors deliver anything for it; a reason
 * missing here emits none either.
 */
export const REASON_EVENTS: Record<string, EventName[]> = {
  NewBill: ['bill_introduced'],
  StatusChange: ['status_change'],
  Text: ['text_updated'],
  Vote: ['vote_recorded'],
  Amendment: ['amendment_added'],
  TextDiff: [],
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
  'signed when it is 5 (Signed into Law) or 8 (Chaptered), vetoed when it is 6; Text → text_updated; Vote → vote_recorded; Amendment → amendment_added; ' +
  'TextDiff (a computed text change, in the change feed and stream only) → no event.';

export function eventsForChange(reason: string, newStatus: number | null): EventName[] {
  const out = [...(REASON_EVENTS[reason] ?? [])];
  if (reason === 'StatusChange' && newStatus !== null && STATUS_EVENTS[newStatus]) out.push(STATUS_EVENTS[newStatus]);
  return out;
}
