// The subscription kinds this service delivers: plain webhooks (built into the delivery core) and
// the push-mirror. Both process roots take them from here (server.ts for the dispatcher, the worker
// and the app's test sends; the tests' harness likewise), so no process runs with a kind missing
// and the delivery core never imports a kind.
import { DeliveryKinds } from './webhooks/kit.js';
import { mirrorHandler } from './mirror/handler.js';

export function deliveryKinds(): DeliveryKinds {
  return new DeliveryKinds({ push_mirror: mirrorHandler });
}
