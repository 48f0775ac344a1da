// Tests that run the service (or a part of it) in a child process run dist/: rebuild it when any
// source file is newer than the build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function ensureBuilt(): void {
  const built = path.join(root, 'dist/cli.js');
  const newest = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = path.join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);
  if (!existsSync(built) || newest(path.join(root, 'src')) > statSync(built).mtimeMs) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
}
