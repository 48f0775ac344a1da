// The LegiScan XML reader against fast-xml-parser (the parser it replaced) on every real file,
// and on the corners the real files do not show: entities, CDATA, comments, attributes, spacing
// inside tags, empty and malformed documents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { XML_LISTS, parsePayload } from '../../src/ingest/legiscan/parse.js';
import { XmlSyntaxError, parseLegiscanXml } from '../../src/ingest/legiscan/xml.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data/legiscan/xml-ms-2014-regular');
const present = existsSync(DATA);
if (!present) console.warn(`real-file XML comparison skipped: ${DATA} is absent`);
const reference = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name, jpath) => XML_LISTS.has(name) && String(jpath).split('.').length > 3,
});

const parse = (body: string) => parseLegiscanXml(body, XML_LISTS);
/** The error a document fails with, as "class: message", so that tests assert both exactly. */
function failure(body: string): string {
  try {
    parse(body);
  } catch (err) {
    return `${err instanceof XmlSyntaxError ? 'XmlSyntaxError' : String(err)}: ${(err as Error).message}`;
  }
  return 'no error';
}

describe('LegiScan XML reader', () => {
  it.skipIf(!present)('gives the same object as fast-xml-parser for every file of the MS 2014 dataset', () => {
    let n = 0;
    for (const folder of ['bill', 'vote', 'people']) {
      for (const name of readdirSync(path.join(DATA, folder))) {
        const body = readFileSync(path.join(DATA, folder, name), 'utf8');
        expect([name, parseLegiscanXml(body, XML_LISTS).legiscan]).toEqual([name, reference.parse(body).legiscan]);
        n++;
      }
    }
    expect(n).toBe(5095);
  });

  it('decodes entities and CDATA, keeps one-child lists as lists below the record, repeats as arrays', () => {
    const body = `<?xml version="1.0"?><legiscan><bill><title> A &amp; B &lt;C&gt; &#233;&#x41; </title><note><![CDATA[x < y]]></note>
      <committee/><sponsors><sponsor><name>Ann</name></sponsor></sponsors><tag>1</tag><tag>2</tag></bill></legiscan>`;
    const bill = (parseLegiscanXml(body, XML_LISTS).legiscan as Record<string, unknown>).bill;
    expect(bill).toEqual({
      title: 'A & B <C> éA',
      note: 'x < y',
      committee: '',
      sponsors: { sponsor: [{ name: 'Ann' }] },
      tag: ['1', '2'],
    });
  });

  it('reports malformed documents as a record error naming XML', () => {
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><bill><title>x</bill></legiscan>')).toThrow(
      /malformed XML: unexpected closing tag <\/bill>/,
    );
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><bill>')).toThrow(/malformed XML: unclosed tag/);
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><person/></legiscan>')).toThrow(/missing "bill" object/);
  });

  it('ignores attributes and spaces inside tags, as fast-xml-parser does', () => {
    const body = `<?xml version="1.0"?>\n<legiscan a="1" ><bill id='7'\n  x="y"><title lang="en" >T</title\n><c k="v" /><d/><e\t></e ></bill\t></legiscan >`;
    expect(parse(body)).toEqual({ legiscan: { bill: { title: 'T', c: '', d: '', e: '' } } });
    expect(parse(body).legiscan).toEqual(reference.parse(body).legiscan);
  });

  it('joins the text around comments, CDATA and processing instructions, then trims and decodes it', () => {
    expect(parse('<a> x <!-- c --> y </a>')).toEqual({ a: 'x  y' });
    expect(parse('<a> p<![CDATA[ <q> ]]>r&amp;<?pi x?>s </a>')).toEqual({ a: 'p <q> r&s' });
    expect(
      parse('<!DOCTYPE legiscan><!-- head --><legiscan><b><!-- only a comment --></b></legiscan><!-- tail -->\n'),
    ).toEqual({ legiscan: { b: '' } });
  });

  it('keeps the old reading of what is not a tag and of text beside child elements', () => {
    expect(parse('<a>1 < 2, 3 <= 4, <!x></a>')).toEqual({ a: '1 < 2, 3 <= 4, <!x>' });
    expect(parse('<a>x<b>1</b>y<b>2</b></a>')).toEqual({ a: { b: ['1', '2'] } });
    expect(parse('<legiscan><sponsor>1</sponsor><bill><sponsor>2</sponsor></bill></legiscan>')).toEqual({
      legiscan: { sponsor: '1', bill: { sponsor: '2' } },
    });
  });

  it('reads many distinct tag names, including long ones, without mixing them up', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `n${i.toString(36)}${i % 7 === 0 ? '_'.repeat(80) : ''}`);
    const body = `<r>${names.map((n) => `<${n}>${n}</${n}>`).join('')}</r>`;
    expect(parse(body)).toEqual({ r: Object.fromEntries(names.map((n) => [n, n])) });
    // again, with every name now in the scanner's name cache
    expect(parse(body)).toEqual({ r: Object.fromEntries(names.map((n) => [n, n])) });
  });

  it('throws an XmlSyntaxError naming the fault, never loops or returns a partial object', () => {
    const faults: [string, string][] = [
      ['<legiscan><bill><title>x</title><sponsor', "unterminated tag <sponsor (no '>')"],
      ['<legiscan><bill>x</bill', "unterminated tag </bill (no '>')"],
      ['<legiscan><a>x <!-- y</a></legiscan>', 'unterminated comment'],
      ['<legiscan><a><![CDATA[x</a></legiscan>', 'unterminated CDATA section'],
      ['<?xml version="1.0"<legiscan/>', 'unterminated processing instruction'],
      ['<!DOCTYPE legiscan', 'unterminated DOCTYPE'],
      ['<legiscan><ab>x</a></legiscan>', 'unexpected closing tag </a>'],
      ['<legiscan><a>x</ab></legiscan>', 'unexpected closing tag </ab>'],
      ['<legiscan/></legiscan>', 'unexpected closing tag </legiscan>'],
      ['<legiscan><a>x</a>', 'unclosed tag <legiscan>'],
      ['<legiscan/>x', 'text after the document element'],
    ];
    for (const [xml, fault] of faults) expect(failure(xml), xml).toBe(`XmlSyntaxError: ${fault}`);
    expect(failure('<legiscan></legiscan>\n')).toBe('no error');
  });

  it('reads elements named like built-in properties as data, the way JSON.parse reads such keys', () => {
    const doc = parseLegiscanXml(
      '<legiscan><bill><constructor>c</constructor><__proto__>p</__proto__><toString>1</toString><toString>2</toString></bill></legiscan>',
      XML_LISTS,
    );
    const bill = (doc.legiscan as Record<string, unknown>).bill as Record<string, unknown>;
    expect(Object.getPrototypeOf(bill)).toBe(Object.prototype);
    expect(Object.entries(bill)).toEqual(
      Object.entries(JSON.parse('{"constructor":"c","__proto__":"p","toString":["1","2"]}') as object),
    );
  });
});
