/** Standard Webhooks signing (https://www.standardwebhooks.com/): secrets, the `webhook-*` headers we send, and the check a receiver runs. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UNIX_SECONDS = /^\d{1,15}$/;
const DEFAULT_TOLERANCE_SECONDS = 300;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A new signing secret: 24 random bytes, the size the `standardwebhooks` libraries generate. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key inside a secret; the prefix is optional, as in the reference library. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  // Buffer's base64 decoder skips invalid characters silently; a mangled secret must fail loudly instead of signing with a different key.
  // The message leaves the secret out: it would end up in logs.
  if (!BASE64.test(encoded)) throw new TypeError(`Invalid webhook secret: expected '${SECRET_PREFIX}' followed by base64`);
  return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256>` over `msgId.timestamp.body`. */
export function signature(secret: string, msgId: string, timestamp: number, body: string): string {
  // Receivers re-sign the header's integer text; a fractional timestamp would sign content no receiver reproduces.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`Webhook timestamp must be whole unix seconds, got ${timestamp}`);
  const mac = createHmac('sha256', secretKey(secret)).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** One signature per secret, space-separated: during a rotation receivers holding either secret accept the message. */
export function signatureHeader(secrets: readonly string[], msgId: string, timestamp: number, body: string): string {
  if (secrets.length === 0) throw new RangeError(`No secret to sign webhook message ${msgId} with`);
  return secrets.map((secret) => signature(secret, msgId, timestamp, body)).join(' ');
}

/** Every header of one delivery attempt; `body` must be sent byte for byte as signed. */
export function webhookHeaders(secrets: readonly string[], msgId: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, msgId, timestamp, body),
    'content-type': 'application/json',
    'user-agent': 'Parlance-Webhooks/1',
  };
}

export interface VerifyOptions {
  /** How far the timestamp may lie from `now`, either way. Default 300. */
  toleranceSeconds?: number;
  /** Current unix time in seconds; defaults to the clock. */
  now?: number;
}

/** A header by its lower-case name; Node lower-cases incoming names, other frameworks may not. */
function header(headers: Record<string, string | undefined>, name: string): string {
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (!value) throw new WebhookVerificationError(`Missing ${name} header`);
  return value;
}

/** The signed timestamp, refused outside the tolerance window so a captured message cannot be replayed later. */
function freshTimestamp(text: string, now: number, toleranceSeconds: number): number {
  if (!UNIX_SECONDS.test(text)) throw new WebhookVerificationError(`Invalid webhook-timestamp '${text}': expected unix seconds`);
  const timestamp = Number(text);
  if (now - timestamp > toleranceSeconds) throw new WebhookVerificationError(`webhook-timestamp ${timestamp} is ${now - timestamp} s old; tolerance is ${toleranceSeconds} s`);
  if (timestamp - now > toleranceSeconds) throw new WebhookVerificationError(`webhook-timestamp ${timestamp} is ${timestamp - now} s in the future; tolerance is ${toleranceSeconds} s`);
  return timestamp;
}

/** Constant-time string comparison; the length check leaks nothing, every v1 signature has the same length. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Throws {@link WebhookVerificationError} unless one signature in the headers is ours for this exact body and a fresh timestamp. */
export function verifyWebhook(secret: string, headers: Record<string, string | undefined>, body: string, options: VerifyOptions = {}): void {
  const msgId = header(headers, 'webhook-id');
  const passed = header(headers, 'webhook-signature').split(' ');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const timestamp = freshTimestamp(header(headers, 'webhook-timestamp'), now, options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const expected = signature(secret, msgId, timestamp, body);
  if (!passed.some((candidate) => sameText(candidate, expected))) {
    throw new WebhookVerificationError(`No signature in webhook-signature matches message ${msgId} (${passed.length} checked)`);
  }
}
