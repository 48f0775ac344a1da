// Query parameters of /v1/stream and /v1/stream/ws.
import { Type } from 'typebox';
import { parseReason } from '../changes/params.js';
import type { EventFilter } from '../changes/events.js';
import { parseStates, parseTimestamp } from '../http/params.js';
import { REASONS } from '../changes/record.js';

export const StreamQuery = Type.Object({
  states: Type.Optional(
    Type.String({ description: 'comma-separated state codes (two-letter codes, DC, US); default all states' }),
  ),
  since: Type.Optional(
    Type.String({
      description:
        'ISO 8601 date or timestamp to replay from (exclusive); default 60 seconds ago. Last-Event-ID takes precedence.',
    }),
  ),
  reason: Type.Optional(Type.String({ description: `exact reason name: ${Object.keys(REASONS).join(', ')}` })),
  last_event_id: Type.Optional(
    Type.String({
      description: 'WebSocket only: the last id received, for clients that cannot set the Last-Event-ID header',
    }),
  ),
});

export interface StreamParams {
  filter: EventFilter;
  /** exclusive cursor in a form PostgreSQL reads exactly */
  cursor: string;
}

export function parseStreamParams(
  q: { states?: string; since?: string; reason?: string; last_event_id?: string },
  lastEventIdHeader: string | string[] | undefined,
  now: Date,
): StreamParams {
  const states = parseStates(q.states);
  const reasonId = parseReason(q.reason);
  const header = Array.isArray(lastEventIdHeader) ? lastEventIdHeader[0] : lastEventIdHeader;
  const resume =
    header !== undefined && header !== ''
      ? parseTimestamp(header, 'Last-Event-ID')
      : parseTimestamp(q.last_event_id, 'last_event_id');
  const since = parseTimestamp(q.since, 'since');
  const cursor = resume ?? since ?? new Date(now.getTime() - 60_000).toISOString();
  return { filter: { states, reasonId }, cursor };
}
