// The YAML reader of the Open States and congress-legislators importers (js-yaml, core schema)
// gives the values the `yaml` package gives, on every real source file in ../shared/data (when
// present), and reads dates and yes/no as text. A malformed file is a record error.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as referenceParse } from 'yaml';
import { parseWith } from '../../src/ingest/read/parse-chunk.js';
import { parseYaml, yamlParser } from '../../src/ingest/read/yaml.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const present = existsSync(path.join(DATA, 'openstates-people')) && existsSync(path.join(DATA, 'congress-legislators'));
if (!present) console.warn(`YAML real-file comparison skipped: ${DATA} is absent`);

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

describe('parseYaml', () => {
  it.skipIf(!present)(
    'reads every Open States and congress-legislators file as the yaml package does',
    () => {
      const files = [
        ...yamlFiles(path.join(DATA, 'openstates-people')),
        ...yamlFiles(path.join(DATA, 'congress-legislators')),
      ];
      expect(files.length).toBeGreaterThan(11_000);
      const differ = files.filter((f) => {
        const text = readFileSync(f, 'utf8');
        return JSON.stringify(parseYaml(text)) !== JSON.stringify(referenceParse(text));
      });
      expect(differ).toEqual([]);
    },
    120_000,
  );

  it('keeps dates and yes/no as text, numbers and booleans as such', () => {
    expect(
      parseYaml('birth_date: 1960-01-01\nactive: yes\nend: 2021-01-03T12:00:00Z\nn: 12\nb: true\nnothing: ~'),
    ).toEqual({
      birth_date: '1960-01-01',
      active: 'yes',
      end: '2021-01-03T12:00:00Z',
      n: 12,
      b: true,
      nothing: null,
    });
  });

  it('reports a malformed file as a record error, the rest of the chunk read', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-yaml-'));
    try {
      writeFileSync(path.join(dir, 'bad.yml'), 'name: [unclosed\n');
      writeFileSync(path.join(dir, 'dup.yml'), 'name: a\nname: b\n');
      writeFileSync(path.join(dir, 'good.yml'), 'name: Pat\n');
      const r = {
        files: parseWith(
          yamlParser,
          ['bad.yml', 'dup.yml', 'good.yml'].map((f) => path.join(dir, f)),
        ),
      };
      expect(r.files[0]).toMatchObject({ data: null, error: { message: expect.stringMatching(/^malformed YAML: /) } });
      expect(r.files[1]).toMatchObject({
        data: null,
        error: { message: expect.stringMatching(/^malformed YAML: .*duplicated mapping key/) },
      });
      expect(r.files[2]).toMatchObject({ data: { name: 'Pat' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
