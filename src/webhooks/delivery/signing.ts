// Standard Webhooks signing (https://www.standardwebhooks.com): the receiver verifies
// `webhook-signature` = "v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>" where key is the
// base64-decoded secret without its `whsec_` prefix. During a rotation overlap the header carries
// one signature per live secret, space-separated, so receivers holding either secret accept it.
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

// Decoded HMAC keys by secret: a worker signs thousands of deliveries per second for a few
// hundred subscriptions, and decoding the base64 secret each time is wasted work. Bounded: cleared
// when it grows past what any realistic set of live subscriptions needs.
const keys = new Map<string, KeyObject>();
const MAX_KEYS = 10_000;

function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = createSecretKey(
      Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64'),
    );
    keys.set(secret, key);
  }
  return key;
}

export function signature(secret: string, msgId: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', hmacKey(secret)).update(`${msgId}.${timestamp}.${body}`).digest('base64');
}

export function signatureHeader(secrets: readonly string[], msgId: string, timestamp: number, body: string): string {
  return secrets.map((s) => signature(s, msgId, timestamp, body)).join(' ');
}

export function signedHeaders(
  secrets: readonly string[],
  msgId: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const ts = Math.floor(now / 1000);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(ts),
    'webhook-signature': signatureHeader(secrets, msgId, ts, body),
  };
}
