// The one form of a member of Congress's `district`, whatever source created the member: a House
// seat is "ST-N" ("CA-12", no zero padding, as Open States writes it) and "ST-AL" at large
// (delegates included: "DC-AL"); a senator carries the state alone ("CA"), as does a House member
// whose district no source publishes (House vote files give the state only). `state_abbr` stays
// "US", the jurisdiction; `district` is where the member's state shows.

const STATE_BY_NAME: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries({
      AL: 'Alabama',
      AK: 'Alaska',
      AZ: 'Arizona',
      AR: 'Arkansas',
      CA: 'California',
      CO: 'Colorado',
      CT: 'Connecticut',
      DE: 'Delaware',
      FL: 'Florida',
      GA: 'Georgia',
      HI: 'Hawaii',
      ID: 'Idaho',
      IL: 'Illinois',
      IN: 'Indiana',
      IA: 'Iowa',
      KS: 'Kansas',
      KY: 'Kentucky',
      LA: 'Louisiana',
      ME: 'Maine',
      MD: 'Maryland',
      MA: 'Massachusetts',
      MI: 'Michigan',
      MN: 'Minnesota',
      MS: 'Mississippi',
      MO: 'Missouri',
      MT: 'Montana',
      NE: 'Nebraska',
      NV: 'Nevada',
      NH: 'New Hampshire',
      NJ: 'New Jersey',
      NM: 'New Mexico',
      NY: 'New York',
      NC: 'North Carolina',
      ND: 'North Dakota',
      OH: 'Ohio',
      OK: 'Oklahoma',
      OR: 'Oregon',
      PA: 'Pennsylvania',
      RI: 'Rhode Island',
      SC: 'South Carolina',
      SD: 'South Dakota',
      TN: 'Tennessee',
      TX: 'Texas',
      UT: 'Utah',
      VT: 'Vermont',
      VA: 'Virginia',
      WA: 'Washington',
      WV: 'West Virginia',
      WI: 'Wisconsin',
      WY: 'Wyoming',
      DC: 'District of Columbia',
      PR: 'Puerto Rico',
      GU: 'Guam',
      VI: 'Virgin Islands',
      AS: 'American Samoa',
      MP: 'Northern Mariana Islands',
    }).map(([code, name]) => [name.toLowerCase(), code]),
  ),
);

const AT_LARGE = /^(0+|AL|at[- ]?large)$/i;

/**
 * A member's district in the one form. `state`: the two-letter code the source gives beside the
 * district (may be empty when the district carries it); `district`: the source's value, any of a
 * number (4, "04"; 0 = at large), "At-Large", a form with the state ("AL-4", "VT-AL") or, for a
 * senator, the state's name ("California"). Without a state to name, the number alone is kept.
 */
export function congressDistrict(senate: boolean, state: string | null | undefined, district: unknown): string {
  const raw = district === null || district === undefined ? '' : String(district).trim();
  let st = (state ?? '').trim().toUpperCase();
  let seat = raw;
  const withState = AT_LARGE.test(raw) ? null : /^([A-Za-z]{2})-(.+)$/.exec(raw);
  const named = STATE_BY_NAME[raw.toLowerCase()];
  if (withState) [st, seat] = [withState[1]!.toUpperCase(), withState[2]!];
  else if (named) [st, seat] = [named, ''];
  const number = AT_LARGE.test(seat) ? 'AL' : /^\d+$/.test(seat) ? String(Number(seat)) : seat;
  if (!/^[A-Z]{2}$/.test(st)) return senate ? '' : number;
  return senate || !number ? st : `${st}-${number}`;
}
