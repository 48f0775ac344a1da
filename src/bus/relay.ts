// The relay: change log -> public order -> bus.
import type { Background, BackgroundContext } from '../background.js';

export async function startRelay(_ctx: BackgroundContext): Promise<Background> {
  return { name: 'relay', stop: async () => undefined };
}
