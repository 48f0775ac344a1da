// Bill numbers are published both compact (HB1) and zero-padded (HB0001); both must find the same
// bill, so every writer stores and every reader looks up this normal form (bills.bill_number_key).

/** Upper case, spaces, dots and dashes removed, leading zeros of each numeric run stripped: "hb 0001" → "HB1". */
export function billNumberKey(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[\s.\-_]/g, '')
    .replace(/(^|\D)0+(?=\d)/g, '$1');
}
