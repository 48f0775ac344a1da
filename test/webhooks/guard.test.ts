// The address guard on its own: classification, names that resolve inside, and the connect-time
// check in the outbound Agent (a name that re-binds to a private address after validation).
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blockedAddressReason, checkWebhookUrl, GuardError, type Resolver } from '../../src/webhooks/delivery/guard.js';
import { Outbound } from '../../src/webhooks/delivery/outbound.js';
import { startReceiver } from './helpers.js';
import { testApp, type TestApp } from '../helpers/app.js';

const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    if (!table[host]) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return table[host];
  };

describe('blockedAddressReason', () => {
  const blocked = [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '198.18.0.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.0.8',
    '::',
    '::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001::1',
  ];
  for (const a of blocked) it(`blocks ${a}`, () => expect(blockedAddressReason(a)).toBeDefined());
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
    it(`allows ${a}`, () => expect(blockedAddressReason(a)).toBeUndefined());

  // Every IPv6 form that embeds an IPv4 address, public or not, in either notation.
  const embedding = [
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::808:808',
    '::a00:1',
    '::0.0.0.2',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::a00:1',
    '::ffff:0:7f00:1',
    '2002:808:808::1',
    '2001:0:4136:e378::1',
  ];
  for (const a of embedding)
    it(`blocks the IPv4-embedding form ${a}`, () => expect(blockedAddressReason(a)).toBeDefined());
  for (const a of ['100::1', '3fff::1', '4000::1', 'e000::1'])
    it(`blocks ${a} (outside 2000::/3)`, () => expect(blockedAddressReason(a)).toBeDefined());
  it('names the IPv4-compatible block', () => expect(blockedAddressReason('[::7f00:1]')).toMatch(/IPv4-compatible/));

  it('never allows an address inside 10/8, 127/8 or 169.254/16, in any notation', () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 127, 169), fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c, d) => {
        const ip = `${a}.${a === 169 ? 254 : b}.${c}.${d}`;
        expect(blockedAddressReason(ip)).toBeDefined();
        expect(blockedAddressReason(`::ffff:${ip}`)).toBeDefined();
        expect(blockedAddressReason(`::${ip}`)).toBeDefined();
        expect(blockedAddressReason(new URL(`https://[::${ip}]/`).hostname)).toBeDefined();
      }),
    );
  });
});

describe('checkWebhookUrl', () => {
  const dns = fakeDns({
    'public.example': ['93.184.216.34'],
    'inside.example': ['127.0.0.1'],
    'meta.example': ['169.254.169.254'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'v6.example': ['::ffff:127.0.0.1'],
  });
  it('accepts a public name', async () => {
    await expect(checkWebhookUrl('https://public.example/hook', [], dns)).resolves.toBeInstanceOf(URL);
  });
  for (const host of [
    'inside.example',
    'meta.example',
    'mixed.example',
    'v6.example',
    'localhost',
    'nowhere.example',
  ]) {
    it(`refuses a name resolving inside (or not at all): ${host}`, async () => {
      await expect(checkWebhookUrl(`https://${host}/hook`, [], dns)).rejects.toBeInstanceOf(GuardError);
    });
  }
  for (const url of [
    'https://[::127.0.0.1]/h',
    'https://[::7f00:1]/h',
    'https://[::8.8.8.8]/h',
    'https://[64:ff9b:1::a00:1]/h',
  ]) {
    it(`refuses the IPv4-embedding literal ${url}`, async () => {
      await expect(checkWebhookUrl(url, [], dns)).rejects.toThrow(/not allowed/);
    });
  }

  it('port policy: the default, 80, 443 and 1024 up pass; other ports below 1024 are refused', async () => {
    for (const url of [
      'https://public.example/h',
      'https://public.example:443/h',
      'https://public.example:80/h',
      'https://public.example:1024/h',
      'https://public.example:8443/h',
      'https://public.example:65535/h',
    ]) {
      await expect(checkWebhookUrl(url, [], dns), url).resolves.toBeInstanceOf(URL);
    }
    for (const port of [1, 22, 25, 53, 81, 389, 442, 444, 1023]) {
      await expect(checkWebhookUrl(`https://public.example:${port}/h`, [], dns), String(port)).rejects.toThrow(
        new RegExp(`port ${port} is not allowed`),
      );
    }
    // Operator allow-listed hosts are exempt (a local receiver on any port).
    await expect(checkWebhookUrl('http://inside.example:25/x', ['inside.example'], dns)).resolves.toBeInstanceOf(URL);
  });

  it('lets allow-listed hosts through, plain http included, with or without port', async () => {
    await expect(checkWebhookUrl('http://inside.example:8080/x', ['inside.example'], dns)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://127.0.0.1:8080/x', ['127.0.0.1:8080'], dns)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://127.0.0.1:8081/x', ['127.0.0.1:8080'], dns)).rejects.toBeInstanceOf(
      GuardError,
    );
  });
});

describe('subscription endpoints refuse IPv4-embedding literals and privileged ports', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  for (const path of ['/v1/webhooks', '/v1/push-mirror']) {
    it(`POST ${path}: 400 naming webhook_url`, async () => {
      t ??= await testApp({ config: { webhookAllowedHosts: [] } });
      for (const url of [
        'https://[::127.0.0.1]/h',
        'https://[::169.254.169.254]/h',
        'https://[::8.8.8.8]/h',
        'https://8.8.8.8:22/h',
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { 'x-api-key': t.key },
          payload: { webhook_url: url, events: ['passed'] },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error, url).toMatchObject({ code: 'bad_request', field: 'webhook_url' });
      }
    });
  }
});

describe('outbound connect-time guard', () => {
  const outbounds: Outbound[] = [];
  afterAll(async () => {
    for (const o of outbounds) await o.close();
  });

  it('refuses to connect when the name now resolves to a private address (DNS rebinding)', async () => {
    const r = await startReceiver();
    // validation saw a public address; at connect time the same name points at loopback
    let answer = ['93.184.216.34'];
    const o = new Outbound({ allowedHosts: [], timeoutMs: 2000, resolver: async () => answer });
    outbounds.push(o);
    await expect(checkWebhookUrl('https://rebind.example/hook', [], async () => answer)).resolves.toBeInstanceOf(URL);
    answer = ['127.0.0.1'];
    const res = await o.post(`https://rebind.example:${r.port}/hook`, {}, '{}');
    expect(res.blocked).toBe(true);
    expect(res.status).toBeNull();
    expect(r.received).toHaveLength(0);
    await r.close();
  });

  it('checks IP literals explicitly (lookup is not called for them)', async () => {
    const r = await startReceiver();
    const o = new Outbound({ allowedHosts: [], timeoutMs: 2000 });
    outbounds.push(o);
    for (const url of [
      `https://127.0.0.1:${r.port}/`,
      `https://[::ffff:127.0.0.1]:${r.port}/`,
      'https://169.254.169.254/latest',
      `http://127.0.0.1:${r.port}/`,
    ]) {
      const res = await o.post(url, {}, '{}');
      expect(res.blocked, url).toBe(true);
    }
    expect(r.received).toHaveLength(0);
    await r.close();
  });

  it('refuses a privileged port at send time, before any lookup (a URL stored before the port policy)', async () => {
    const looked: string[] = [];
    const o = new Outbound({
      allowedHosts: [],
      timeoutMs: 2000,
      resolver: async (h) => (looked.push(h), ['93.184.216.34']),
    });
    outbounds.push(o);
    for (const url of [
      'https://mail.example:25/hook',
      'https://ssh.example:22/',
      'https://[2606:4700:4700::1111]:135/',
    ]) {
      const res = await o.post(url, {}, '{}');
      expect(res.blocked, url).toBe(true);
      expect(res.error, url).toMatch(/^refused: webhook_url port \d+ is not allowed/);
    }
    expect(looked).toEqual([]);
  });

  it('reads at most 64 KB of a response', async () => {
    const r = await startReceiver(() => ({ status: 200, body: 'x'.repeat(1024 * 1024) }));
    const o = new Outbound({ allowedHosts: ['127.0.0.1'], timeoutMs: 2000 });
    outbounds.push(o);
    const res = await o.post(r.url, {}, '{}');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(64 * 1024);
    await r.close();
  });

  it('times out a receiver that never answers', async () => {
    const r = await startReceiver(() => ({ status: 200, hang: true }));
    const o = new Outbound({ allowedHosts: ['127.0.0.1'], timeoutMs: 300 });
    outbounds.push(o);
    const res = await o.post(r.url, {}, '{}');
    expect(res.status).toBeNull();
    expect(res.error).toMatch(/timeout/);
    await r.close();
  });
});
