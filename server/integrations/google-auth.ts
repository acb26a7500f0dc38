/**
 * Google APIs for connectors (Sheets, Docs, the Android Publisher): a service account's key file turned into an access
 * token by the OAuth 2.0 JWT bearer grant (an RS256 assertion signed with the key, exchanged at the key's `token_uri`),
 * or an access token given as is. Tokens are kept until a minute before they expire, per key and scopes, so a sync's
 * requests share one; a rotated key (another key id or key) gets its own.
 *
 * References: developers.google.com/identity/protocols/oauth2/service-account ("Preparing to make an authorized API
 * call": the JWT header {alg: RS256, typ: JWT, kid}, the claim set {iss, scope, aud, exp, iat}, at most one hour, the
 * POST of grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and assertion, the answer {access_token, expires_in,
 * token_type}, the errors {error, error_description} such as invalid_grant); the key file's fields from
 * cloud.google.com/iam/docs/keys-create-delete (type, project_id, private_key_id, private_key, client_email,
 * token_uri).
 */
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { ConnectorHttp } from './connector-http.js';
import { ConnectorError } from './connector-error.js';
import { vendorMessage } from './connector-http.js';

const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** A service account's JSON key file, as Google Cloud's console downloads it; fields Parlance does not use pass through. */
export const serviceAccountKey = z
  .looseObject({
    type: z.literal('service_account', { error: 'a service account key file has "type": "service_account"' }),
    client_email: z.string().email().openapi({ description: "The service account's address (`…@….iam.gserviceaccount.com`): share the document or app with it." }),
    private_key: z.string().includes('PRIVATE KEY').openapi({ description: 'The PEM private key of the key file.' }),
    private_key_id: z.string().optional(),
    token_uri: z.string().url().default(GOOGLE_TOKEN_URI).openapi({ description: `Where the key is exchanged for an access token. Default \`${GOOGLE_TOKEN_URI}\`.` }),
  })
  .openapi({ description: 'The service account key file (JSON) as Google Cloud › IAM › Service accounts › Keys › Add key › JSON downloads it.' });

export type ServiceAccountKey = z.infer<typeof serviceAccountKey>;

/** The secrets of a Google connector: a service account key (the usual way) or an OAuth access token someone obtained. */
export const googleSecrets = z
  .object({
    service_account: serviceAccountKey.optional(),
    access_token: z.string().min(1).optional().openapi({ description: 'Instead of `service_account`: an OAuth 2.0 access token with the scopes the guide names (it expires within the hour; for tests and one-off syncs).' }),
  })
  .strict()
  .refine((s) => (s.service_account === undefined) !== (s.access_token === undefined), { message: 'Give `service_account` (the key file\'s JSON) or `access_token`, one of them.' });

export type GoogleSecrets = z.infer<typeof googleSecrets>;

interface Held {
  token: string;
  expiresAt: number;
}

/** Tokens by a digest of the key, its token address and the scopes; bounded, the oldest dropped first. */
const held = new Map<string, Held>();
const MAX_HELD = 200;
const REFRESH_BEFORE_MS = 60_000;

function privateKeyOf(key: ServiceAccountKey): KeyObject {
  try {
    return createPrivateKey(key.private_key);
  } catch (error) {
    throw new ConnectorError('auth', `The service account key of ${key.client_email} (secret service_account.private_key) is not a PEM private key Node can read: ${error instanceof Error ? error.message : String(error)}. Paste the key file's JSON as Google Cloud downloaded it.`);
  }
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The signed JWT assertion for `scopes`, valid for an hour from `now` (seconds). */
function serviceAccountAssertion(key: ServiceAccountKey, scopes: readonly string[], now = Math.floor(Date.now() / 1000)): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = { iss: key.client_email, scope: scopes.join(' '), aud: key.token_uri, iat: now, exp: now + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), privateKeyOf(key)).toString('base64url')}`;
}

/** Google's own words from a token endpoint's error (`{error, error_description}`). */
function tokenError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string') return typeof body.error_description === 'string' ? `${body.error}: ${body.error_description}` : body.error;
  } catch {
    // Not JSON: the generic reader.
  }
  return vendorMessage(text);
}

/** An access token for `scopes`: the one held while it is good for another minute, else a new one. */
export async function serviceAccountToken(http: ConnectorHttp, key: ServiceAccountKey, scopes: readonly string[]): Promise<string> {
  const id = createHash('sha256').update(JSON.stringify([key.client_email, key.private_key_id ?? '', key.private_key, key.token_uri, [...scopes].sort()])).digest('hex');
  const known = held.get(id);
  if (known && known.expiresAt - REFRESH_BEFORE_MS > Date.now()) return known.token;
  const what = `Exchanging the service account key of ${key.client_email} for an access token at ${key.token_uri}`;
  const response = await http.request(key.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountAssertion(key, scopes) }).toString(),
  });
  const text = await response.text().catch(() => '');
  if (response.status >= 500 || response.status === 429) throw new ConnectorError('unavailable', `${what}: HTTP ${response.status}: ${tokenError(text)}`);
  // 400 invalid_grant (a deleted or disabled key, a wrong signature, a clock far off) and 401 are the key's fault.
  if (!response.ok) throw new ConnectorError('auth', `${what}: Google refused the key (HTTP ${response.status}: ${tokenError(text)}). Check the secret service_account (a current key of an enabled service account), then PATCH it.`);
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ConnectorError('unavailable', `${what}: the answer is not JSON: ${text.slice(0, 120)}`);
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') throw new ConnectorError('unavailable', `${what}: the answer has no access_token.`);
  const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
  if (held.size >= MAX_HELD) held.delete(held.keys().next().value!);
  held.set(id, { token: body.access_token, expiresAt: Date.now() + seconds * 1000 });
  return body.access_token;
}

/** The Authorization header of a Google connector's requests. */
export async function googleAuthorization(http: ConnectorHttp, secrets: GoogleSecrets, scopes: readonly string[]): Promise<string> {
  if (secrets.access_token !== undefined) return `Bearer ${secrets.access_token}`;
  return `Bearer ${await serviceAccountToken(http, secrets.service_account!, scopes)}`;
}

/** Forgets every held token (tests that revoke a key). */
export function forgetGoogleTokens(): void {
  held.clear();
}
