// Contract details of issue 23 (item 6): committees and their members sorted as the spec says, on
// the real Open States committees of Georgia; lists in request bodies taken as sent; the candidate
// filters that only FEC records match.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenStatesPeople } from '../../src/ingest/openstates/import.js';
import { testApp, type TestApp } from '../helpers/app.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const GA = path.join(DATA, 'openstates-people/data/ga');
const present = existsSync(GA);
if (!present) console.warn(`committee order on real data skipped: ${GA} is absent`);

let t: TestApp;
let tmp: string | undefined;
beforeAll(async () => {
  t = await testApp({ config: { webhookAllowedHosts: ['127.0.0.1'] } });
  if (present) {
    // One state's people and committees, read from a scratch copy outside the repository.
    tmp = mkdtempSync(path.join(os.tmpdir(), 'lds-ga-'));
    cpSync(GA, path.join(tmp, 'data', 'ga'), { recursive: true });
    const r = await importOpenStatesPeople(t.db.pool, tmp);
    expect(r.failed).toBe(false);
  }
}, 180_000);
afterAll(async () => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  await t?.close();
});

const get = async (url: string) => {
  const res = await t.app.inject({ url, headers: { 'x-api-key': t.key } });
  return { status: res.statusCode, body: res.json() };
};
const post = (url: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

// What people expect of a name order (case, accents, spaces and punctuation ignored), as ICU's root
// collation with alternate=shifted does; bytes break ties as the database does.
const collator = new Intl.Collator('und', { sensitivity: 'base', ignorePunctuation: true });
const byName = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
const ROLE_RANK: Record<string, number> = { chair: 0, 'vice chair': 1 };

describe.skipIf(!present)('committees on the real Georgia data', () => {
  it('list by state, chamber, then name as people expect: every source committee, in that order', async () => {
    const source = readdirSync(path.join(GA, 'committees')).map(
      (f) => (parseYaml(readFileSync(path.join(GA, 'committees', f), 'utf8')) as { name: string }).name,
    );
    const { status, body } = await get('/v1/committees?state=GA&limit=500');
    expect(status).toBe(200);
    const rows = body.data as { chamber: string; committee_name: string }[];
    expect(rows.map((c) => c.committee_name).sort()).toEqual([...source].sort());
    const chambers = [...new Set(rows.map((c) => c.chamber))];
    expect(chambers).toEqual([...chambers].sort());
    for (const chamber of chambers) {
      const names = rows.filter((c) => c.chamber === chamber).map((c) => c.committee_name);
      expect([chamber, names]).toEqual([chamber, [...names].sort(byName)]);
    }
    // The case that a byte order gets wrong ("S" < "a"), in both chambers of the source.
    const all = rows.map((c) => c.committee_name);
    expect(all.indexOf('Public and Community Health')).toBeLessThan(all.indexOf('Public Safety and Homeland Security'));
    expect(all.indexOf('State and Local Governmental Operations')).toBeLessThan(
      all.indexOf('State Institutions and Property'),
    );
  });

  it("members: chair, vice chair, members, each by name as people expect; the source's people, each once", async () => {
    const { body } = await get('/v1/committees?state=GA&limit=500');
    let checked = 0;
    for (const c of body.data as { committee_id: number; committee_name: string; members_count: number }[]) {
      const { status, body: m } = await get(`/v1/committees/${c.committee_id}/members`);
      expect(status).toBe(200);
      const rows = m.data as { people_id: string | number; name: string; member_role: string }[];
      expect(rows.length).toBe(c.members_count);
      const expected = [...rows].sort(
        (a, b) => (ROLE_RANK[a.member_role] ?? 2) - (ROLE_RANK[b.member_role] ?? 2) || byName(a.name, b.name),
      );
      expect([c.committee_name, rows.map((r) => `${r.member_role}: ${r.name}`)]).toEqual([
        c.committee_name,
        expected.map((r) => `${r.member_role}: ${r.name}`),
      ]);
      expect(new Set(rows.map((r) => String(r.people_id))).size).toBe(rows.length);
      checked += rows.length;
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('lists in request bodies are taken as sent', () => {
  const hook = 'http://127.0.0.1:9/hook';
  const cases: [string, Record<string, unknown>, string][] = [
    ['/v1/webhooks', { webhook_url: hook, events: 'bill_introduced' }, 'events'],
    ['/v1/webhooks', { webhook_url: hook, events: ['signed'], filters: { states: 'CA' } }, 'filters.states'],
    ['/v1/webhooks', { webhook_url: hook, events: ['signed'], filters: { subjects: 'Health' } }, 'filters.subjects'],
    ['/v1/push-mirror', { webhook_url: hook, events: 'signed' }, 'events'],
    ['/v1/push-mirror', { webhook_url: hook, filters: { states: 'TX' } }, 'filters.states'],
  ];

  it.each(cases)('%s with %j: 400 bad_request naming %s, nothing created', async (url, payload, field) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'bad_request', field });
    expect(res.json().error.message).toContain(field);
    expect((await get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('a number where a string is expected is refused too; the same lists given as lists are accepted', async () => {
    const res = await post('/v1/webhooks', { webhook_url: hook, events: ['signed'], filters: { states: [6] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('bad_request');
    const ok = await post('/v1/webhooks', {
      webhook_url: hook,
      events: ['bill_introduced'],
      filters: { states: ['CA'], subjects: ['Health'] },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({
      events: ['bill_introduced'],
      filters: { states: ['CA'], subjects: ['Health'] },
    });
    // Query strings are still read as their types: an integer limit and a lone value.
    expect((await get('/v1/bills?limit=3&state=ca')).status).toBe(200);
  });
});

describe('candidates without an FEC record', () => {
  beforeAll(async () => {
    // The same race facts on three rows; only the first has an FEC record.
    await t.db.pool.query(`INSERT INTO candidates (id, name, fec_id, office, state, cycle) VALUES
      (7100000000001, 'Filed, Fay', 'H6VT00011', 'House', 'VT', 2026),
      (7100000000002, 'Profile, Pat', NULL, 'House', 'VT', 2026),
      (7100000000003, 'Blank, Bo', '', 'House', 'VT', 2026)`);
  });

  it.each(['state=VT', 'office=house', 'cycle=2026', 'state=VT&office=House&cycle=2026'])(
    '%s matches only the FEC record',
    async (qs) => {
      const { status, body } = await get(`/v1/candidates?${qs}`);
      expect(status).toBe(200);
      expect(body.data.map((c: { name: string }) => c.name)).toEqual(['Filed, Fay']);
    },
  );

  it('without those filters every candidate is listed', async () => {
    const { body } = await get('/v1/candidates?limit=500');
    expect(body.data.map((c: { name: string }) => c.name).sort()).toEqual(['Blank, Bo', 'Filed, Fay', 'Profile, Pat']);
  });
});
