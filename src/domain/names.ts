// Person names as sources publish them. Some states publish only one combined string
// ("Rep. Smith, John", "Sen. Jane Q. Doe Jr."); the API always carries first_name and last_name,
// so they are derived here, the same way for the demo corpus and every importer.

export interface NameParts {
  first_name: string;
  middle_name: string;
  last_name: string;
  suffix: string;
  nickname: string;
}

const HONORIFICS = new Set([
  'rep',
  'representative',
  'sen',
  'senator',
  'del',
  'delegate',
  'asm',
  'assemblymember',
  'assemblyman',
  'assemblywoman',
  'cm',
  'councilmember',
  'councilman',
  'councilwoman',
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'hon',
  'honorable',
  'the',
  'speaker',
  'president',
  'leader',
  'chair',
  'chairman',
  'chairwoman',
  'rev',
]);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v', 'md', 'phd', 'esq']);

const bare = (w: string) => w.toLowerCase().replace(/[.,]/g, '');

function stripHonorifics(words: string[]): string[] {
  let i = 0;
  while (i < words.length - 1 && HONORIFICS.has(bare(words[i]))) i++;
  return words.slice(i);
}

/** Splits a combined published name into parts: honorifics removed, "Last, First" reversed. */
export function splitPublishedName(raw: string): NameParts {
  let s = raw.replace(/\s+/g, ' ').trim();
  let nickname = '';
  s = s
    .replace(/\s*["“(]([^"”)]+)["”)]\s*/g, (_m, nick: string) => {
      nickname = nick.trim();
      return ' ';
    })
    .trim();
  let suffix = '';
  let words: string[];
  const comma = s.indexOf(',');
  if (comma >= 0) {
    // "Rep. Smith, John Q." or "Smith, John, Jr." or "John Smith, Jr." (comma before a suffix only)
    const parts = s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const tail = parts.slice(1).filter((p) => {
      if (SUFFIXES.has(bare(p))) {
        suffix = p;
        return false;
      }
      return true;
    });
    // A name of commas only (",") leaves no parts at all.
    const head = stripHonorifics((parts[0] ?? '').split(' ').filter(Boolean));
    if (tail.length === 0) {
      words = head;
    } else {
      words = [...stripHonorifics(tail.join(' ').split(' ')), ...head];
    }
  } else {
    words = stripHonorifics(s.split(' ').filter(Boolean));
  }
  while (words.length > 1 && SUFFIXES.has(bare(words[words.length - 1]))) suffix = words.pop() ?? suffix;
  if (words.length === 0) return { first_name: '', middle_name: '', last_name: '', suffix, nickname };
  if (words.length === 1) return { first_name: '', middle_name: '', last_name: words[0], suffix, nickname };
  // Surname particles stay with the surname: "Maria de la Cruz" -> last "de la Cruz".
  let lastStart = words.length - 1;
  while (lastStart > 1 && /^(de|del|la|le|van|von|der|da|di|st\.?|mc)$/i.test(words[lastStart - 1])) lastStart--;
  return {
    first_name: words[0],
    middle_name: words.slice(1, lastStart).join(' '),
    last_name: words.slice(lastStart).join(' '),
    suffix,
    nickname,
  };
}
