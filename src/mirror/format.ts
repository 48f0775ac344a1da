// Value conventions of LegiScan's wire that our stored values do not follow: 24-hour calendar
// times, "HD-005"-style districts, resolvable urls and a 32-hex change_hash.
import { createHash } from 'node:crypto';

export const NO_DATE = '0000-00-00';
export const d = (v: string | null | undefined) => v ?? NO_DATE;
export const MIME: Record<number, string> = {
  1: 'text/html',
  2: 'application/pdf',
  3: 'application/wpd',
  4: 'application/doc',
  5: 'application/rtf',
  6: 'application/docx',
  7: 'application/xls',
  8: 'application/xlsx',
  9: 'text/csv',
  10: 'application/json',
  11: 'application/zip',
};

/** What the mirror sends for a calendar event without a known time: TIME's zero, like "0000-00-00" for dates. */
export const NO_TIME = '00:00';

/** "8:00 AM" / "1:30 pm" / "13:30" / "0800" → "HH:MM"; anything else (empty, "Upon adjournment") → NO_TIME. */
export function lsTime(raw: string | null | undefined): string {
  const s = (raw ?? '').trim().toLowerCase();
  if (!s) return NO_TIME;
  if (/^noon\b/.test(s)) return '12:00';
  if (/^midnight\b/.test(s)) return '00:00';
  const m = /^(\d{1,2})(?::?(\d{2}))?(?::\d{2})?\s*(a|p)?\.?\s*m?\.?(?:\s|$)/.exec(s);
  if (!m || (m[2] === undefined && m[3] === undefined)) return NO_TIME;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  if (m[3]) {
    if (h < 1 || h > 12) return NO_TIME;
    h = (h % 12) + (m[3] === 'p' ? 12 : 0);
  }
  if (h > 23 || min > 59) return NO_TIME;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

/**
 * LegiScan's district form (varchar(9)): chamber prefix (HD for a house seat, SD for a senate
 * seat) and the district number zero-padded to three digits, keeping a letter suffix ("Hillsborough
 * 26" → "HD-026", "12B" → "HD-012B"); at-large seats ("At-Large", "VT-AL") are "HD-AL"; a named district without a number
 * (Alaska's senate letters) keeps its name, upper case, cut to fit ("SD-A"). Empty stays empty.
 */
export function lsDistrict(raw: string | null | undefined, roleId: number): string {
  const s = (raw ?? '').trim();
  if (!s) return '';
  if (/^[HS]D-[A-Z0-9]{1,6}$/.test(s)) return s;
  const prefix = roleId === 2 ? 'SD' : 'HD';
  // "At-Large", and Open States' "VT-AL" (state and AL; "AL-1" is Alabama's first district)
  if (/at[- ]?large/i.test(s) || /^([A-Z]{2}-)?AL$/i.test(s)) return `${prefix}-AL`;
  const nums = [...s.matchAll(/(\d+)\s*-?\s*([A-Za-z])?(?![A-Za-z0-9])/g)];
  const last = nums[nums.length - 1];
  if (last) return `${prefix}-${String(Number(last[1]) % 1000).padStart(3, '0')}${(last[2] ?? '').toUpperCase()}`;
  const word = s
    .split(/\s+/)
    .pop()!
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase();
  return word ? `${prefix}-${word.slice(0, 6)}` : '';
}

/** LegiScan's public page for a record imported from LegiScan (the pattern its own urls follow). */
export const legiscanUrl = (
  state: string,
  what: 'text' | 'amendment' | 'supplement' | 'rollcall',
  billNumber: string,
  id: number,
) => `https://legiscan.com/${state}/${what}/${encodeURIComponent(billNumber)}/id/${id}`;

/** Our own API links for records that have no LegiScan page. */
export const apiBillUrl = (base: string, billId: number) => `${base}/v1/bills/${billId}`;
export const apiVoteUrl = (base: string, rollCallId: number) => `${base}/v1/votes/${rollCallId}`;

/**
 * change_hash: md5 of the bill as pushed (everything but the push-only last_push and reasons), so it
 * changes exactly when something a receiver stores changes, whatever wrote the bill.
 */
export function billChangeHash(bill: Record<string, unknown>): string {
  const { change_hash: _h, last_push: _l, reasons: _r, ...rest } = bill;
  return createHash('md5').update(JSON.stringify(rest)).digest('hex');
}
