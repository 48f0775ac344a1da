// The LegiScan XML reader against fast-xml-parser (the parser it replaced) on every real file,
// and on the corners the real files do not show: entities, CDATA, empty and malformed documents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { XML_LISTS, parsePayload } from '../../src/ingest/legiscan/parse.js';
import { parseLegiscanXml } from '../../src/ingest/legiscan/xml.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data/legiscan/xml-ms-2014-regular');
const present = existsSync(DATA);
if (!present) console.warn(`real-file XML comparison skipped: ${DATA} is absent`);
const reference = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name, jpath) => XML_LISTS.has(name) && String(jpath).split('.').length > 3 });

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
    expect(bill).toEqual({ title: 'A & B <C> éA', note: 'x < y', committee: '', sponsors: { sponsor: [{ name: 'Ann' }] }, tag: ['1', '2'] });
  });

  it('reports malformed documents as a record error naming XML', () => {
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><bill><title>x</bill></legiscan>')).toThrow(/malformed XML: unexpected closing tag <\/bill>/);
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><bill>')).toThrow(/malformed XML: unclosed tag/);
    expect(() => parsePayload('bill', 'x.xml', '<legiscan><person/></legiscan>')).toThrow(/missing "bill" object/);
  });
});
