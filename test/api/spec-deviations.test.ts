// Spec deviations of issue 13 (item 8) on the read side: name ordering as people expect, distinct
// topic sample subjects, and the documented meaning of fields the spec types non-null.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { stateIdOf } from '../../src/domain/states.js';

let t: TestApp;
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
};

// Surnames that a byte-wise, case-sensitive sort puts in the wrong place.
const SURNAMES = [
  'Zuber',
  'de la Cruz',
  'DeSaulnier',
  'Dean',
  'Álvarez',
  'Abbott',
  'van Hollen',
  'Vance',
  "O'Rourke",
  'Ortiz',
  'Éclair',
  'Eddy',
];
// Case-, accent- and punctuation-insensitive, particles kept as part of the surname ("de la Cruz" under D).
// ("Vance" before "van Hollen": vanc < vanh once the space is ignored.)
const EXPECTED = [
  'Abbott',
  'Álvarez',
  'Dean',
  'de la Cruz',
  'DeSaulnier',
  'Éclair',
  'Eddy',
  "O'Rourke",
  'Ortiz',
  'Vance',
  'van Hollen',
  'Zuber',
];

beforeAll(async () => {
  t = await testApp();
  const vt = stateIdOf('VT');
  const values = SURNAMES.map(
    (s, i) =>
      `(${9_000_000_001 + i}, ${vt}, 'House', 'Pat ${s.replace(/'/g, "''")}', 'Pat', '${s.replace(/'/g, "''")}')`,
  ).join(', ');
  await t.db.pool.query(
    `INSERT INTO people (people_id, state_id, chamber, name, first_name, last_name) VALUES ${values}`,
  );
  const cands = SURNAMES.map((s, i) => `(${8_100_000_000_001 + i}, '${s.replace(/'/g, "''")}, Pat')`).join(', ');
  await t.db.pool.query(`INSERT INTO candidates (id, name) VALUES ${cands}`);
  // One subject name used by three states (two spellings of case) and mapped to the health topic.
  await t.db.pool.query(`INSERT INTO subjects (subject_id, state_id, subject_name, bill_count) VALUES
    (91001, ${stateIdOf('TX')}, 'Medicaid', 10), (91002, ${stateIdOf('CA')}, 'Medicaid', 7), (91003, ${stateIdOf('NY')}, 'MEDICAID', 1),
    (91004, ${stateIdOf('TX')}, 'Hospitals', 12), (91005, ${stateIdOf('CA')}, 'Hospitals', 2)`);
  await t.db.pool.query(
    `INSERT INTO subject_topics (subject_id, topic_id) SELECT s, (SELECT topic_id FROM topics WHERE slug = 'health') FROM unnest(ARRAY[91001, 91002, 91003, 91004, 91005]) s`,
  );
});
afterAll(async () => t?.close());

describe('names sort as people expect', () => {
  it('/v1/legislators orders surnames case- and accent-insensitively, particles filed as written', async () => {
    const { status, body } = await get('/v1/legislators?state=VT');
    expect(status).toBe(200);
    expect(body.data.map((p: { last_name: string }) => p.last_name)).toEqual(EXPECTED);
  });

  it('paging through the roster keeps that order', async () => {
    const pages = [];
    for (let offset = 0; offset < SURNAMES.length; offset += 5)
      pages.push(...(await get(`/v1/legislators?state=VT&limit=5&offset=${offset}`)).body.data);
    expect(pages.map((p: { last_name: string }) => p.last_name)).toEqual(EXPECTED);
  });

  it('/v1/candidates orders names the same way', async () => {
    const { body } = await get('/v1/candidates?limit=500');
    const names = body.data.map((c: { name: string }) => c.name).filter((n: string) => n.endsWith(', Pat'));
    expect(names).toEqual(EXPECTED.map((s) => `${s}, Pat`));
  });
});

describe('/v1/topics/{slug}', () => {
  it('sample_subjects lists each name once (any letter case), by summed bill count', async () => {
    const { status, body } = await get('/v1/topics/health');
    expect(status).toBe(200);
    expect(body.sample_subjects).toEqual(['Medicaid', 'Hospitals']);
    expect(new Set(body.sample_subjects.map((s: string) => s.toLowerCase())).size).toBe(body.sample_subjects.length);
  });
});

describe('fields the spec types non-null', () => {
  it('the OpenAPI description says when and why they are null', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
    const row = (path: string) => {
      const ok = doc.paths[path].get.responses['200'].content['application/json'].schema;
      return ok.properties.data.items ?? ok.properties.data;
    };
    const described = (schema: { description?: string }, word: RegExp) =>
      expect(schema.description ?? '').toMatch(word);
    described(row('/v1/sessions').properties.expected_sine_die_date, /null only where/);
    described(row('/v1/bills/{bill_id}/referrals').properties.referral_date, /null only where/);
    described(row('/v1/hearings').properties.transcript_extracted_at, /exactly when transcript_text is null/);
    described(row('/v1/hearings').properties.transcript_polished_at, /exactly when transcript_polished_json is null/);
  });
});
