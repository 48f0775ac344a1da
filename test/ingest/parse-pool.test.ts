// The parse pool in worker threads (the compiled build: under the TypeScript sources it parses
// in-thread) gives the same payloads, in the same order, as parsing in-thread, and reports bad
// files as record errors. `npm test` builds dist/ first; without a build this case skips.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { parseWith, type Blob } from '../../src/ingest/read/parse-chunk.js';
import { legiscanParser } from '../../src/ingest/legiscan/parse-file.js';

const DIST = path.resolve(import.meta.dirname, '../../dist/ingest/read/parse-pool.js');
// the workers load the compiled parser module: the one the compiled build names
const DIST_PARSER = path.resolve(import.meta.dirname, '../../dist/ingest/legiscan/parse-file.js');
const built = existsSync(DIST);
if (!built) console.warn(`worker-thread parse pool test skipped: ${DIST} is absent (run npm run build)`);

let dir: string;
const files: string[] = [];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lds-parse-pool-'));
  for (let i = 0; i < 150; i++) {
    const f = path.join(dir, `B${i}.json`);
    await fs.writeFile(f, i === 77 ? '{"bill": ' : JSON.stringify({ bill: { bill_id: i + 1, title: `Bill ${i}` } }));
    files.push(f);
  }
  const x = path.join(dir, 'X1.xml');
  await fs.writeFile(
    x,
    '<legiscan><bill><bill_id>9</bill_id><sponsors><sponsor><people_id>1</people_id></sponsor></sponsors></bill></legiscan>',
  );
  files.push(x);
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.skipIf(!built)('parse pool (worker threads)', () => {
  it('matches in-thread parsing file for file, in order, errors included', async () => {
    const { ParsePool } = (await import(DIST)) as typeof import('../../src/ingest/read/parse-pool.js');
    const compiled = (await import(DIST_PARSER)) as typeof import('../../src/ingest/legiscan/parse-file.js');
    const pool = new ParsePool(2);
    const got = [];
    try {
      for await (const p of pool.files(compiled.legiscanParser('bill'), files)) got.push(p);
    } finally {
      await pool.close();
    }
    const expected = parseWith(legiscanParser('bill'), files);
    expect(got.map((p) => [p.file, p.data])).toEqual(expected.map((p) => [p.file, p.data]));
    expect(got[77]!.error).toMatchObject({ message: expect.stringMatching(/malformed JSON/) });
    expect(got[150]!.data).toEqual({ bill_id: '9', sponsors: { sponsor: [{ people_id: '1' }] } });
  });

  it('parses in-memory entries (zip blobs, stored or deflated, views into one buffer) as in-thread parsing does, leaving that buffer whole', async () => {
    const { ParsePool } = (await import(DIST)) as typeof import('../../src/ingest/read/parse-pool.js');
    const compiled = (await import(DIST_PARSER)) as typeof import('../../src/ingest/legiscan/parse-file.js');
    const bodies = Array.from({ length: 150 }, (_, i) =>
      i === 40 ? '{"bill": ' : JSON.stringify({ bill: { bill_id: i + 1, title: `Bill ${i}` } }),
    );
    const stored = bodies.map((b, i) => (i % 2 ? zlib.deflateRawSync(Buffer.from(b)) : Buffer.from(b)));
    const whole = Buffer.concat(stored);
    let at = 0;
    const blobs: Blob[] = stored.map((b, i) => {
      at += b.length;
      return { bytes: whole.subarray(at - b.length, at), deflated: i % 2 === 1 };
    });
    blobs.push({ bytes: new Uint8Array(0), deflated: false, error: 'encrypted zip entry' });
    const names = blobs.map((_, i) => `zip:bill/B${i}.json`);
    async function* source() {
      for (const [i, blob] of blobs.entries()) yield { file: names[i]!, blob };
    }
    const pool = new ParsePool(2);
    const got = [];
    try {
      for await (const p of pool.blobs(compiled.legiscanParser('bill'), source())) got.push(p);
    } finally {
      await pool.close();
    }
    const expected = parseWith(legiscanParser('bill'), names, blobs);
    expect(got.map((p) => [p.file, p.data])).toEqual(expected.map((p) => [p.file, p.data]));
    expect(got[3]!.data).toEqual({ bill_id: 4, title: 'Bill 3' });
    expect(got[40]!.error).toMatchObject({ message: expect.stringMatching(/malformed JSON/) });
    expect(got[150]!.error).toMatchObject({ message: 'encrypted zip entry' });
    // the chunks went to the workers as copies: the source buffer is still readable
    expect(whole.byteLength).toBe(at);
    expect(
      zlib.inflateRawSync(whole.subarray(stored[0]!.length, stored[0]!.length + stored[1]!.length)).toString(),
    ).toBe(bodies[1]);
  });
});
