// How raw subject labels from any source fold into the canonical topics (table `topics`).
// One rule set for every writer (seed, importers, simulator):
//   1. normalise: lower case, '&' -> 'and', punctuation to spaces, collapse whitespace;
//   2. an exact synonym match wins (SYNONYMS), else
//   3. every topic whose keyword appears as a whole word or phrase in the label applies.
// A label may reach several topics, or none (`lds topics unmapped` lists those).
// The taxonomy has no foreign-affairs topic: diplomacy, treaties, foreign aid, international
// bodies and Congress/executive institutions fold into government-operations; wars, terrorism,
// arms control and intelligence into military-veterans. Place names (countries, regions, states
// such as "Middle East" or "Alaska") deliberately reach no topic: a place is not a subject area.
// Keywords are whole words or phrases, so short stems are avoided where they would misfire
// ("war*" would catch "warranty"; "rights" alone would catch "water rights": exact synonyms instead).
// Interface labels (portal tags such as "Bill Text" or "First Reading") are not subjects at all.

export function normaliseLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** Keywords (normalised, matched as whole words/phrases; a trailing * matches any word ending). */
export const TOPIC_KEYWORDS: Record<string, string[]> = {
  'agriculture': ['agricultur*', 'farm*', 'ranch*', 'crop*', 'livestock', 'food safety', 'dairy', 'pesticide*', 'agronomy', 'grain', 'poultry', 'hemp', 'pest management', 'meat', 'food supply'],
  'alcohol-cannabis': ['alcohol*', 'liquor', 'beer', 'wine', 'cannabis', 'marijuana', 'controlled substance*', 'drug*', 'opioid*', 'tobacco', 'vaping', 'nicotine'],
  'animals': ['animal*', 'wildlife', 'hunting', 'fishing', 'game and fish', 'pet*', 'veterinar*', 'dog*', 'cat*', 'fish and game', 'mammals', 'birds', 'fishes', 'fisheries', 'endangered and threatened species'],
  'arts-culture': ['art', 'arts', 'culture', 'cultural', 'museum*', 'librar*', 'historic*', 'history', 'commemorat*', 'memorial*', 'holiday*', 'state symbol*', 'humanities', 'smithsonian institution', 'national symbols', 'congressional tributes'],
  'banking-finance': ['bank*', 'financ*', 'credit', 'lending', 'loan*', 'securities', 'mortgage*', 'debt collection', 'money transmit*', 'cryptocurrenc*', 'investment*', 'commodity futures', 'accounting and auditing', 'public finance'],
  'budget-appropriations': ['budget*', 'appropriation*', 'spending', 'state debt', 'bond*', 'fiscal', 'revenue', 'funds', 'permanent fund', 'user charges'],
  'business-commerce': ['business*', 'commerce', 'corporat*', 'professional licens*', 'occupational licens*', 'trade*', 'licensing', 'professions', 'occupations', 'commercial', 'manufacturing', 'marketing and advertising', 'competition and antitrust', 'antitrust', 'motor carriers'],
  'children-families': ['child*', 'famil*', 'adoption', 'foster care', 'custody', 'domestic relations', 'marriage', 'divorce', 'juvenile*', 'youth', 'minors', 'day care'],
  'civil-rights': ['civil rights', 'discriminat*', 'equal protection', 'human rights', 'civil liberties', 'lgbt*', 'gender identity', 'sexual orientation', 'race', 'racial', 'women s rights', 'first amendment rights'],
  'consumer-protection': ['consumer*', 'product safety', 'warrant*', 'deceptive', 'price gouging', 'unfair trade'],
  'courts': ['court*', 'judic*', 'judge*', 'civil procedure', 'attorney*', 'jur*', 'litigation', 'evidence', 'legal profession', 'civil actions', 'torts', 'alternative dispute resolution', 'mediation', 'arbitration', 'administrative remedies'],
  'crime-justice': ['crim*', 'sentenc*', 'correction*', 'prison*', 'jail*', 'parole', 'probation', 'victim*', 'felon*', 'offense*', 'penalt*', 'sex offender*', 'death penalty', 'detention of persons'],
  'disabilities': ['disabilit*', 'disabled', 'accessib*', 'blind', 'deaf', 'developmental*', 'special needs'],
  'economic-development': ['economic development', 'economic*', 'jobs', 'incentive*', 'small business*', 'tourism', 'enterprise zone*', 'workforce development', 'rural conditions and development', 'rural development'],
  'education': ['education', 'school*', 'teacher*', 'student*', 'curricul*', 'k 12', 'charter school*', 'elementary', 'secondary', 'public instruction', 'educational*'],
  'higher-education': ['higher education', 'college*', 'universit*', 'postsecondary', 'student aid', 'tuition', 'community college*', 'scholarship*'],
  'elections': ['election*', 'voting', 'voter*', 'ballot*', 'campaign*', 'redistricting', 'apportionment', 'political part*', 'political advertising', 'congressional districts', 'political movements'],
  'emergency-management': ['emergenc*', 'disaster*', 'fire*', 'homeland security', 'ems', 'first responder*', '911'],
  'energy': ['energy', 'electric*', 'oil', 'gas', 'natural gas', 'renewable*', 'solar', 'wind', 'nuclear', 'petroleum', 'pipeline*', 'coal'],
  'environment': ['environment*', 'pollution', 'climate', 'air quality', 'water quality', 'waste', 'recycling', 'hazardous', 'conservation', 'emission*', 'environmental protection', 'wetlands', 'endangered and threatened species', 'marine and coastal resources'],
  'firearms': ['firearm*', 'gun*', 'weapon*', 'concealed carry', 'ammunition'],
  'government-operations': ['government*', 'state agenc*', 'public employee*', 'ethics', 'public record*', 'procurement', 'state government', 'legislature', 'legislative', 'administrative procedure', 'state employees', 'public officers', 'open meetings', 'governor', 'congress', 'federal government', 'congressional*', 'oversight', 'constitution*', 'president*', 'vice president*', 'house of representatives', 'senate', 'executive agenc*', 'executive office', 'federal official*', 'administrative law', 'regulatory procedure*', 'department of', 'general services administration', 'office of personnel management', 'merit systems protection board', 'national archives', 'advisory bodies', 'intergovernmental relations', 'administrative conference', 'access board', 'office of special counsel', 'postal*', 'u s territories', 'district of columbia', 'salaries and allowances', 'international*', 'foreign aid', 'foreign relations', 'diplomacy', 'treaties', 'alliances', 'sanctions', 'united nations', 'sovereignty', 'residency'],
  'health': ['health', 'health care', 'medicaid', 'medicare', 'hospital*', 'physician*', 'nurs*', 'pharmac*', 'mental health', 'medical', 'dental', 'prescription*', 'health insurance', 'nutrition', 'diet'],
  'public-health': ['public health', 'disease*', 'vaccin*', 'immuniz*', 'epidemic*', 'pandemic', 'covid*', 'sanitation'],
  'housing': ['housing', 'landlord*', 'tenant*', 'homeless*', 'real estate', 'real property', 'rent*', 'eviction*', 'property'],
  'immigration': ['immigra*', 'refugee*', 'citizenship', 'naturalization', 'aliens', 'border*', 'visas and passports'],
  'insurance': ['insurance', 'insurer*', 'annuit*'],
  'labor': ['labor', 'labour', 'employ*', 'wage*', 'workplace', 'union*', 'collective bargaining', 'unemployment', 'workers compensation', 'worker*', 'minimum wage'],
  'local-government': ['local government', 'count*', 'cit*', 'municipal*', 'township*', 'special district*', 'local'],
  'law-enforcement': ['law enforcement', 'police', 'sheriff*', 'peace officer*', 'public safety'],
  'military-veterans': ['militar*', 'veteran*', 'national guard', 'armed forces', 'defense', 'conflicts and wars', 'war', 'wars', 'terrorism', 'arms control', 'nonproliferation', 'collective security', 'intelligence activities', 'coast guard', 'subversive activities', 'selective service'],
  'natural-resources': ['natural resource*', 'park*', 'forest*', 'mining', 'minerals', 'public lands', 'land management', 'outdoor recreation', 'land transfers', 'seashores and lakeshores', 'marine and coastal resources', 'fisheries'],
  'privacy-technology': ['privacy', 'data', 'cyber*', 'technology', 'telecommunication*', 'internet', 'broadband', 'artificial intelligence', 'computer*', 'information technology', 'federal communications commission', 'wireless communication', 'telephone*', 'surveillance'],
  'religion': ['religio*', 'church*', 'faith'],
  'reproductive-health': ['abortion', 'reproductive', 'contracepti*', 'maternal', 'pregnan*', 'family planning'],
  'science': ['science*', 'scientific', 'research', 'innovation', 'space'],
  'seniors': ['senior*', 'aging', 'elder*', 'older adult*', 'retire*', 'pension*', 'long term care'],
  'social-services': ['social service*', 'public assistance', 'welfare', 'food assistance', 'snap', 'poverty', 'human services', 'tanf', 'charitable contributions'],
  'sports-recreation': ['sport*', 'gaming', 'gambling', 'lotter*', 'recreation*', 'athlet*', 'casino*', 'racing'],
  'taxation': ['tax*', 'income tax', 'sales tax', 'property tax*', 'excise'],
  'transportation': ['transport*', 'road*', 'highway*', 'vehicle*', 'motor vehicle*', 'traffic', 'transit', 'aviation', 'airport*', 'rail*', 'driver*', 'bridges', 'maritime', 'ports', 'saint lawrence seaway', 'motor carriers'],
  'tribal-affairs': ['tribal', 'tribe*', 'native american*', 'indian*', 'indigenous', 'alaska natives', 'native hawaiians', 'hawaiians'],
  'water': ['water*', 'drinking water', 'flood*', 'irrigation', 'dam*', 'wastewater', 'groundwater', 'great lakes', 'lakes and rivers'],
};

/** Whole-label synonyms that override keyword matching (normalised label -> topic slugs). */
export const SYNONYMS: Record<string, string[]> = {
  'appropriations': ['budget-appropriations'],
  'guns': ['firearms'],
  'medicaid': ['health', 'social-services'],
  'k 12 education': ['education'],
  'abortion': ['reproductive-health'],
  'dui': ['crime-justice', 'transportation'],
  'motor vehicles': ['transportation'],
  'public safety': ['law-enforcement'],
  // Single words too broad to be keywords (they would catch "law enforcement", "water rights").
  'law': ['courts'],
  'rights': ['civil-rights'],
  'public employees': ['government-operations', 'labor'],
};

/** Portal tags that describe a document or stage, not a subject; excluded from /v1/subjects. */
const INTERFACE_LABELS = [
  /^bill text$/, /^(first|second|third) reading$/, /^(introduced|engrossed|enrolled) (version|text)$/, /^fiscal note$/,
  /^(prefiled|pre filed)$/, /^(view|show) (bill|text|pdf)/, /^pdf$/, /^html$/, /^text$/, /^amendments?$/, /^bill status$/,
  /^committee report$/, /^(house|senate) (calendar|journal)$/, /^roll call$/, /^vote (history|record)$/,
];

export function isInterfaceLabel(label: string): boolean {
  const n = normaliseLabel(label);
  return INTERFACE_LABELS.some((re) => re.test(n));
}

type Matcher = { slug: string; re: RegExp };

const MATCHERS: Matcher[] = Object.entries(TOPIC_KEYWORDS).flatMap(([slug, words]) =>
  words.map((w) => {
    const body = w.endsWith('*') ? `${escape(w.slice(0, -1))}[a-z0-9]*` : escape(w);
    return { slug, re: new RegExp(`(^| )${body}( |$)`) };
  }),
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Topic slugs a raw subject label folds into (possibly none). Deterministic and ordered. */
export function topicsForSubject(label: string): string[] {
  if (isInterfaceLabel(label)) return [];
  const n = normaliseLabel(label);
  if (!n) return [];
  const syn = SYNONYMS[n];
  if (syn) return [...syn];
  const found = new Set<string>();
  for (const m of MATCHERS) if (m.re.test(n)) found.add(m.slug);
  return [...found].sort();
}
