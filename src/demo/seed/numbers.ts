// Bill numbers as each legislature publishes them: HB 123 / SB 45, AB 7 in Assembly states,
// A 123 / S 45 in New York and New Jersey, LB 301 in Nebraska, B26-0123 in the DC Council,
// H.R. 1234 and S. 56 in Congress (stored compact: HR1234, S56), zero-padded HB0001 in a few
// states. bill_number keeps the published form; bill_number_key is the lookup form.
import { PADDED_STATES } from './context.js';

/** [bill_type_id, weight] */
export const BILL_TYPES: readonly (readonly [number, number])[] = [
  [1, 80],
  [2, 10],
  [3, 5],
  [4, 5],
];

function prefix(abbr: string, bodyAbbr: string, role: number, type: number): string {
  if (abbr === 'US')
    return role === 1 ? ['HR', 'HRES', 'HCONRES', 'HJRES'][type - 1] : ['S', 'SRES', 'SCONRES', 'SJRES'][type - 1];
  if (abbr === 'DC') return ['B26-', 'PR26-', 'CER26-', 'PR26-'][type - 1];
  if (abbr === 'NE') return ['LB', 'LR', 'LR', 'LR'][type - 1] + (type > 1 ? '' : '');
  if (abbr === 'NY' || abbr === 'NJ') return (role === 1 ? 'A' : 'S') + ['', 'R', 'CR', 'JR'][type - 1];
  const c = role === 1 ? bodyAbbr : 'S';
  return c + ['B', 'R', 'CR', 'JR'][type - 1];
}

export function publishedNumber(abbr: string, bodyAbbr: string, role: number, type: number, n: number): string {
  const p = prefix(abbr, bodyAbbr, role, type);
  if (abbr === 'DC') return p + String(n).padStart(4, '0');
  if (PADDED_STATES.has(abbr)) return p + String(n).padStart(4, '0');
  return p + n;
}

/** Numbering starts where each chamber starts: Congress and NY count from 1, AZ from 2001, etc. */
export function firstNumber(abbr: string, role: number, type: number): number {
  if (type !== 1) return 1;
  if (abbr === 'AZ') return role === 1 ? 2001 : 1001;
  if (abbr === 'NE') return 1;
  if (abbr === 'OK') return role === 1 ? 1001 : 1;
  return 1;
}

export function billTypeName(type: number): string {
  return ['Bill', 'Resolution', 'Concurrent Resolution', 'Joint Resolution'][type - 1];
}
