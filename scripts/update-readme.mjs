// Regenerates the configuration table of README.md from the settings table in src/config.ts
// (run `npm run build` first). test/foundation/readme.test.ts fails when the two drift apart.
import fs from 'node:fs';
import { settingsTable } from '../dist/config.js';

export function renderConfigTable(rows) {
  const lines = ['| variable | default | meaning | accepts |', '|---|---|---|---|'];
  for (const s of rows) {
    const def = s.default === '(unset)' ? 'unset' : '`' + s.default + '`';
    lines.push(`| \`${s.env}\` | ${def} | ${s.description} | ${s.accepts} |`);
  }
  return lines.join('\n');
}

const file = new URL('../README.md', import.meta.url);
const readme = fs.readFileSync(file, 'utf8');
const next = readme.replace(
  /(<!-- config-table:start -->\n)[\s\S]*?(<!-- config-table:end -->)/,
  `$1${renderConfigTable(settingsTable())}\n$2`,
);
fs.writeFileSync(file, next);
console.log(next === readme ? 'README configuration table is up to date' : 'README configuration table updated');
