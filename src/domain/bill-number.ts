// Bill numbers are published in many spellings of one identity: compact (HB1), zero-padded (HB0001),
// spaced (HB 1), dotted (H.B. 1), dashed (SB-12). Every writer stores, and every reader looks up,
// this one normal form (bills.bill_number_key), so a bill is found by any spelling of its number.
//
// Only separator noise goes (whitespace, dots, dashes, underscores); other punctuation stays,
// because it distinguishes bills: "HB1/2" is not "HB12", and "HB 1 (SUB)" is not "HB1".
// Migration 080 defines lds_bill_number_key() in SQL with the same rule for stored rows; a test
// holds the two to the same answers.

/** "hb 0001" → "HB1", "0123" → "123", "H.B. 01/02" → "HB1/2", "HB 0001 (SUB)" → "HB1(SUB)". */
export function billNumberKey(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[\s.\-_]/g, '')
    .replace(/(^|\D)0+(?=\d)/g, '$1');
}
