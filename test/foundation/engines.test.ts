// `npm ci` on the Node versions the README promises prints no EBADENGINE: every package in the
// lock file (dependencies of dependencies too) admits the floor of our own engines field, and the
// 22 and 24 lines the Dockerfile and CI use. @nats-io/nuid 3 and cookie 2 want Node 22; the
// overrides in package.json pin versions with the same API that support Node 20.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { version?: string; engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }
  >;
};

describe('engines', () => {
  const floor = semver.minVersion(pkg.engines.node)!.version;

  it('our floor is a Node 20 release', () => {
    expect(floor.startsWith('20.')).toBe(true);
  });

  for (const node of [floor, '22.13.0', '24.0.0']) {
    it(`every locked package admits Node ${node}`, () => {
      const refused = Object.entries(lock.packages)
        .filter(([name, p]) => name !== '' && p.engines && !Array.isArray(p.engines) && p.engines.node)
        // platform-only optional binaries (wasm, other OSes) are skipped by npm on Linux x64 anyway
        .filter(([, p]) => !(p.optional && p.os && !p.os.includes('linux')))
        .filter(([, p]) => !semver.satisfies(node, (p.engines as { node: string }).node))
        .map(
          ([name, p]) =>
            `${name.replace(/^.*node_modules\//, '')}@${p.version} wants ${(p.engines as { node: string }).node}`,
        );
      expect(refused).toEqual([]);
    });
  }
});
