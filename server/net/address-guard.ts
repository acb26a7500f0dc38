/**
 * Keeps every request to an address a user supplied (webhooks, connectors, import base URLs, storage endpoints) off
 * loopback, private, link-local (cloud metadata) and other non-public addresses: when the setting is saved, and again on
 * the socket's own lookup at connect time, unless the operator allows them (OUTBOUND_ALLOW_PRIVATE_ADDRESSES).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

type Range = readonly [network: string, prefix: number, name: string];

const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
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

/** The operator's setting that lets requests reach non-public addresses, as the messages name it. */
export const ALLOW_PRIVATE_SETTING = 'OUTBOUND_ALLOW_PRIVATE_ADDRESSES';

/**
 * Which non-public addresses the operator allows: all of them (`true`), none (`false`, the default), or those in listed
 * networks (`10.0.0.0/8`, `fd00::/8`, `192.168.1.20`) and those any listed host name resolves to (`minio.internal`,
 * `*.corp.example` for every name under it).
 */
export interface AllowPrivate {
  readonly all: boolean;
  readonly networks: BlockList;
  readonly hosts: ReadonlySet<string>;
  /** From `*.corp.example`: `.corp.example`. */
  readonly suffixes: readonly string[];
}

export const PUBLIC_ONLY: AllowPrivate = { all: false, networks: new BlockList(), hosts: new Set(), suffixes: [] };
export const ANY_ADDRESS: AllowPrivate = { all: true, networks: new BlockList(), hosts: new Set(), suffixes: [] };

const HOST_NAME = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** Parses the setting; throws an Error naming the entry that is neither a network, an address nor a host name. */
export function parseAllowPrivate(text: string): AllowPrivate {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'true') return ANY_ADDRESS;
  if (trimmed === 'false' || trimmed === '') return PUBLIC_ONLY;
  const networks = new BlockList();
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of trimmed.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const [address = '', prefixText, extra] = entry.replace(/^\[(.*)\]$/, '$1').split('/');
    const family = isIP(address);
    if (family !== 0 && extra === undefined) {
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
        throw new Error(`'${entry}' has no valid prefix length: expected ${address}/0 to ${address}/${max}`);
      }
      networks.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (prefixText === undefined && HOST_NAME.test(entry)) {
      if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
      else hosts.add(entry);
    } else {
      throw new Error(`'${entry}' is not a network, an address or a host name: expected 'true', 'false' or a comma-separated list such as '10.0.0.0/8,minio.internal'`);
    }
  }
  return { all: false, networks, hosts, suffixes };
}

/** Whether the operator allows `address`, which `hostname` resolved to (or which is the literal host), though it is not public. */
function allowedPrivate(allow: AllowPrivate, hostname: string, address: string): boolean {
  if (allow.all) return true;
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (allow.hosts.has(name) || allow.suffixes.some((suffix) => name.endsWith(suffix))) return true;
  const family = isIP(address);
  return family !== 0 && allow.networks.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A connection refused because the host is, or resolved to, a non-public address; `code` lets callers tell it from network errors. */
export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
  /** Nothing was sent: retrying the same address cannot succeed. */
  readonly permanent = true;
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`blocked address ${address} (${range})${hostname === address ? '' : ` resolved from ${hostname}`}`);
    this.name = 'UnsafeAddressError';
  }
}

/** The first resolved address in a blocked range the operator does not allow, as an error; one bad address taints the name, since the client may pick any of them. */
function unsafeAmong(hostname: string, addresses: readonly LookupAddress[], allow: AllowPrivate = PUBLIC_ONLY): UnsafeAddressError | undefined {
  for (const { address } of addresses) {
    const range = blockedRange(address);
    if (range !== undefined && !allowedPrivate(allow, hostname, address)) return new UnsafeAddressError(hostname, address, range);
  }
  return undefined;
}

/** The host of a URL or a socket's options without IPv6 brackets or a zone. */
const bareHost = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** A literal IP host refused by the policy (a literal never passes through `lookup`, so connectors check it here), or undefined. */
export function literalRefusal(host: string, allow: AllowPrivate): UnsafeAddressError | undefined {
  const bare = bareHost(host);
  if (isIP(bare) === 0) return undefined;
  const range = blockedRange(bare);
  return range !== undefined && !allowedPrivate(allow, bare, bare) ? new UnsafeAddressError(bare, bare, range) : undefined;
}

const asPolicy = (allow: AllowPrivate | boolean): AllowPrivate => (allow === true ? ANY_ADDRESS : allow === false ? PUBLIC_ONLY : allow);

/** The system resolver's `lookup` with `all: true`, or a test's stand-in with the same shape. */
export type Resolver = (hostname: string, options: { all: true; family?: number }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for sockets that refuses non-public addresses. Checking the addresses the socket connects to, rather than
 * the URL beforehand, is what stops a name that re-binds to 127.0.0.1 between the check and the connection.
 */
export function guardedLookup(allowPrivate: AllowPrivate | boolean, resolver: Resolver = systemResolver): LookupFunction {
  const allow = asPolicy(allowPrivate);
  if (allow.all && resolver === systemResolver) return dnsLookup as LookupFunction;
  return function lookupPublic(hostname, options, callback) {
    resolver(hostname, { family: options.family as number | undefined, all: true } as { all: true; family?: number }, (err, addresses) => {
      if (err) return callback(err, []);
      const unsafe = unsafeAmong(hostname, addresses, allow);
      if (unsafe) return callback(unsafe, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** A URL refused when a setting is saved: not http(s), credentials in it, or a host that is or resolves to a refused address. */
export class UnsafeUrlError extends Error {
  constructor(
    message: string,
    /** The non-public range the host lies in, when that is the reason. */
    readonly range?: string,
  ) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export interface CheckUrlOptions {
  allowPrivate: AllowPrivate | boolean;
  /** Resolves a host name to all its addresses; defaults to the system resolver, as used at connect time. */
  resolve?: (hostname: string) => Promise<readonly LookupAddress[]>;
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** The resolver as a promise, for checks when a setting is saved. */
export const resolveWith = (resolver: Resolver) => (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => resolver(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export interface CheckDestinationOptions extends CheckUrlOptions {
  /** What the URL is, starting a sentence: "Webhook URL", "The S3 endpoint". */
  label: string;
  /** What follows the range in a refusal: "webhooks are delivered to public addresses only". */
  publicOnly: string;
  /** A host that does not resolve is refused too (webhooks); otherwise only an address that resolves into a refused range is. */
  mustResolve: boolean;
}

/** Throws {@link UnsafeUrlError} unless `url` is http(s) without credentials and its host is, or resolves only to, allowed addresses. */
export async function checkDestination(url: string, options: CheckDestinationOptions): Promise<URL> {
  const { label } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeUrlError(`Invalid ${label.replace(/^The /, '')} '${url.slice(0, 200)}': expected an absolute URL such as 'https://example.com/'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UnsafeUrlError(`${label} scheme '${parsed.protocol.slice(0, -1)}' is not supported: expected http or https`);
  }
  const allow = asPolicy(options.allowPrivate);
  // The URL parser has already turned 0x7f.1, 2130706433 and 0177.0.0.1 into dotted decimal; IPv6 hosts keep their brackets.
  const host = bareHost(parsed.hostname);
  if (isIP(host)) {
    const refused = literalRefusal(host, allow);
    if (refused) throw new UnsafeUrlError(`${label} host ${host} is in the ${refused.range} range; ${options.publicOnly}`, refused.range);
    return parsed;
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await (options.resolve ?? resolveAll)(host);
  } catch (err) {
    if (!options.mustResolve) return parsed;
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new UnsafeUrlError(`${label} host ${host} does not resolve (${code})`);
  }
  if (addresses.length === 0) {
    if (!options.mustResolve) return parsed;
    throw new UnsafeUrlError(`${label} host ${host} does not resolve (no addresses)`);
  }
  const unsafe = unsafeAmong(host, addresses, allow);
  if (unsafe) throw new UnsafeUrlError(`${label} host ${host} resolves to ${unsafe.address}, in the ${unsafe.range} range; ${options.publicOnly}`, unsafe.range);
  return parsed;
}

/** A webhook URL: also refused with credentials in it (receivers verify the signature) or when its host does not resolve. */
export async function checkWebhookUrl(url: string, options: CheckUrlOptions): Promise<void> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeUrlError(`Invalid webhook URL '${url}': expected an absolute URL such as 'https://example.com/hooks/parlance'`);
  }
  // The user part is often a token, so the message names the host, not the credentials.
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && (parsed.username !== '' || parsed.password !== '')) {
    throw new UnsafeUrlError(`Webhook URL for host ${parsed.hostname} must not contain credentials (user:password@); receivers verify the webhook-signature header instead`);
  }
  await checkDestination(url, { ...options, label: 'Webhook URL', publicOnly: 'webhooks are delivered to public addresses only', mustResolve: true });
}
