// Names published as one combined string: honorifics removed, "Last, First" reversed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPublishedName } from '../../src/domain/names.js';

describe('splitPublishedName', () => {
  it.each([
    ['Rep. Smith, John', 'John', '', 'Smith', ''],
    ['Sen. Jane Q. Doe', 'Jane', 'Q.', 'Doe', ''],
    ['Smith, John Q.', 'John', 'Q.', 'Smith', ''],
    ['Del. Garcia, Maria, Jr.', 'Maria', '', 'Garcia', 'Jr.'],
    ['Councilmember Robert White Jr.', 'Robert', '', 'White', 'Jr.'],
    ['Maria de la Cruz', 'Maria', '', 'de la Cruz', ''],
    ['Rep. John "Jack" Kennedy', 'John', '', 'Kennedy', ''],
    ['Hon. Dr. Alice   Walker', 'Alice', '', 'Walker', ''],
  ])('%s', (raw, first, middle, last, suffix) => {
    const p = splitPublishedName(raw);
    expect([p.first_name, p.middle_name, p.last_name, p.suffix]).toEqual([first, middle, last, suffix]);
  });

  it('keeps the nickname apart', () => {
    expect(splitPublishedName('Rep. John "Jack" Kennedy').nickname).toBe('Jack');
  });

  it('never returns an honorific as a name part, and never loses the surname', () => {
    const word = fc.constantFrom('John', 'Mary', 'Smith', 'Lee', "O'Brien", 'Nguyen', 'Ana');
    fc.assert(
      fc.property(
        fc.constantFrom('Rep.', 'Sen.', 'Del.', 'Hon.', ''),
        word,
        word,
        fc.boolean(),
        (hon, first, last, reversed) => {
          const raw = reversed ? `${hon} ${last}, ${first}` : `${hon} ${first} ${last}`;
          const p = splitPublishedName(raw);
          expect(p.last_name).toBe(last);
          expect(p.first_name).toBe(first);
        },
      ),
    );
  });

  it('does not throw on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const p = splitPublishedName(s);
        expect(typeof p.first_name).toBe('string');
        expect(typeof p.last_name).toBe('string');
      }),
    );
    // Inputs made of the characters the parser splits on, where the random strings rarely land.
    for (const s of [',', ' , ', ',,', ', Jr.', 'Rep.,', '"", ,']) expect(() => splitPublishedName(s), s).not.toThrow();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(',', ' ', '.', '"', '(', ')', 'Jr', 'Rep', 'a') }), (s) => {
        expect(typeof splitPublishedName(s).last_name).toBe('string');
      }),
    );
  });
});
