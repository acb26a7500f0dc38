/** The StorageClient of an S3-compatible bucket (AWS S3, R2, MinIO, s3rver...), over @aws-sdk/client-s3 loaded on first use. */
import type { S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  checkKey,
  checkSha256,
  DEFAULT_STORAGE_TIMEOUT_MS,
  invalidSettings,
  isNetworkError,
  redact,
  refusedAddress,
  requestDeadline,
  retryAfterMs,
  StorageError,
  type GuardedAgents,
  type S3Credentials,
  type S3Settings,
  type StorageClient,
  type StoredObject,
} from './storage-client.js';

/** Lowercase on purpose: S3 returns user metadata names lowercased whatever case they were written in. */
const SHA256_METADATA = 'parlance-sha256';

/** How an operation reads in a message, before the key: "writing 'de.json' to s3://...". */
const OPERATIONS = {
  head: ['checking', 'in'],
  put: ['writing', 'to'],
  get: ['reading', 'from'],
  delete: ['deleting', 'from'],
} as const;
type Operation = keyof typeof OPERATIONS;

const AUTH_CODES = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'ExpiredToken', 'TokenRefreshRequired', 'AllAccessDisabled', 'AccountProblem', 'InvalidSecurity', 'Forbidden']);
const THROTTLE_CODES = new Set(['SlowDown', 'ServiceUnavailable', 'Throttling', 'ThrottlingException', 'TooManyRequests', 'RequestLimitExceeded']);

/**
 * `agents`: the outbound guard's, through which every request goes (the service always passes them); without them the
 * SDK's own agents connect anywhere, which only tests reading a bucket directly do.
 */
export async function createS3Client(settings: S3Settings, credentials: S3Credentials, options: { timeoutMs?: number; agents?: GuardedAgents } = {}): Promise<StorageClient> {
  const endpoint = checkedEndpoint(settings);
  const describe = `s3://${settings.bucket} at ${endpoint ?? `https://s3.${settings.region}.amazonaws.com`} (${settings.region})`;
  if (!credentials.accessKeyId.trim() || !credentials.secretAccessKey) {
    throw invalidSettings(`Missing S3 credentials for ${describe}: both an access key id and a secret access key are required.`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
  const secrets = [credentials.secretAccessKey, credentials.sessionToken];
  const { S3Client, HeadObjectCommand, HeadBucketCommand, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import('@aws-sdk/client-s3');
  const client: S3Client = new S3Client({
    region: settings.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}) },
    // The caller retries with its own backoff and knows about the whole sync; SDK retries would multiply its waits.
    maxAttempts: 1,
    // R2, MinIO and s3rver do not all accept the CRC32 headers and aws-chunked trailers the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The options form of NodeHttpHandler's constructor (the SDK builds the handler from it). Agent instances count as
    // the caller's: the handler then never swaps in an agent of its own, as it otherwise does for an Expect: 100-continue
    // upload. The SDK follows no redirects: a 3xx is an error answer, so every request goes to the endpoint saved.
    requestHandler: {
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      throwOnRequestTimeout: true,
      ...(options.agents ? { httpAgent: options.agents.http, httpsAgent: options.agents.https } : {}),
    },
  });

  /** Runs one command under the deadline; a caller's abort is rethrown as its reason, anything else as a StorageError. */
  async function send<T>(operation: Operation, key: string, run: (abortSignal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, tolerate?: (error: unknown) => boolean): Promise<T | undefined> {
    const deadline = requestDeadline(timeoutMs, signal);
    try {
      return await run(deadline.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!deadline.timedOut() && tolerate?.(error)) return undefined;
      throw toStorageError(error, operation, key, deadline.timedOut());
    }
  }

  function where(operation: Operation, key: string): string {
    const [verb, preposition] = OPERATIONS[operation];
    return `${verb} '${key}' ${preposition} ${describe}`;
  }

  function toStorageError(error: unknown, operation: Operation, key: string, timedOut: boolean): StorageError {
    const at = where(operation, key);
    const refused = refusedAddress(error, 'S3', at);
    if (refused) return refused;
    if (timedOut) return new StorageError(`S3 did not answer within ${timeoutMs} ms ${at}.`, 'unreachable', true);
    const status = httpStatus(error);
    if (status === undefined) {
      const detail = redact(error instanceof Error ? error.message : String(error), secrets);
      // The SDK names a reset connection ("socket hang up") TimeoutError too, so the system code is looked at first.
      if (isNetworkError(error)) return new StorageError(`Could not reach S3 ${at}: ${detail}`, 'unreachable', true);
      if ((error as Error | undefined)?.name === 'TimeoutError') return new StorageError(`S3 did not answer within ${timeoutMs} ms ${at}.`, 'unreachable', true);
      return new StorageError(`S3 request failed ${at}: ${detail}`, 'other', false);
    }
    const exception = error as S3ServiceException & { Code?: string };
    const code = exception.Code ?? exception.name;
    // HEAD answers carry no body, so the SDK has only the status to go on and calls the message UnknownError.
    const hasBody = Boolean(exception.message) && exception.message !== 'UnknownError';
    const vendor = hasBody ? `${code}: ${redact(exception.message, secrets)}` : `HTTP ${status} with no error body`;
    if (status === 401 || status === 403 || AUTH_CODES.has(code)) {
      // AWS answers a HEAD of a missing key with 403 rather than 404 when the credentials lack s3:ListBucket.
      const hint = operation === 'head' && status === 403 && !hasBody ? ' (the credentials may lack s3:ListBucket, without which S3 answers 403 for a key that does not exist)' : '';
      return new StorageError(`S3 refused the credentials ${at}: ${vendor}${hint}`, 'auth', false);
    }
    if (code === 'NoSuchBucket') return new StorageError(`S3 has no bucket '${settings.bucket}' ${at}: ${vendor}`, 'not_found', false);
    if (status === 429 || status === 503 || THROTTLE_CODES.has(code)) {
      const header = exception.$response?.headers?.['retry-after'];
      return new StorageError(`S3 is throttling requests ${at}: ${vendor}`, 'throttled', true, retryAfterMs(header));
    }
    return new StorageError(`S3 failed ${at}: ${hasBody ? `HTTP ${status} ${vendor}` : vendor}`, 'other', status >= 500);
  }

  /**
   * A HEAD of a missing key and a HEAD in a missing bucket both answer a bodiless 404, so the first such answer is
   * checked with HeadBucket; once the bucket has answered, later 404s are missing keys. A 403 on HeadBucket (a key
   * allowed objects but not the bucket) proves nothing either way: put() will name a missing bucket when there is one.
   */
  let bucketSeen = false;
  async function confirmBucket(key: string, signal: AbortSignal | undefined): Promise<void> {
    if (bucketSeen) return;
    let status: number | undefined;
    const found = await send('head', key, (abortSignal) => client.send(new HeadBucketCommand({ Bucket: settings.bucket }), { abortSignal }), signal, (error) => {
      status = httpStatus(error);
      return status !== undefined && status < 500;
    });
    if (found) bucketSeen = true;
    else if (status === 404) throw new StorageError(`S3 has no bucket '${settings.bucket}' ${where('head', key)}: HeadBucket answered HTTP 404`, 'not_found', false);
  }

  return {
    describe,

    close() {
      // Destroying the client destroys its handler's agents, and the guarded ones are shared by every client.
      if (!options.agents) client.destroy();
    },

    async head(key, signal) {
      checkKey(key, describe);
      const out = await send('head', key, (abortSignal) => client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }), { abortSignal }), signal, (error) => httpStatus(error) === 404 && errorCode(error) !== 'NoSuchBucket');
      if (!out) {
        await confirmBucket(key, signal);
        return null;
      }
      bucketSeen = true;
      return { sha256: out.Metadata?.[SHA256_METADATA] ?? null, size: out.ContentLength ?? 0, contentType: out.ContentType ?? null } satisfies StoredObject;
    },

    async put(key, body, { contentType, sha256, cacheControl }, signal) {
      checkKey(key, describe);
      checkSha256(sha256, key);
      // A Buffer with an explicit length goes out as one plain PUT: no streaming, no chunked encoding, no trailers.
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      await send('put', key, (abortSignal) => client.send(new PutObjectCommand({
        Bucket: settings.bucket,
        Key: key,
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: contentType,
        ...(cacheControl ? { CacheControl: cacheControl } : {}),
        Metadata: { [SHA256_METADATA]: sha256 },
      }), { abortSignal }), signal);
      bucketSeen = true;
    },

    async get(key, signal) {
      checkKey(key, describe);
      const bytes = await send('get', key, async (abortSignal) => {
        const out = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key }), { abortSignal });
        if (!out.Body) return new Uint8Array();
        return out.Body.transformToByteArray();
      }, signal, (error) => errorCode(error) === 'NoSuchKey');
      return bytes ?? null;
    },

    async delete(key, signal) {
      checkKey(key, describe);
      // S3 answers 204 for a key that is not there; some compatible services answer NoSuchKey instead.
      await send('delete', key, (abortSignal) => client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }), { abortSignal }), signal, (error) => errorCode(error) === 'NoSuchKey');
    },
  };
}

/** Checks the settings and returns the endpoint as the SDK needs it (no trailing slash), or undefined for AWS itself. */
function checkedEndpoint(settings: S3Settings): string | undefined {
  if (!settings.bucket || !/^[A-Za-z0-9._-]{1,255}$/.test(settings.bucket)) {
    throw invalidSettings(`Invalid S3 bucket '${settings.bucket}'. Expected a bucket name such as 'acme-translations' (letters, digits, '.', '-' and '_').`);
  }
  if (!settings.region || !/^[A-Za-z0-9_-]+$/.test(settings.region)) {
    throw invalidSettings(`Invalid S3 region '${settings.region}' for bucket '${settings.bucket}'. Expected a region such as 'us-east-1' ('auto' for R2).`);
  }
  if (settings.endpoint === undefined || settings.endpoint === '') return undefined;
  let url: URL;
  try {
    url = new URL(settings.endpoint);
  } catch {
    throw invalidSettings(`Invalid S3 endpoint '${settings.endpoint}' for bucket '${settings.bucket}'. Expected an http(s) URL such as 'https://<account>.r2.cloudflarestorage.com'.`);
  }
  if (url.username || url.password) {
    // Not quoted: the part before '@' is a credential.
    throw invalidSettings(`Invalid S3 endpoint for bucket '${settings.bucket}': it contains a user name or password. Put credentials in the access key fields, not in the URL.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
    throw invalidSettings(`Invalid S3 endpoint '${settings.endpoint}' for bucket '${settings.bucket}'. Expected an http(s) URL without query or fragment, such as 'https://<account>.r2.cloudflarestorage.com'.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function errorCode(error: unknown): string | undefined {
  const e = error as { Code?: string; name?: string } | undefined;
  return e?.Code ?? e?.name;
}
