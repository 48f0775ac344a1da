// Test files in the order they are started: the longest first, so that none of them starts late
// and runs alone at the end. Vitest orders by the durations it cached from earlier runs; a clean
// checkout (CI, a new contributor) has none, and vitest then starts the largest files first, which
// left the README walkthrough (about 3 minutes, one small file) to start two thirds of the way
// through `npm test` and finish a minute and a half after every other file.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that take longest, longest first (a run's JSON report has every file's duration). */
const LONGEST = [
  'test/bulk/readme.test.ts',
  'test/bulk/sync.test.ts',
  'test/bulk/consistency.test.ts',
  'test/mirror/legiscan-schema.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONGEST.length : i;
    };
    // the rest keep vitest's order (cached durations, else size)
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
