// The address guard for subscriber URLs (SSRF). A subscriber URL must not reach anything inside our
// network: literal addresses and every address a name resolves to must be public unicast. The same
// check runs twice: when a subscription is created (a clear 400) and at connect time inside the
// outbound Agent's lookup, on every dial, so a name that re-binds to a private address after
// validation is still refused. Node skips `lookup` for IP literals, so those are checked explicitly.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const BLOCKED_NAMES = [
  /^localhost\.?$/i,
  /\.localhost\.?$/i,
  /^metadata\.google\.internal\.?$/i,
  /\.internal\.?$/i,
  /\.local\.?$/i,
];

/** IPv6 global unicast: the only IPv6 block a subscriber may be in. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (deprecated by RFC 4291): [::127.0.0.1] is stored as [::7f00:1]. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why an address is refused, or undefined for a public unicast address. ipaddr.js classifies every
 * special-purpose block (loopback, private, link-local incl. 169.254.169.254, CGNAT, 0/8, 198.18/15,
 * multicast, reserved, unique-local); only plain `unicast` passes. IPv4-mapped IPv6 is judged by
 * its IPv4 address; every other form that embeds an IPv4 address is refused outright: NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48), 6to4, Teredo, SIIT (::ffff:0:0:0/96) and IPv4-compatible ::/96,
 * which ipaddr.js calls plain unicast. IPv6 is allowed inside global unicast 2000::/3 only, so a
 * block ipaddr.js does not know of outside it cannot slip through either.
 */
export function blockedAddressReason(address: string): string | undefined {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    // ipaddr.js reads any `::a.b.c.d` as IPv4-mapped (::ffff:a.b.c.d), but ::127.0.0.1 is the
    // IPv4-compatible ::7f00:1: let the WHATWG URL parser write IPv6 with a dotted tail canonically.
    if (text.includes(':') && text.includes('.')) text = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    addr = ipaddr.parse(text);
  } catch {
    return 'is not an IP address';
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = blockedAddressReason((addr as ipaddr.IPv6).toIPv4Address().toString());
    return inner ? `is an IPv4-mapped address that ${inner.replace(/^is /, 'is ')}` : undefined;
  }
  const range = addr.range();
  if (range !== 'unicast') return `is a ${range} address`;
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE)) return 'is an IPv4-compatible address (::/96)';
    if (!v6.match(GLOBAL_UNICAST_V6)) return 'is outside IPv6 global unicast (2000::/3)';
  }
  return undefined;
}

/**
 * Webhook port policy: the scheme's default, 80, 443 or an unprivileged port (1024 and up). Ports
 * below 1024 belong to system services (SSH 22, SMTP 25, DNS 53, LDAP 389, ...) that a subscriber URL
 * has no business reaching, even on a public host. Allow-listed hosts are exempt.
 */
export function blockedPortReason(url: URL): string | undefined {
  if (url.port === '') return undefined;
  const port = Number(url.port);
  if (port === 80 || port === 443 || port >= 1024) return undefined;
  return `webhook_url port ${port} is not allowed; use 443, 80 or a port from 1024 up.`;
}

export function isBlockedName(host: string): boolean {
  return BLOCKED_NAMES.some((re) => re.test(host));
}

/** host or host:port forms of the operator allow-list (WEBHOOK_ALLOWED_HOSTS). */
export function isAllowedHost(url: URL, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return false;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((a) => {
    const entry = a.toLowerCase();
    return entry === host || entry === `${host}:${port}` || entry === `[${host.replace(/^\[|\]$/g, '')}]:${port}`;
  });
}

export class GuardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuardError';
  }
}

/** Checks a subscriber URL as a whole; throws GuardError with a message fit for a 400. */
export async function checkWebhookUrl(
  raw: unknown,
  allowed: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<URL> {
  if (typeof raw !== 'string' || raw.length === 0)
    throw new GuardError('webhook_url is required and must be a string.');
  if (raw.length > 2048) throw new GuardError('webhook_url may be at most 2048 characters.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GuardError('webhook_url is not a valid absolute URL.');
  }
  if (url.username || url.password) throw new GuardError('webhook_url must not contain credentials.');
  const allowedHost = isAllowedHost(url, allowed);
  if (url.protocol !== 'https:' && !(allowedHost && url.protocol === 'http:'))
    throw new GuardError('webhook_url must use https://.');
  if (url.hash) throw new GuardError('webhook_url must not contain a fragment.');
  if (allowedHost) return url;
  const badPort = blockedPortReason(url);
  if (badPort) throw new GuardError(badPort);
  await checkHost(url.hostname, resolve);
  return url;
}

/** Refuses a host that is, or resolves to, a non-public address. */
export async function checkHost(hostname: string, resolve: Resolver = systemResolver): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const why = blockedAddressReason(host);
    if (why) throw new GuardError(`webhook_url host ${host} ${why}; internal and private addresses are not allowed.`);
    return [host];
  }
  if (isBlockedName(host))
    throw new GuardError(`webhook_url host ${host} is an internal name; internal and private hosts are not allowed.`);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new GuardError(`webhook_url host ${host} does not resolve.`);
  }
  if (addresses.length === 0) throw new GuardError(`webhook_url host ${host} does not resolve.`);
  for (const a of addresses) {
    const why = blockedAddressReason(a);
    if (why)
      throw new GuardError(
        `webhook_url host ${host} resolves to ${a}, which ${why}; internal and private addresses are not allowed.`,
      );
  }
  return addresses;
}

/**
 * A `lookup` for net/tls.connect that resolves every address and refuses the dial when any of
 * them is blocked (mixed public/private answers are a rebinding sign). Hosts on the allow-list
 * pass unchecked.
 */
export function guardedLookup(allowed: readonly string[], resolve: Resolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    const allowedHost = allowed.some((a) => a.toLowerCase().replace(/:\d+$/, '') === hostname.toLowerCase());
    const check = allowedHost ? resolve(hostname) : checkHost(hostname, resolve);
    check.then(
      (addresses) => {
        const list = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
        if (options?.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (err: Error) => {
        const e = Object.assign(new Error(err.message), { code: 'EBLOCKED' }) as NodeJS.ErrnoException;
        callback(e, '', 0);
      },
    );
  };
}
