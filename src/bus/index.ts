// Chooses the bus: NATS when NATS_URL is set, in-process otherwise.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { MemoryBus } from './memory.js';
import type { Bus } from './types.js';

export async function createBus(config: Config, log: Logger, opts: { namespace?: string } = {}): Promise<Bus> {
  if (config.natsUrl) {
    const { NatsBus } = await import('./nats.js');
    return NatsBus.connect(config.natsUrl, log, opts);
  }
  return new MemoryBus();
}
