// Open States people on the real files: every legislator's party through the API is the party the
// source publishes: a catalogue party by its catalogue name (fusion labels fold into it), any other
// party by its own name ("Forward" in Utah was shown as "Unknown"). Skips when the data is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenStatesPeople } from '../../src/ingest/openstates/import.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, unknown>;
const DATA = path.resolve(import.meta.dirname, '../../../shared/data/openstates-people/data');
const present = existsSync(DATA);
if (!present) console.warn(`Open States party test skipped: ${DATA} is absent`);

const CATALOGUE: [RegExp, string][] = [
  [/^democrat/i, 'Democrat'],
  [/^republican/i, 'Republican'],
  [/^independent$/i, 'Independent'],
  [/^green/i, 'Green'],
  [/^libertarian/i, 'Libertarian'],
  [/^nonpartisan/i, 'Nonpartisan'],
];
const expected = (published: string) => CATALOGUE.find(([re]) => re.test(published))?.[1] ?? published;

let t: TestApp;
beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  expect((await importOpenStatesPeople(t.db.pool, DATA)).failed).toBe(false);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!present)('Open States parties through the API', () => {
  it('every current legislator shows the party the source publishes', async () => {
    const byOcd = new Map(
      (
        await t.db.pool.query<{ openstates_id: string; people_id: string; state_abbr: string }>(
          `SELECT p.openstates_id, p.people_id::text, s.state_abbr::text FROM people p JOIN states s USING (state_id) WHERE p.openstates_id IS NOT NULL`,
        )
      ).rows.map((r) => [r.openstates_id, r]),
    );
    const shown = new Map<string, string>();
    for (const st of new Set([...byOcd.values()].map((r) => r.state_abbr))) {
      for (let offset = 0; ; offset += 500) {
        const res = await t.app.inject({
          url: `/v1/legislators?state=${st}&limit=500&offset=${offset}`,
          headers: { 'x-api-key': t.key },
        });
        const page = res.json().data as Obj[];
        for (const l of page) shown.set(String(l.people_id), String(l.party_name));
        if (page.length < 500) break;
      }
    }
    const wrong: string[] = [];
    let compared = 0;
    for (const st of readdirSync(DATA)) {
      const dir = path.join(DATA, st, 'legislature');
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) {
        const p = yaml.load(readFileSync(path.join(dir, f), 'utf8')) as Obj;
        const parties = (p.party ?? []) as Obj[];
        const published = String((parties.find((x) => !x.end_date) ?? parties[0])?.name ?? '');
        const row = byOcd.get(String(p.id));
        if (!row || !published) continue;
        compared += 1;
        if (shown.get(row.people_id) !== expected(published))
          wrong.push(`${st}/${f}: ${published} → ${shown.get(row.people_id)}`);
      }
    }
    expect(compared).toBeGreaterThan(7_000);
    expect(wrong).toEqual([]);
  }, 300_000);
});
