/** The contract every release storage target (S3-compatible bucket, Azure Blob container) implements, its error, and what both adapters share. */
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { PUBLIC_ONLY_REASON } from '../../net/outbound.js';

/** What is stored at a key. `sha256`: the hex SHA-256 Parlance recorded as object metadata when it wrote it, or null (written by someone else). */
export interface StoredObject {
  sha256: string | null;
  size: number;
  contentType: string | null;
}

export interface StorageClient {
  /** A description for logs and errors, never with credentials: "s3://bucket at https://endpoint (region)" / "azure container 'x' at https://account.blob.core.windows.net". */
  readonly describe: string;
  /** What is at `key`, or null when nothing is. */
  head(key: string, signal?: AbortSignal): Promise<StoredObject | null>;
  /** Writes `body` at `key` with its Content-Type, optional Cache-Control, and `sha256` recorded as metadata (`parlance-sha256` on S3 → x-amz-meta-parlance-sha256; `parlance_sha256` on Azure, whose metadata names must be C# identifiers). */
  put(key: string, body: Uint8Array, options: { contentType: string; sha256: string; cacheControl?: string }, signal?: AbortSignal): Promise<void>;
  /** The object's bytes, or null when nothing is there (used by tests and by verification). */
  get(key: string, signal?: AbortSignal): Promise<Uint8Array | null>;
  /** Deletes `key`; nothing there is not an error. */
  delete(key: string, signal?: AbortSignal): Promise<void>;
  /** Lets go of the client's kept-alive connections; the client is not used afterwards. */
  close(): void;
}

/** kind: 'auth' (credentials refused or not allowed: 401/403, InvalidAccessKeyId, SignatureDoesNotMatch, AccessDenied, AuthorizationFailure, AuthenticationFailed), 'not_found' (no such bucket / container), 'unreachable' (connection refused/reset, DNS, timeout), 'throttled' (429/503 SlowDown/ServerBusy), 'other'. retryable: true for unreachable, throttled and 5xx; false for auth, not_found and other 4xx. */
export class StorageError extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'not_found' | 'unreachable' | 'throttled' | 'other',
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
}
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}
export interface AzureBlobSettings {
  container: string;
  accountUrl?: string;
}
/** Either a connection string (AccountName/AccountKey/BlobEndpoint..., as Azure and Azurite give them) or a SAS: a URL of the account or of the container with the SAS token in its query. */
export type AzureBlobCredentials = { connectionString: string } | { sasUrl: string };

/** Node agents whose every connection is checked against the outbound address policy (`Outbound.agents()`); the clients send every request through them. */
export interface GuardedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * The outbound guard's refusal inside `error` (the target is, or resolved to, a non-public address the operator does not
 * allow) as a StorageError that is not retried: nothing was sent, and the same address is refused again. The message is
 * the guard's own, naming the address and its range, never anything a server answered. Both SDKs keep the guard's `code`:
 * the AWS SDK throws the guard's error itself, Azure's pipeline wraps it in a RestError with the same code and message.
 */
export function refusedAddress(error: unknown, service: string, at: string): StorageError | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === 'EUNSAFEADDRESS') {
      return new StorageError(`Parlance did not connect to ${service} ${at}: ${(e as Error).message}; ${PUBLIC_ONLY_REASON}.`, 'other', false);
    }
  }
  return undefined;
}

/** Per request, when the caller names no other. */
export const DEFAULT_STORAGE_TIMEOUT_MS = 30_000;

/** A settings mistake: retrying cannot fix it. */
export function invalidSettings(message: string): StorageError {
  return new StorageError(message, 'other', false);
}

/**
 * The signal one request runs under: the caller's, cut off after `timeoutMs`. `timedOut()` tells a deadline from the
 * caller's own abort, which is not a storage failure and is rethrown as the caller's reason.
 */
export function requestDeadline(timeoutMs: number, signal?: AbortSignal): { signal: AbortSignal; timedOut(): boolean } {
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, timedOut: () => timeout.aborted && !signal?.aborted };
}

/** A Retry-After header (delta seconds or an HTTP date) in milliseconds, or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Errors raised before any HTTP answer that mean the endpoint could not be reached (Node system error codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Whether `error` (or the error it wraps) is a connection-level failure: refused, reset, DNS, socket timeout. */
export function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}

/**
 * `text` with every secret replaced: vendors and SDKs sometimes echo request URLs (a SAS token's `sig`) or headers back
 * in their messages, and a StorageError's message ends up in logs and in the console.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out.replace(/([?&](?:sig|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&\s'"]+/gi, '$1[redacted]');
}

/** A key a client can store at: the caller joins prefixes and paths, and an empty or rooted key means that join went wrong. */
export function checkKey(key: string, describe: string): void {
  if (key === '' || key.startsWith('/')) {
    throw invalidSettings(`Invalid object key '${key}' for ${describe}. Expected a relative path such as 'releases/2024-06-01/de.json'.`);
  }
}

/** The hex SHA-256 put() records; anything else would make every later comparison with it fail. */
export function checkSha256(sha256: string, key: string): void {
  if (!/^[0-9a-f]{64}$/.test(sha256)) {
    throw invalidSettings(`Invalid sha256 '${sha256}' for '${key}'. Expected 64 lowercase hex digits.`);
  }
}
