// A LegiScan session as bills carry it. Older datasets give only session_id and session_name
// ("2014 Regular Session"): the years, the tag and the address are derived from what is there,
// and a session whose last year is over is marked ended (sine_die 1) even when the payload,
// written while it sat, still says 0.
import type { BillRow } from '../write/bills.js';
import type { Reference } from '../write/reference.js';
import type { SessionRow } from '../write/sessions.js';
import { num, str } from './map.js';
import type { LegiscanSession } from './source.js';

export function legiscanSession(session: LegiscanSession, bill: BillRow, ref: Reference, now = new Date()): SessionRow {
  const name = str(session.session_name) || str(session.session_title);
  const years = [...name.matchAll(/\b(?:19|20)\d{2}\b/g)].map((m) => Number(m[0]));
  const year = num(session.year_start) || years[0] || Number((bill.status_date ?? '').slice(0, 4)) || 0;
  const yearEnd = num(session.year_end) || years[years.length - 1] || year;
  // "2014 Regular Session" → "Regular Session"; "2013-2014 1st Special Session" → "1st Special Session"
  const tag =
    str(session.session_tag) ||
    name
      .replace(/\b(?:19|20)\d{2}\b(?:\s*-\s*(?:19|20)?\d{2}\b)?/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  const special = session.special !== undefined ? num(session.special) : /special|extraordinary/i.test(name) ? 1 : 0;
  const ended = yearEnd > 0 && yearEnd < now.getUTCFullYear();
  // LegiScan's own page of the session's legislation, from the bill's LegiScan address
  // (https://legiscan.com/MS/bill/HB1/2014 → https://legiscan.com/MS/legislation/2014).
  const m = /^(https?:\/\/(?:www\.)?legiscan\.com\/[A-Z]{2})\/bill\/[^/]+\/(.+)$/i.exec(bill.url);
  const abbr = [...ref.stateByAbbr].find(([, id]) => id === bill.state_id)?.[0] ?? '';
  return {
    session_id: bill.session_id,
    state_id: bill.state_id,
    year_start: year,
    year_end: yearEnd,
    special,
    session_tag: tag,
    session_title: str(session.session_title) || name,
    session_name: name,
    sine_die: num(session.sine_die) || (ended ? 1 : 0),
    prior: num(session.prior) || (ended ? 1 : 0),
    source: 'legiscan',
    source_url:
      str(session.source_url) ||
      (m
        ? `${m[1].replace(/^http:/, 'https:')}/legislation/${m[2]}`
        : abbr
          ? `https://legiscan.com/${abbr}/legislation/${year}`
          : ''),
  };
}
