// The dispatcher: changes -> delivery rows.
import type { Background, BackgroundContext } from '../background.js';

export async function startDispatcher(_ctx: BackgroundContext): Promise<Background> {
  return { name: 'dispatcher', stop: async () => undefined };
}
