// The bulk CSV encoder (src/bulk/csv.ts) writes exactly what csv-stringify wrote with the options it
// replaced (always-quoted strings, true/false, nested values as JSON): byte for byte, for tricky
// cells and for any JSON the API could return.
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLines } from '../../src/bulk/csv.js';

const REFERENCE = {
  quoted_string: true,
  cast: { boolean: (v: boolean) => (v ? 'true' : 'false'), object: (v: object) => JSON.stringify(v) },
};
const reference = (rows: unknown[][]) => stringify(rows, REFERENCE);

describe('bulk CSV encoder', () => {
  it('writes tricky cells as csv-stringify did', () => {
    const rows = [
      [1, 'a', '', null, undefined, true, false, -0, 1.5, 1e21, 0.1, -3],
      ['q"q', '"', '""', 'l\nm', 'c,d', ' ', '\r', '\t', 'x\u2028y', 'é ✓ 🎉', 'a\r\nb'],
      [{}, [], [1], ['a'], { a: 1 }, { a: 'x"y' }, [null], { 'k,': 'v\n' }, [true, { b: [] }]],
      [null],
      ['only'],
    ];
    expect(csvLines(rows)).toBe(reference(rows));
  });

  it('writes any JSON row as csv-stringify did', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(csvLines(rows)).toBe(reference(rows));
      }),
      { numRuns: 2000 },
    );
  });
});
