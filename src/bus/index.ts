// Chooses the bus: NATS when NATS_URL is set, in-process otherwise.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { MemoryBus } from './memory.js';
import type { Bus, BusMessage } from './types.js';

export async function createBus<E extends BusMessage = BusMessage>(
  config: Config,
  log: Logger,
  opts: { namespace?: string } = {},
): Promise<Bus<E>> {
  if (config.natsUrl) {
    const { NatsBus } = await import('./nats.js');
    return NatsBus.connect<E>(config.natsUrl, log, opts);
  }
  return new MemoryBus<E>();
}
