/** The outbound address guard: which addresses count as non-public, the connect-time lookup, and the subscription-time URL check. */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { blockedRange, checkWebhookUrl, guardedLookup, UnsafeAddressError, UnsafeUrlError } from '../../server/net/address-guard.js';

describe('blockedRange', () => {
  it.each([
    // IPv4, edges of every range included
    ['0.0.0.0', 'this network'],
    ['0.255.255.255', 'this network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.254', 'shared address space (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.53.0.1', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.99', 'documentation'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0db8:ffff::1', 'documentation'],
    ['fd00:ec2::254', 'unique local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['100::1', 'discard-only'],
    ['::7f00:1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use'],
    ['fbff::1', 'reserved (outside 2000::/3)'],
    ['4000::1', 'reserved (outside 2000::/3)'],
    // IPv6 carrying an IPv4 address: judged by the IPv4 address
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local (cloud metadata)'],
    ['::ffff:a00:1', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped private'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local (cloud metadata)'],
    ['64:ff9b::', 'NAT64 this network'],
  ])('%s is in the %s range', (ip, range) => {
    expect(blockedRange(ip)).toBe(range);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '2001:db9::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::1.1.1.1',
    '64:ff9b::101:101',
  ])('%s is public', (ip) => {
    expect(blockedRange(ip)).toBeUndefined();
  });

  it('counts anything that is not an IP address as blocked', () => {
    expect(blockedRange('localhost')).toBe('not an IP address');
    expect(blockedRange('127.1')).toBe('not an IP address');
    expect(blockedRange('')).toBe('not an IP address');
  });
});

type LookupOutcome = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined };

function lookup(allowPrivate: boolean, hostname: string, options: { all?: boolean; family?: number }): Promise<LookupOutcome> {
  return new Promise((resolve) => guardedLookup(allowPrivate)(hostname, options, (err, address, family) => resolve({ err, address, family })));
}

describe('guardedLookup', () => {
  it('refuses localhost, in the single-address form', async () => {
    const { err } = await lookup(false, 'localhost', {});
    expect(err).toBeInstanceOf(UnsafeAddressError);
    expect(err?.code).toBe('EUNSAFEADDRESS');
    expect(err?.message).toMatch(/^blocked address (127\.0\.0\.1|::1) \(loopback\) resolved from localhost$/);
  });

  it('refuses localhost, in the all-addresses form net uses with autoSelectFamily', async () => {
    const { err } = await lookup(false, 'localhost', { all: true });
    expect(err).toBeInstanceOf(UnsafeAddressError);
    expect((err as UnsafeAddressError).hostname).toBe('localhost');
    expect((err as UnsafeAddressError).range).toBe('loopback');
  });

  it('passes localhost through when private addresses are allowed', async () => {
    const single = await lookup(true, 'localhost', { family: 4 });
    expect(single).toEqual({ err: null, address: '127.0.0.1', family: 4 });
    const all = await lookup(true, 'localhost', { all: true, family: 4 });
    expect(all.err).toBeNull();
    expect(all.address).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('passes a public address through in both forms', async () => {
    expect(await lookup(false, '8.8.8.8', {})).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    const all = await lookup(false, '2606:4700:4700::1111', { all: true });
    expect(all).toEqual({ err: null, address: [{ address: '2606:4700:4700::1111', family: 6 }], family: undefined });
  });

  it('refuses a blocked address given as the host name', async () => {
    const { err } = await lookup(false, '::ffff:169.254.169.254', {});
    expect(err?.message).toBe('blocked address ::ffff:169.254.169.254 (IPv4-mapped link-local (cloud metadata))');
  });

  it('passes resolver errors through', async () => {
    const { err } = await lookup(false, 'nothing-here.invalid', {});
    expect(err).not.toBeInstanceOf(UnsafeAddressError);
    expect(err?.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
  });
});

async function urlRejection(url: string, options: Parameters<typeof checkWebhookUrl>[1]): Promise<string> {
  const err = await checkWebhookUrl(url, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnsafeUrlError);
  return (err as UnsafeUrlError).message;
}

/** A resolver answering from a fixed table, for names that would need public DNS. */
const resolveFrom = (table: Record<string, string[]>) => async (hostname: string) =>
  (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('checkWebhookUrl', () => {
  const publicOnly = { allowPrivate: false };

  it('refuses what is not an absolute URL', async () => {
    expect(await urlRejection('hooks.example.com/parlance', publicOnly)).toBe(
      "Invalid webhook URL 'hooks.example.com/parlance': expected an absolute URL such as 'https://example.com/hooks/parlance'",
    );
  });

  it.each(['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://example.com/hook'])('refuses the scheme of %s', async (url) => {
    expect(await urlRejection(url, { allowPrivate: true })).toMatch(/^Webhook URL scheme '\w+' is not supported: expected http or https$/);
  });

  it('refuses credentials without repeating them', async () => {
    const message = await urlRejection('https://deploy:s3cr3t@hooks.example.com/parlance', { allowPrivate: true });
    expect(message).toBe('Webhook URL for host hooks.example.com must not contain credentials (user:password@); receivers verify the webhook-signature header instead');
    expect(message).not.toContain('s3cr3t');
    expect(await urlRejection('https://token@hooks.example.com/', { allowPrivate: true })).toMatch(/must not contain credentials/);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'link-local (cloud metadata)'],
    ['http://[::1]/hook', '::1', 'loopback'],
    ['http://[::ffff:10.0.0.5]/hook', '::ffff:a00:5', 'IPv4-mapped private'],
    ['http://0x7f.1/hook', '127.0.0.1', 'loopback'],
    ['http://2130706433/hook', '127.0.0.1', 'loopback'],
    ['http://017700000001/hook', '127.0.0.1', 'loopback'],
    ['https://[fd00::1]/hook', 'fd00::1', 'unique local'],
  ])('refuses %s as a literal %s', async (url, host, range) => {
    expect(await urlRejection(url, publicOnly)).toBe(`Webhook URL host ${host} is in the ${range} range; webhooks are delivered to public addresses only`);
  });

  it('accepts literal private addresses when they are allowed, and public ones always', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:8080/hook', { allowPrivate: true })).resolves.toBeUndefined();
    await expect(checkWebhookUrl('https://8.8.8.8/hook', publicOnly)).resolves.toBeUndefined();
    await expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hook', publicOnly)).resolves.toBeUndefined();
  });

  it('refuses a name that resolves to loopback (system resolver)', async () => {
    expect(await urlRejection('http://localhost:3000/hook', publicOnly)).toMatch(
      /^Webhook URL host localhost resolves to (127\.0\.0\.1|::1), in the loopback range; webhooks are delivered to public addresses only$/,
    );
    await expect(checkWebhookUrl('http://localhost:3000/hook', { allowPrivate: true })).resolves.toBeUndefined();
  });

  it('refuses a name with one blocked address among public ones', async () => {
    const resolve = resolveFrom({ 'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '10.0.0.7'] });
    expect(await urlRejection('https://hooks.example.com/parlance', { allowPrivate: false, resolve })).toBe(
      'Webhook URL host hooks.example.com resolves to 10.0.0.7, in the private range; webhooks are delivered to public addresses only',
    );
  });

  it('accepts a name that resolves to public addresses only', async () => {
    const resolve = resolveFrom({ 'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    await expect(checkWebhookUrl('https://hooks.example.com/parlance', { allowPrivate: false, resolve })).resolves.toBeUndefined();
  });

  it('refuses a name that does not resolve, even when private addresses are allowed', async () => {
    expect(await urlRejection('https://nothing-here.invalid/hook', { allowPrivate: true })).toMatch(
      /^Webhook URL host nothing-here\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
    const resolve = resolveFrom({});
    expect(await urlRejection('https://empty.example.com/hook', { allowPrivate: false, resolve })).toBe('Webhook URL host empty.example.com does not resolve (no addresses)');
  });
});
