// The jurisdictions the service covers: the 50 states, DC and Congress ("US"). The order is
// LegiScan's state_id numbering (alphabetical by name, DC 51, US 52), which states.state_id follows.
export const STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'US',
] as const;
export type StateCode = (typeof STATE_CODES)[number];

const STATE_SET = new Set<string>(STATE_CODES);

export const isStateCode = (code: string): code is StateCode => STATE_SET.has(code);

/** states.state_id of a code (LegiScan's numbering); 0 for an unknown code. */
export const stateIdOf = (abbr: string): number => STATE_CODES.indexOf(abbr as StateCode) + 1;
