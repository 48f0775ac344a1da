// Push-mirror deliveries: rendered in LegiScan's Push wire format (see wire.ts).
import type { KindHandler } from '../webhooks/deliver.js';

export const mirrorHandler: KindHandler = {
  async render(_db, d) {
    return { body: JSON.stringify(d.payload) };
  },
  judge(res) {
    return res.error ?? (res.status !== null && res.status >= 200 && res.status < 300 ? undefined : `HTTP ${res.status}`);
  },
};
