// Delivery workers: claim due deliveries and POST them.
import type { Background, BackgroundContext } from '../background.js';

export async function startDeliveryWorker(_ctx: BackgroundContext): Promise<Background> {
  return { name: 'delivery-worker', stop: async () => undefined };
}
