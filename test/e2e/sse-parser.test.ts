// The dashboard's event-stream parser and reconnect delay (public/sse.js), run under Node: the
// page's correctness across rotations rests on parsing identically however the bytes are chunked.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
// @ts-expect-error plain browser JavaScript without type declarations
import { EventStreamParser, backoffMs } from '../../public/sse.js';

type Item = { kind: string; type?: string; data?: string; id?: string; text?: string; ms?: number };

function parseAll(chunks: string[]): Item[] {
  const p = new EventStreamParser();
  return chunks.flatMap((c) => p.feed(c) as Item[]);
}

/** Splits text at the given cut points (any positions, including inside CRLF pairs). */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of at) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

const sample = [
  'retry: 5000',
  ': lds-stream v1',
  '',
  'event: bill_change',
  'id: 2026-03-01T10:00:00.000001Z',
  'data: {"bill_id":1,"state":"CA"}',
  '',
  ': ping 2026-03-01T10:00:15Z',
  '',
  'event: rotate',
  'data: {"reason":"wall_clock","cursor":"2026-03-01T10:00:00.000001Z"}',
  '',
  '',
].join('\n');

describe('EventStreamParser', () => {
  it('reads the stream contract: retry, comments, events with ids, rotate', () => {
    const items = parseAll([sample]);
    expect(items).toEqual([
      { kind: 'retry', ms: 5000 },
      { kind: 'comment', text: 'lds-stream v1' },
      { kind: 'event', type: 'bill_change', data: '{"bill_id":1,"state":"CA"}', id: '2026-03-01T10:00:00.000001Z' },
      { kind: 'comment', text: 'ping 2026-03-01T10:00:15Z' },
      {
        kind: 'event',
        type: 'rotate',
        data: '{"reason":"wall_clock","cursor":"2026-03-01T10:00:00.000001Z"}',
        id: undefined,
      },
    ]);
  });

  it('joins multi-line data, ignores unknown fields and bad retry values, drops data-less events', () => {
    const items = parseAll(['\uFEFFdata: a\ndata:b\nfoo: bar\nretry: 5s\n\nevent: x\n\nid: 7\n\n']);
    expect(items).toEqual([{ kind: 'event', type: 'message', data: 'a\nb', id: undefined }]);
  });

  it('gives the same items for LF, CRLF and CR line ends and any chunking', () => {
    const ends = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(ends, fc.array(fc.nat(), { maxLength: 12 }), (eol, points) => {
        const text = sample.replace(/\n/g, eol);
        expect(parseAll(cut(text, points))).toEqual(parseAll([sample]));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and never invents events on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 6 }), (text, points) => {
        const items = parseAll(cut(text, points));
        const blankLines = text.split(/\r\n|\r|\n/).length - 1;
        expect(items.filter((i) => i.kind === 'event').length).toBeLessThanOrEqual(blankLines);
      }),
    );
  });
});

describe('backoffMs', () => {
  it('starts near the server retry, grows, and stays under the cap with jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 10_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (retry, attempt, r) => {
          const ms = backoffMs(retry, attempt, 60_000, () => r);
          expect(ms).toBeGreaterThanOrEqual(Math.round(Math.min(60_000, retry) * 0.8) - 1);
          expect(ms).toBeLessThanOrEqual(60_000 * 1.2);
          if (attempt === 1) expect(ms).toBeLessThanOrEqual(retry * 1.2 + 1);
        },
      ),
    );
  });
});
