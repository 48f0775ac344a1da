// What a delivery kind may use of the webhook machinery: the one module of webhooks/ that mirror/
// (or any other kind) imports. The core keeps everything else to itself, and the layout test holds
// kinds to this surface.
export { DeliveryKinds, type KindHandler, type DispatchChange, type Rendered } from './delivery/kinds.js';
export { Outbound, type OutboundResult } from './delivery/outbound.js';
export { enqueueDeliveries, type NewDelivery } from './queue/enqueue.js';
export type { ClaimedDelivery } from './queue/claims.js';
export { createSubscription, publicSubscription } from './subscriptions.js';
export { SubscriptionSchema } from './routes/schemas.js';
export { validateSubscription, validateUrl } from './routes/validate.js';
export { callerKey } from './routes/key.js';
