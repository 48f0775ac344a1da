// Validation of a subscription body (webhooks and push-mirrors): 400 bad_request naming the field.
import { badRequest } from '../../http/errors.js';
import { isStateCode } from '../../domain/states.js';
import { EVENT_NAMES, EVENT_SET } from '../../domain/events.js';
import { checkWebhookUrl, GuardError, type Resolver, systemResolver } from '../delivery/guard.js';

export const MAX_SUBJECTS = 100;

export interface ValidSubscription {
  url: string;
  events: string[];
  states: string[];
  subjects: string[];
}

export async function validateUrl(
  raw: unknown,
  allowed: readonly string[],
  resolver: Resolver = systemResolver,
): Promise<string> {
  try {
    return (await checkWebhookUrl(raw, allowed, resolver)).toString();
  } catch (err) {
    if (err instanceof GuardError) throw badRequest(err.message, 'webhook_url');
    throw err;
  }
}

export async function validateSubscription(
  body: { webhook_url: string; events: string[]; filters?: { states?: string[]; subjects?: string[] } },
  allowed: readonly string[],
  resolver: Resolver = systemResolver,
): Promise<ValidSubscription> {
  if (!Array.isArray(body.events) || body.events.length === 0)
    throw badRequest(`events must list at least one of: ${EVENT_NAMES.join(', ')}.`, 'events');
  const unknown = body.events.filter((e) => !EVENT_SET.has(e));
  if (unknown.length > 0)
    throw badRequest(`Unknown event name(s): ${unknown.join(', ')}. Valid: ${EVENT_NAMES.join(', ')}.`, 'events');
  const states = (body.filters?.states ?? []).map((s) => String(s).trim().toUpperCase());
  const badStates = (body.filters?.states ?? []).filter((_, i) => !isStateCode(states[i]));
  if (badStates.length > 0)
    throw badRequest(
      `filters.states must hold two-letter state codes, DC or US; got ${badStates.map((s) => JSON.stringify(s)).join(', ')}.`,
      'filters.states',
    );
  const subjects = (body.filters?.subjects ?? []).map((s) => String(s).trim());
  if (subjects.length > MAX_SUBJECTS || subjects.some((s) => s.length === 0 || s.length > 200)) {
    throw badRequest(
      `filters.subjects must hold at most ${MAX_SUBJECTS} non-empty names of at most 200 characters.`,
      'filters.subjects',
    );
  }
  const url = await validateUrl(body.webhook_url, allowed, resolver);
  return { url, events: [...new Set(body.events)], states: [...new Set(states)], subjects: [...new Set(subjects)] };
}
