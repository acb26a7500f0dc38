/** Keeps webhook deliveries off loopback, private, link-local (cloud metadata) and other non-public addresses, at subscription time and again at connect time. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

type Range = readonly [network: string, prefix: number, name: string];

const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

// Order matters: the first match names the range, so exact addresses come before the prefixes that contain them.
const IPV6_RANGES: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::', 48, 'NAT64 local-use'],
  ['100::', 64, 'discard-only'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

/** IPv6 prefixes whose last 32 bits are an IPv4 address that the traffic actually reaches. */
const IPV4_CARRIERS: readonly Range[] = [
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64'],
];

function blockList([network, prefix]: Range, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
}

const ipv4Lists = IPV4_RANGES.map((range) => ({ name: range[2], list: blockList(range, 'ipv4') }));
const ipv6Lists = IPV6_RANGES.map((range) => ({ name: range[2], list: blockList(range, 'ipv6') }));
const carrierLists = IPV4_CARRIERS.map((range) => ({ name: range[2], list: blockList(range, 'ipv6') }));
// IANA has allocated global unicast from 2000::/3 only; the rest of the IPv6 space is reserved and reaches nothing public.
const globalUnicast = blockList(['2000::', 3, 'global unicast'], 'ipv6');

/** The IPv4 address in the last 32 bits of an IPv6 address, however it is written (`::ffff:7f00:1`, `::ffff:127.0.0.1`). */
function embeddedIpv4(ipv6: string): string {
  const text = ipv6.split('%')[0]!;
  const dotted = text.slice(text.lastIndexOf(':') + 1);
  if (dotted.includes('.')) return dotted;
  const [head = '', tail = ''] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  // Without `::` the left side already holds all eight groups and nothing is filled in.
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((group) => parseInt(group, 16));
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The name of the non-public range `ip` lies in, or undefined for a public address. Anything that is not an IP address counts as blocked. */
export function blockedRange(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return ipv4Lists.find(({ list }) => list.check(ip, 'ipv4'))?.name;
  if (family !== 6) return 'not an IP address';
  const carrier = carrierLists.find(({ list }) => list.check(ip, 'ipv6'));
  if (carrier) {
    const inner = blockedRange(embeddedIpv4(ip));
    return inner === undefined ? undefined : `${carrier.name} ${inner}`;
  }
  const named = ipv6Lists.find(({ list }) => list.check(ip, 'ipv6'))?.name;
  return named ?? (globalUnicast.check(ip, 'ipv6') ? undefined : 'reserved (outside 2000::/3)');
}

/** A connection refused because the host resolved to a non-public address; `code` lets callers tell it from network errors. */
export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`blocked address ${address} (${range})${hostname === address ? '' : ` resolved from ${hostname}`}`);
    this.name = 'UnsafeAddressError';
  }
}

/** The first resolved address in a blocked range, as an error; one bad address taints the name, since the client may pick any of them. */
function unsafeAmong(hostname: string, addresses: readonly LookupAddress[]): UnsafeAddressError | undefined {
  for (const { address } of addresses) {
    const range = blockedRange(address);
    if (range !== undefined) return new UnsafeAddressError(hostname, address, range);
  }
  return undefined;
}

/**
 * A `lookup` for `http.request` that refuses non-public addresses. Checking the addresses the socket connects to, rather than
 * the URL beforehand, is what stops a name that re-binds to 127.0.0.1 between the check and the connection.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  if (allowPrivate) return dnsLookup as LookupFunction;
  return function lookupPublic(hostname, options, callback) {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const unsafe = unsafeAmong(hostname, addresses);
      if (unsafe) return callback(unsafe, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** A webhook URL refused when a subscription is created or changed. */
export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export interface CheckUrlOptions {
  allowPrivate: boolean;
  /** Resolves a host name to all its addresses; defaults to the system resolver, as used at delivery time. */
  resolve?: (hostname: string) => Promise<readonly LookupAddress[]>;
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

const PUBLIC_ONLY = 'webhooks are delivered to public addresses only';

/** Throws {@link UnsafeUrlError} unless `url` is http(s) without credentials and its host is, or resolves only to, allowed addresses. */
export async function checkWebhookUrl(url: string, options: CheckUrlOptions): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeUrlError(`Invalid webhook URL '${url}': expected an absolute URL such as 'https://example.com/hooks/parlance'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UnsafeUrlError(`Webhook URL scheme '${parsed.protocol.slice(0, -1)}' is not supported: expected http or https`);
  }
  // The user part is often a token, so the message names the host, not the credentials.
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UnsafeUrlError(`Webhook URL for host ${parsed.hostname} must not contain credentials (user:password@); receivers verify the webhook-signature header instead`);
  }
  // The URL parser has already turned 0x7f.1, 2130706433 and friends into dotted decimal; IPv6 hosts keep their brackets.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const range = blockedRange(host);
    if (range !== undefined && !options.allowPrivate) throw new UnsafeUrlError(`Webhook URL host ${host} is in the ${range} range; ${PUBLIC_ONLY}`);
    return;
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await (options.resolve ?? resolveAll)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new UnsafeUrlError(`Webhook URL host ${host} does not resolve (${code})`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`Webhook URL host ${host} does not resolve (no addresses)`);
  if (options.allowPrivate) return;
  const unsafe = unsafeAmong(host, addresses);
  if (unsafe) throw new UnsafeUrlError(`Webhook URL host ${host} resolves to ${unsafe.address}, in the ${unsafe.range} range; ${PUBLIC_ONLY}`);
}
