// Congress history steps name a chamber only where the source does: a vote's `where`, a House floor
// action code (H…, Intro-H) or Intro-S. The President's actions ("Presented to President.",
// "Signed by President.") and uncoded steps are body-less (0, ""), as published; every step of the
// 116th Congress's bills is compared through the API. Skips when the data is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCongress } from '../../src/ingest/congress/bills.js';
import { testApp, type TestApp } from '../helpers/app.js';

type Obj = Record<string, unknown>;
const ROOT = path.resolve(import.meta.dirname, '../../../shared/data/congress-116/data/116');
const present = existsSync(path.join(ROOT, 'bills'));
if (!present) console.warn(`Congress history test skipped: ${ROOT} is absent`);

function billFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? billFiles(path.join(dir, e.name)) : e.name === 'data.json' ? [path.join(dir, e.name)] : [],
  );
}
const expectedBody = (a: Obj): number => {
  if (a.where === 'h') return 114;
  if (a.where === 's') return 115;
  const code = String(a.action_code ?? '');
  return code === 'Intro-S' ? 115 : /^H|^Intro-H$/.test(code) ? 114 : 0;
};

let t: TestApp;
beforeAll(async () => {
  if (!present) return;
  t = await testApp();
  expect((await importCongress(t.db.pool, ROOT)).failed).toBe(false);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!present)('Congress history chambers', () => {
  it('every action of every bill: the chamber the source names, or none', async () => {
    const wrong: string[] = [];
    let executive = 0;
    const ids = new Map(
      (
        await t.db.pool.query<{ id: string; bill_id: number }>(
          `SELECT external_ids->>'congress_bill_id' AS id, bill_id FROM bills WHERE state_id = 52`,
        )
      ).rows.map((r) => [r.id, r.bill_id]),
    );
    for (const file of billFiles(path.join(ROOT, 'bills'))) {
      const d = JSON.parse(readFileSync(file, 'utf8')) as Obj;
      const billId = ids.get(String(d.bill_id));
      expect(billId, String(d.bill_id)).toBeDefined();
      const res = await t.app.inject({ url: `/v1/bills/${billId}/history`, headers: { 'x-api-key': t.key } });
      const steps = res.json().data as Obj[];
      ((d.actions ?? []) as Obj[]).forEach((a, i) => {
        const want = expectedBody(a);
        if (/President/.test(String(a.text))) executive += want === 0 ? 1 : 0;
        if (steps[i]?.history_body_id !== want || (want === 0 && steps[i]?.body_name !== '')) {
          wrong.push(
            `${String(d.bill_id)} step ${i + 1} "${String(a.text).slice(0, 40)}": ${String(steps[i]?.history_body_id)} want ${want}`,
          );
        }
      });
    }
    expect(executive).toBeGreaterThan(30);
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 300_000);
});
