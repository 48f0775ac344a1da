// Tests that run the service (or a part of it) in a child process run dist/: rebuild it when any
// source file is newer than the build. Test files run in parallel, and a build rewrites dist/
// under the feet of any child process starting meanwhile, so one build at a time (a lock
// directory), and a file that finds the build fresh after waiting builds nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const LOCK = path.join(root, 'data/.dist-build-lock');
// A lock older than this was left by a run that died while building.
const STALE_LOCK_MS = 300_000;

function fresh(): boolean {
  const built = path.join(root, 'dist/cli.js');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }, 0);
  return existsSync(built) && newest(path.join(root, 'src')) <= statSync(built).mtimeMs;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function ensureBuilt(): void {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    if (fresh()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      // another test file is building: wait for it, then look again
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > STALE_LOCK_MS)
        rmSync(LOCK, { recursive: true, force: true });
      sleep(200);
      continue;
    }
    try {
      if (!fresh()) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
    return;
  }
}
