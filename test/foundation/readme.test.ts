// The README is part of the product: its configuration table and CLI reference must match the code.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsTable } from '../../src/config.js';

const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('README', () => {
  it('documents every setting with its default (regenerate with `npm run docs`)', () => {
    for (const s of settingsTable()) {
      const def = s.default === '(unset)' ? 'unset' : '`' + s.default + '`';
      expect(readme, s.env).toContain(`| \`${s.env}\` | ${def} | ${s.description} |`);
    }
  });

  it('gives the two commands of a fresh machine', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
