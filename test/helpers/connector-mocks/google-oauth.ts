/**
 * Google's OAuth 2.0 token endpoint for service accounts, to mount in a Google API mock (Sheets, Docs, the Android
 * Publisher) on the same loopback server: POST /token takes the JWT bearer grant, checks the assertion's RS256
 * signature against the service account's public key and its claims (iss, aud, scope, iat/exp within an hour), and
 * issues an access token; API handlers then check a request's Bearer token and its scope.
 *
 * Shapes from developers.google.com/identity/protocols/oauth2/service-account: the form POST
 * (grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, assertion), the answer
 * {access_token, expires_in: 3599, token_type: "Bearer"}, and the refusal 400 {error: "invalid_grant",
 * error_description: "Invalid JWT Signature."} (the description's wording as Google's token endpoint answers it);
 * the API side's 401 {error: {code: 401, message: "Request had invalid authentication credentials…", status:
 * "UNAUTHENTICATED"}} and 403 PERMISSION_DENIED are Google's JSON error envelope (cloud.google.com/apis/design/errors).
 */
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './loopback.js';

export interface ServiceAccountFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
}

/** A service account key file as Google Cloud downloads it, with `token_uri` pointing at the mock. */
export function makeServiceAccount(tokenUri: string, name = 'parlance-sync'): { file: ServiceAccountFile; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    file: {
      type: 'service_account',
      project_id: 'acme-l10n',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: `${name}@acme-l10n.iam.gserviceaccount.com`,
      client_id: '104372954518722618237',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
    },
    publicKey: createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })),
  };
}

interface Issued {
  email: string;
  scopes: string[];
  expiresAt: number;
}

export interface GoogleTokenEndpoint {
  /** The accounts whose keys the endpoint accepts, by client_email. */
  accounts: Map<string, KeyObject>;
  /** Every token issued, by token. */
  issued: Map<string, Issued>;
  /** Answers POST /token; returns false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): boolean;
  /**
   * Checks a request's Bearer token for `scope`: false when it is good; true when it was refused, answered with
   * Google's error envelope (401 UNAUTHENTICATED, 403 PERMISSION_DENIED).
   */
  refuse(req: IncomingMessage, res: ServerResponse, scope: string): boolean;
  /** Revokes every token issued so far (a key deleted in Google Cloud). */
  revokeAll(): void;
}

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

function grantError(res: ServerResponse, description: string): void {
  sendJson(res, 400, { error: 'invalid_grant', error_description: description });
}

/** A token endpoint at `<server>/token` accepting `accounts`' keys. */
export function googleTokenEndpoint(tokenUri: string, accounts: { file: ServiceAccountFile; publicKey: KeyObject }[] = []): GoogleTokenEndpoint {
  const keys = new Map(accounts.map((a) => [a.file.client_email, a.publicKey]));
  const issued = new Map<string, Issued>();
  return {
    accounts: keys,
    issued,
    handle(req, res, url, body) {
      if (req.method !== 'POST' || url.pathname !== new URL(tokenUri).pathname) return false;
      const form = new URLSearchParams(typeof body === 'string' ? body : '');
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + (form.get('grant_type') ?? '') });
        return true;
      }
      const parts = (form.get('assertion') ?? '').split('.');
      if (parts.length !== 3) {
        grantError(res, 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
        return true;
      }
      let header: Record<string, unknown>;
      let claims: Record<string, unknown>;
      try {
        header = decode(parts[0]!);
        claims = decode(parts[1]!);
      } catch {
        grantError(res, 'Invalid JWT.');
        return true;
      }
      const key = keys.get(String(claims.iss));
      if (header.alg !== 'RS256' || !key) {
        grantError(res, 'Invalid JWT Signature.');
        return true;
      }
      if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'))) {
        grantError(res, 'Invalid JWT Signature.');
        return true;
      }
      const now = Date.now() / 1000;
      const iat = Number(claims.iat);
      const exp = Number(claims.exp);
      if (claims.aud !== tokenUri || !(exp > now) || !(iat <= now + 60) || exp - iat > 3600) {
        grantError(res, 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
        return true;
      }
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      issued.set(token, { email: String(claims.iss), scopes: String(claims.scope ?? '').split(' ').filter(Boolean), expiresAt: Date.now() + 3599_000 });
      sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      return true;
    },
    refuse(req, res, scope) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const found = token ? issued.get(token) : undefined;
      if (!found || found.expiresAt < Date.now()) {
        sendJson(res, 401, {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
            status: 'UNAUTHENTICATED',
          },
        });
        return true;
      }
      if (!found.scopes.includes(scope)) {
        sendJson(res, 403, { error: { code: 403, message: 'Request had insufficient authentication scopes.', status: 'PERMISSION_DENIED' } });
        return true;
      }
      return false;
    },
    revokeAll() {
      issued.clear();
    },
  };
}
