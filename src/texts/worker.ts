// Text diff worker: computes text changes for consecutive versions.
import type { Background, BackgroundContext } from '../background.js';

export async function startDiffWorker(_ctx: BackgroundContext): Promise<Background> {
  return { name: 'diff-worker', stop: async () => undefined };
}
