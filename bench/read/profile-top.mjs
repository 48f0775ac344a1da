// Summarises a V8 .cpuprofile (from `read.mjs --profile <dir>`, i.e. `node --cpu-prof` on the app):
// the functions with the most self time, and self time by source (project file or package).
//   node bench/read/profile-top.mjs <file.cpuprofile> [top=30] [skip=seconds of start-up to leave out]
import { readFileSync } from 'node:fs';

const [file, topArg, skipArg] = process.argv.slice(2);
const top = Number(topArg ?? 30);
const skipUs = Number(skipArg ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0;
  if (t >= skipUs) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}

const source = (u) => {
  if (!u) return '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1];
  const d = /\/dist\/(.*)$/.exec(u);
  if (d) return `dist/${d[1]}`;
  return u.replace(/^.*\//, '');
};

const fns = new Map();
const sources = new Map();
let total = 0;
for (const [id, us] of dt) {
  const { callFrame: f } = byId.get(id);
  total += us;
  const name = `${f.functionName || '(anonymous)'} ${source(f.url)}:${f.lineNumber + 1}`;
  fns.set(name, (fns.get(name) ?? 0) + us);
  if (f.functionName !== '(idle)') sources.set(source(f.url), (sources.get(source(f.url)) ?? 0) + us);
}
const idle = [...fns].filter(([n]) => n.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
const busy = total - idle;
const pct = (v) => `${((v / busy) * 100).toFixed(1)}%`.padStart(6);
console.log(`${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s sampled; shares of busy time\n`);
console.log('self time by function');
for (const [n, v] of [...fns]
  .filter(([k]) => !k.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${pct(v)}  ${n}`);
console.log('\nself time by source');
for (const [n, v] of [...sources].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${n}`);
