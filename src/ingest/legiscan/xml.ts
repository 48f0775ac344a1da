// A small XML reader for LegiScan's dataset files. They are element-only documents (no
// attributes that matter, no mixed content), so one pass builds the object directly: an element
// with children becomes an object, a leaf its trimmed text, a repeated name an array, and the list
// children in `lists` are arrays whenever they sit below the record level
// (legiscan.bill.sponsors.sponsor). The result is the shape fast-xml-parser gave with
// { ignoreAttributes, parseTagValue: false, trimValues } (the real files are compared in tests).
// Parsing is a large share of an import's CPU time, so the scanner is written by hand, about 2x
// faster than the regular-expression tokenizer it replaced: it jumps from '<' to '<' with indexOf,
// reads tag names with charCodeAt, reuses one string per tag name, takes a leaf's text as one
// slice of the document and decodes entities only where there is an '&'.

/** An element with children: each child by name (a repeated or listed name as an array), a leaf as its text. */
export interface XmlElement {
  [name: string]: XmlValue;
}
export type XmlValue = string | XmlElement | XmlValue[];

const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (_m, e: string) => {
    if (e[0] !== '#') return NAMED[e]!;
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

// Tag names are [A-Za-z_][A-Za-z0-9_.:-]*: NAME_CHAR is 1 for a character that may start one,
// 2 for one that may only follow. Anything else after a '<' is not a tag but text.
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  NAME_CHAR[c] = /[A-Za-z_]/.test(ch) ? 1 : /[\d.:-]/.test(ch) ? 2 : 0;
}
const LT = 60,
  GT = 62,
  SLASH = 47,
  BANG = 33,
  QUESTION = 63;

// Tag names met before, by a hash of their characters. The files repeat a few dozen names
// millions of times, and a property key V8 has already internalized is much cheaper to store and
// look up than a fresh slice (parsing took about 40% longer without the cache). The cache outlives
// a call, so it keeps internalized copies of short names only, never a slice that would hold a
// document in memory.
const NAMES: string[] = new Array<string>(1024).fill('');

function tagName(body: string, start: number, end: number, hash: number): string {
  const slot = hash & 1023;
  const known = NAMES[slot]!;
  if (known.length === end - start && body.slice(start, end) === known) return known;
  const name = body.slice(start, end);
  if (name.length > 64) return name;
  return (NAMES[slot] = Object.keys({ [name]: 0 })[0]!); // a property key is an internalized copy
}

export class XmlSyntaxError extends Error {}

/** The index just past the first `close` at or after `from`; a syntax error if there is none. */
function endOf(body: string, close: string, from: number, what: string): number {
  const at = body.indexOf(close, from);
  if (at < 0) throw new XmlSyntaxError(`unterminated ${what}`);
  return at + close.length;
}

/** Parses a LegiScan XML document; `lists` names the elements that are always arrays below depth 3. */
export function parseLegiscanXml(body: string, lists: ReadonlySet<string>): XmlElement {
  // The open elements, the document root first: their names, and their objects once they have a child.
  const names: string[] = [''];
  const objs: (XmlElement | null)[] = [{}];
  // The innermost element's text so far is `text` (what came before a CDATA section or a comment
  // that interrupted it) followed by body.slice(from, <the next markup>).
  let text = '';
  let from = 0;
  let pos = 0;
  const add = (name: string, value: string | XmlElement) => {
    const obj = (objs[objs.length - 1] ??= {});
    // Own properties only: an element named like a built-in (`constructor`, `__proto__`) is data.
    const prev = Object.hasOwn(obj, name) ? obj[name] : undefined;
    // names.length counts the document root: > 3 is below the record (legiscan.bill.sponsors).
    const alwaysList = names.length > 3 && lists.has(name);
    // Values are strings or objects, so an array here is always a list this parser made.
    if (Array.isArray(prev)) prev.push(value);
    else {
      const v = prev === undefined ? (alwaysList ? [value] : value) : [prev, value];
      // Assigning `__proto__` would set the object's prototype instead (JSON.parse defines it).
      if (name === '__proto__')
        Object.defineProperty(obj, name, { value: v, enumerable: true, writable: true, configurable: true });
      else obj[name] = v;
    }
  };
  for (let lt = body.indexOf('<'); lt >= 0; lt = body.charCodeAt(pos) === LT ? pos : body.indexOf('<', pos)) {
    const closing = body.charCodeAt(lt + 1) === SLASH;
    const start = closing ? lt + 2 : lt + 1;
    const c = body.charCodeAt(start);
    if (NAME_CHAR[c] === 1) {
      // A closing tag is nearly always the open element's: check that without reading the name.
      const open = names[names.length - 1]!;
      let name = open;
      let end = start + open.length;
      if (!closing || body.slice(start, end) !== open || NAME_CHAR[body.charCodeAt(end)]) {
        let hash = c;
        end = start + 1;
        for (let ch = body.charCodeAt(end); NAME_CHAR[ch]; ch = body.charCodeAt(++end)) hash = (hash * 31 + ch) | 0;
        name = tagName(body, start, end, hash);
      }
      // Whatever follows the name up to the first '>' (attributes, spaces, a '/') is skipped, as
      // before: a '>' inside a quoted attribute value would end the tag, but LegiScan has none.
      const gt = body.charCodeAt(end) === GT ? end : body.indexOf('>', end);
      if (gt < 0) throw new XmlSyntaxError(`unterminated tag ${body.slice(lt, end)} (no '>')`);
      pos = gt + 1;
      if (closing) {
        if (names.length === 1 || name !== open) throw new XmlSyntaxError(`unexpected closing tag </${name}>`);
        // An element with children drops its own text: LegiScan has no mixed content.
        const value = objs[objs.length - 1] ?? decode((text + body.slice(from, lt)).trim());
        names.pop();
        objs.pop();
        add(name, value);
      } else if (body.charCodeAt(gt - 1) === SLASH) {
        add(name, '');
      } else {
        names.push(name);
        objs.push(null);
      }
      text = '';
    } else if (c === QUESTION && !closing) {
      pos = endOf(body, '?>', lt + 2, 'processing instruction');
      text += body.slice(from, lt);
    } else if (c === BANG && !closing && body.startsWith('--', lt + 2)) {
      pos = endOf(body, '-->', lt + 4, 'comment');
      text += body.slice(from, lt);
    } else if (c === BANG && !closing && body.startsWith('[CDATA[', lt + 2)) {
      pos = endOf(body, ']]>', lt + 9, 'CDATA section');
      text += body.slice(from, lt) + body.slice(lt + 9, pos - 3);
    } else if (c === BANG && !closing && body.startsWith('DOCTYPE', lt + 2)) {
      pos = endOf(body, '>', lt + 9, 'DOCTYPE');
      text += body.slice(from, lt);
    } else {
      pos = lt + 1; // a '<' that starts no markup ("a < b") is text, as it always was here
      continue;
    }
    from = pos;
  }
  if (names.length > 1) throw new XmlSyntaxError(`unclosed tag <${names[names.length - 1]}>`);
  if (body.slice(from).trim()) throw new XmlSyntaxError('text after the document element');
  return objs[0]!;
}
