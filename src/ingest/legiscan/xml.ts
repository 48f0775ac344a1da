// A small XML reader for LegiScan's dataset files. They are element-only documents (no
// attributes that matter, no mixed content), so one regular-expression scan builds the object
// directly: an element with children becomes an object, a leaf its trimmed text, a repeated name
// an array, and the list children in `lists` are arrays whenever they sit below the record level
// (legiscan.bill.sponsors.sponsor). The result is the shape fast-xml-parser gave with
// { ignoreAttributes, parseTagValue: false, trimValues } (the real files are compared in tests), at
// a fraction of its cost: parsing was most of an import's CPU time.
type Obj = Record<string, unknown>;

const TOKEN = /<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g;
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

interface Frame { name: string; obj: Obj | null; text: string }

export class XmlSyntaxError extends Error {}

/** Parses a LegiScan XML document; `lists` names the elements that are always arrays below depth 3. */
export function parseLegiscanXml(body: string, lists: ReadonlySet<string>): Obj {
  const root: Frame = { name: '', obj: {}, text: '' };
  const stack: Frame[] = [root];
  let last = 0;
  TOKEN.lastIndex = 0;
  const add = (parent: Frame, name: string, value: unknown) => {
    const obj = (parent.obj ??= {});
    const prev = obj[name];
    const alwaysList = lists.has(name) && stack.length > 3;
    // Values are strings or objects, so an array here is always a list this parser made.
    if (prev === undefined) obj[name] = alwaysList ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
    else obj[name] = [prev, value];
  };
  for (let m = TOKEN.exec(body); m; m = TOKEN.exec(body)) {
    const top = stack[stack.length - 1]!;
    if (m.index > last) top.text += body.slice(last, m.index);
    last = TOKEN.lastIndex;
    const [, close, name, selfClose, cdata] = m;
    if (cdata !== undefined) { top.text += cdata; continue; }
    if (!name) continue; // declaration, comment, doctype
    if (close) {
      if (top.name !== name || stack.length === 1) throw new XmlSyntaxError(`unexpected closing tag </${name}>`);
      stack.pop();
      add(stack[stack.length - 1]!, name, top.obj ?? decode(top.text.trim()));
    } else if (selfClose) {
      add(top, name, '');
    } else {
      stack.push({ name, obj: null, text: '' });
    }
  }
  if (stack.length > 1) throw new XmlSyntaxError(`unclosed tag <${stack[stack.length - 1]!.name}>`);
  if (body.slice(last).trim()) throw new XmlSyntaxError('text after the document element');
  return root.obj!;
}
