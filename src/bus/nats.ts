// NATS bus (core subjects for fan-out, JetStream for durable consumers).
import type { Logger } from '../logger.js';
import type { Bus } from './types.js';

export const NatsBus = {
  async connect(_url: string, _log: Logger): Promise<Bus> {
    throw new Error('the NATS bus is not available in this build');
  },
};
