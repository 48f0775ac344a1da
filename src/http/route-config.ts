// What a route declares about itself (its `config`) and what the auth hook attaches to a request:
// the types every plugin that reads them shares.
import type { KeyLookup } from '../keys/store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** reachable without an API key */
    public?: boolean;
    /** a probe (liveness, readiness): X-API-Key is never read, so it is never checked, counted or limited */
    probe?: boolean;
    /** query parameters for which an empty value is meaningful (every other empty one is 400) */
    emptyParams?: readonly string[];
  }
  interface FastifyRequest {
    /** the authenticated API key (set by the auth hook; absent on public routes called without a key) */
    apiKey?: KeyLookup;
  }
}
