/** The StorageClient of an Azure Blob Storage container (or Azurite), over @azure/storage-blob loaded on first use. */
import type { ContainerClient, RequestPolicyFactory, StoragePipelineOptions } from '@azure/storage-blob';
import { isIP } from 'node:net';
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
  type AzureBlobCredentials,
  type AzureBlobSettings,
  type StorageClient,
  type StoredObject,
} from './storage-client.js';

/** Azure metadata names must be C# identifiers, so no hyphen as on S3. Azure keeps their case; Parlance writes lowercase. */
const SHA256_METADATA = 'parlance_sha256';

const OPERATIONS = {
  head: ['checking', 'in'],
  put: ['writing', 'to'],
  get: ['reading', 'from'],
  delete: ['deleting', 'from'],
} as const;
type Operation = keyof typeof OPERATIONS;

const AUTH_CODES = new Set([
  'AuthenticationFailed',
  'AuthorizationFailure',
  'AuthorizationPermissionMismatch',
  'AuthorizationSourceIPMismatch',
  'AuthorizationProtocolMismatch',
  'AuthorizationResourceTypeMismatch',
  'AuthorizationServiceMismatch',
  'InvalidAuthenticationInfo',
  'NoAuthenticationInformation',
  'InsufficientAccountPermissions',
  'AccountIsDisabled',
]);
const THROTTLE_CODES = new Set(['ServerBusy', 'TooManyRequests']);

/** Where the client points and what it must never print, worked out from the credentials before the SDK is loaded. */
interface Target {
  /** Origin and account path, no query: what `describe` shows. */
  accountUrl: string;
  /** The container's URL, with the SAS query when the credentials are a SAS. */
  containerUrl: string;
  sharedKey?: { accountName: string; accountKey: string };
  secrets: string[];
}

/**
 * `agents`: the outbound guard's, through which every request goes (the service always passes them); without them the
 * SDK's own agents connect anywhere, which only tests reading a container directly do.
 */
export async function createAzureBlobClient(settings: AzureBlobSettings, credentials: AzureBlobCredentials, options: { timeoutMs?: number; agents?: GuardedAgents } = {}): Promise<StorageClient> {
  if (!/^(\$root|\$web|[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9])$/.test(settings.container)) {
    throw invalidSettings(`Invalid Azure container '${settings.container}'. Expected 3 to 63 lowercase letters, digits and single hyphens, such as 'translations' (or '$web').`);
  }
  const target = 'connectionString' in credentials ? fromConnectionString(credentials.connectionString, settings.container) : fromSasUrl(credentials.sasUrl, settings.container);
  if (settings.accountUrl !== undefined && settings.accountUrl !== '' && normalizeAccountUrl(settings.accountUrl, settings.container) !== target.accountUrl) {
    throw invalidSettings(`The account URL '${settings.accountUrl}' differs from the one the credentials for container '${settings.container}' point at, ${target.accountUrl}. Correct one of them.`);
  }
  const describe = `azure container '${settings.container}' at ${target.accountUrl}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;

  const { AnonymousCredential, ContainerClient, newPipeline, StorageSharedKeyCredential } = await import('@azure/storage-blob');
  const pipelineOptions: StoragePipelineOptions = {
    // The caller retries with its own backoff and knows about the whole sync; SDK retries would multiply its waits.
    retryOptions: { maxTries: 1, tryTimeoutInMs: timeoutMs },
  };
  const pipeline = newPipeline(target.sharedKey ? new StorageSharedKeyCredential(target.sharedKey.accountName, target.sharedKey.accountKey) : new AnonymousCredential(), pipelineOptions);
  if (options.agents) pipeline.factories.push(guardedAgentPolicy(options.agents));
  // Every blob client the container hands out shares this pipeline, so every request (shared key or SAS) goes through the policy.
  const container: ContainerClient = new ContainerClient(target.containerUrl, pipeline);

  function where(operation: Operation, key: string): string {
    const [verb, preposition] = OPERATIONS[operation];
    return `${verb} '${key}' ${preposition} ${describe}`;
  }

  /** Runs one call under the deadline; a caller's abort is rethrown as its reason, anything else as a StorageError. */
  async function send<T>(operation: Operation, key: string, run: (abortSignal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, tolerate?: (code: string | undefined) => boolean): Promise<T | undefined> {
    const deadline = requestDeadline(timeoutMs, signal);
    try {
      return await run(deadline.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!deadline.timedOut() && tolerate?.(errorCode(error))) return undefined;
      throw toStorageError(error, operation, key, deadline.timedOut());
    }
  }

  function toStorageError(error: unknown, operation: Operation, key: string, timedOut: boolean): StorageError {
    const at = where(operation, key);
    const refused = refusedAddress(error, 'Azure Blob Storage', at);
    if (refused) return refused;
    if (timedOut) return new StorageError(`Azure Blob Storage did not answer within ${timeoutMs} ms ${at}.`, 'unreachable', true);
    const e = error as { name?: string; message?: string; statusCode?: number; code?: string; response?: { headers?: { get(name: string): string | undefined } } };
    const status = e.statusCode;
    if (status === undefined) {
      const detail = redact(e.message ?? String(error), target.secrets);
      // REQUEST_SEND_ERROR is how the SDK wraps refused, reset and unresolvable connections.
      if (isNetworkError(error) || e.code === 'REQUEST_SEND_ERROR') return new StorageError(`Could not reach Azure Blob Storage ${at}: ${detail}`, 'unreachable', true);
      if (e.name === 'AbortError' || e.name === 'TimeoutError') return new StorageError(`Azure Blob Storage did not answer within ${timeoutMs} ms ${at}.`, 'unreachable', true);
      return new StorageError(`Azure Blob Storage request failed ${at}: ${detail}`, 'other', false);
    }
    const code = errorCode(error);
    // The service's message continues with RequestId and Time lines that say nothing to the reader.
    const message = redact((e.message ?? '').split('\n')[0]?.trim() ?? '', target.secrets);
    const vendor = code ? `${code}${message && message !== code ? `: ${message}` : ''}` : `HTTP ${status}${message ? `: ${message}` : ''}`;
    if (status === 401 || status === 403 || (code !== undefined && AUTH_CODES.has(code))) {
      return new StorageError(`Azure Blob Storage refused the credentials ${at}: ${vendor}`, 'auth', false);
    }
    if (code === 'ContainerNotFound') return new StorageError(`Azure Blob Storage has no container '${settings.container}' ${at}: ${vendor}`, 'not_found', false);
    if (status === 429 || status === 503 || (code !== undefined && THROTTLE_CODES.has(code))) {
      return new StorageError(`Azure Blob Storage is throttling requests ${at}: ${vendor}`, 'throttled', true, retryAfterMs(e.response?.headers?.get('retry-after')));
    }
    return new StorageError(`Azure Blob Storage failed ${at}: ${code ? `HTTP ${status} ${vendor}` : vendor}`, 'other', status >= 500);
  }

  return {
    describe,

    close() {
      // The SDK's pipeline keeps no connection of its own to close: the guarded agents (shared) or the SDK's cached one own them.
    },

    async head(key, signal) {
      checkKey(key, describe);
      // A HEAD has no body, but Azure names the error in x-ms-error-code: BlobNotFound and ContainerNotFound stay apart.
      const props = await send('head', key, (abortSignal) => container.getBlobClient(key).getProperties({ abortSignal }), signal, (code) => code === 'BlobNotFound');
      if (!props) return null;
      const metadata = props.metadata ?? {};
      const name = Object.keys(metadata).find((n) => n.toLowerCase() === SHA256_METADATA);
      return { sha256: name ? (metadata[name] ?? null) : null, size: props.contentLength ?? 0, contentType: props.contentType ?? null } satisfies StoredObject;
    },

    async put(key, body, { contentType, sha256, cacheControl }, signal) {
      checkKey(key, describe);
      checkSha256(sha256, key);
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      // One Put Blob with the whole body: release files are far below its 5000 MiB limit, and it replaces atomically.
      await send('put', key, (abortSignal) => container.getBlockBlobClient(key).upload(bytes, bytes.byteLength, {
        abortSignal,
        blobHTTPHeaders: { blobContentType: contentType, ...(cacheControl ? { blobCacheControl: cacheControl } : {}) },
        metadata: { [SHA256_METADATA]: sha256 },
      }), signal);
    },

    async get(key, signal) {
      checkKey(key, describe);
      const bytes = await send('get', key, async (abortSignal) => {
        const response = await container.getBlobClient(key).download(0, undefined, { abortSignal });
        const chunks: Buffer[] = [];
        for await (const chunk of response.readableStreamBody ?? []) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
        return new Uint8Array(Buffer.concat(chunks));
      }, signal, (code) => code === 'BlobNotFound');
      return bytes ?? null;
    },

    async delete(key, signal) {
      checkKey(key, describe);
      // Snapshots would make the delete fail with SnapshotsPresent; the key is meant to be gone, snapshots and all.
      await send('delete', key, (abortSignal) => container.getBlobClient(key).delete({ abortSignal, deleteSnapshots: 'include' }), signal, (code) => code === 'BlobNotFound');
    },
  };
}

/**
 * Puts the guarded agent on every request. Storage's pipeline options have no `agent`, so this goes in as a pipeline
 * policy factory, which runs before the retry, redirect and signing policies (they reuse the request, agent and all) and
 * after the proxy policy, whose agent it replaces: a proxy would resolve the name itself, out of the guard's sight. The
 * pipeline follows only same-origin redirects, so a hop keeps the protocol the agent was picked for.
 */
function guardedAgentPolicy(agents: GuardedAgents): RequestPolicyFactory {
  return {
    create: (next) => ({
      sendRequest(request) {
        // The request is the pipeline's own behind a proxy that passes `agent` through to it.
        request.agent = new URL(request.url).protocol === 'https:' ? agents.https : agents.http;
        return next.sendRequest(request);
      },
    }),
  };
}

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; details?: { errorCode?: unknown } } | undefined;
  const code = e?.details?.errorCode ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Azurite and other hosts addressed by IP or a single-word name carry the account as the first path segment
 * (http://127.0.0.1:10000/devstoreaccount1/container); real accounts carry it in the host name.
 */
function accountPathSegments(url: URL): number {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) || !host.includes('.') || host === 'host.docker.internal' ? 1 : 0;
}

/** An account URL as compared and shown: origin plus the account segment for path-style hosts, no query or slash at the end. */
function accountUrlOf(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean).slice(0, accountPathSegments(url));
  return [url.origin.toLowerCase(), ...segments].join('/');
}

function normalizeAccountUrl(accountUrl: string, container: string): string {
  let url: URL;
  try {
    url = new URL(accountUrl);
  } catch {
    throw invalidSettings(`Invalid Azure account URL '${accountUrl}' for container '${container}'. Expected an https URL such as 'https://<account>.blob.core.windows.net'.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidSettings(`Invalid Azure account URL '${accountUrl}' for container '${container}'. Expected an https URL such as 'https://<account>.blob.core.windows.net'.`);
  }
  return accountUrlOf(url);
}

/**
 * The account URL `credentials` point at (origin and account segment, never a key or token), for the address check when
 * a target is saved; undefined when they cannot be read, which the sync reports before it connects anywhere.
 */
export function credentialsAccountUrl(credentials: AzureBlobCredentials): string | undefined {
  try {
    return 'connectionString' in credentials ? fromConnectionString(credentials.connectionString, 'container').accountUrl : accountUrlOf(new URL(credentials.sasUrl));
  } catch {
    return undefined;
  }
}

/** The parts of a connection string, by lowercased name: Azure reads the names case-insensitively. */
function connectionStringParts(connectionString: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const pair of connectionString.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) parts.set(pair.slice(0, at).trim().toLowerCase(), pair.slice(at + 1).trim());
  }
  return parts;
}

const CONNECTION_STRING_FORM = "Expected 'DefaultEndpointsProtocol=https;AccountName=<account>;AccountKey=<key>;EndpointSuffix=core.windows.net' (or with BlobEndpoint=..., or SharedAccessSignature=... instead of AccountKey)";

/** The target of a connection string; messages never quote it, since it holds the key. */
function fromConnectionString(connectionString: string, container: string): Target {
  const invalid = (problem: string) => invalidSettings(`Invalid Azure connection string for container '${container}': ${problem}. ${CONNECTION_STRING_FORM}.`);
  const parts = connectionStringParts(connectionString);
  if (parts.size === 0) throw invalid('it has no Name=value parts');
  if (parts.get('usedevelopmentstorage')?.toLowerCase() === 'true') {
    // The emulator's well-known account, as the SDKs define the shortcut.
    parts.set('accountname', 'devstoreaccount1');
    parts.set('accountkey', 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==');
    if (!parts.has('blobendpoint')) parts.set('blobendpoint', 'http://127.0.0.1:10000/devstoreaccount1');
  }
  const accountName = parts.get('accountname');
  const accountKey = parts.get('accountkey');
  const sas = parts.get('sharedaccesssignature')?.replace(/^\?/, '');
  if (!accountKey && !sas) throw invalid('it has neither AccountKey nor SharedAccessSignature');
  if (accountKey && !accountName) throw invalid('it has an AccountKey but no AccountName');
  if (accountKey && !/^[A-Za-z0-9+/]+={0,2}$/.test(accountKey)) throw invalid('its AccountKey is not base64');
  let endpoint = parts.get('blobendpoint');
  if (!endpoint) {
    if (!accountName) throw invalid('it has neither BlobEndpoint nor AccountName');
    const protocol = (parts.get('defaultendpointsprotocol') ?? 'https').toLowerCase();
    if (protocol !== 'https' && protocol !== 'http') throw invalid(`its DefaultEndpointsProtocol '${protocol}' is neither https nor http`);
    endpoint = `${protocol}://${accountName}.blob.${parts.get('endpointsuffix') ?? 'core.windows.net'}`;
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid(`its BlobEndpoint '${endpoint}' is not a URL`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search) {
    throw invalid(`its BlobEndpoint '${url.origin}${url.pathname}' is not a plain http(s) URL`);
  }
  const accountUrl = accountUrlOf(url);
  const containerUrl = `${accountUrl}/${container}${sas ? `?${sas}` : ''}`;
  return {
    accountUrl,
    containerUrl,
    ...(accountKey && accountName ? { sharedKey: { accountName, accountKey } } : {}),
    secrets: [accountKey, sas, connectionString].filter((s): s is string => Boolean(s)),
  };
}

/** The target of a SAS URL of the account or of the container; messages quote only its path, never its query. */
function fromSasUrl(sasUrl: string, container: string): Target {
  const form = "Expected 'https://<account>.blob.core.windows.net/<container>?sv=...&sig=...' (or the account URL with an account SAS)";
  let url: URL;
  try {
    url = new URL(sasUrl);
  } catch {
    throw invalidSettings(`Invalid Azure SAS URL for container '${container}': it is not a URL. ${form}.`);
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidSettings(`Invalid Azure SAS URL '${shown}' for container '${container}': not an http(s) URL. ${form}.`);
  if (!url.searchParams.get('sig')) throw invalidSettings(`Invalid Azure SAS URL '${shown}' for container '${container}': its query has no SAS token (no 'sig' parameter). ${form}.`);
  const segments = url.pathname.split('/').filter(Boolean);
  const accountSegments = accountPathSegments(url);
  if (segments.length > accountSegments + 1) {
    throw invalidSettings(`Invalid Azure SAS URL '${shown}' for container '${container}': it points at a blob, not at a container or an account. ${form}.`);
  }
  const accountUrl = accountUrlOf(url);
  const named = segments[accountSegments];
  if (named !== undefined && decodeURIComponent(named) !== container) {
    throw invalidSettings(`The Azure SAS URL is for container '${decodeURIComponent(named)}' but the target's container is '${container}' (at ${accountUrl}). Use a SAS for '${container}' or an account SAS.`);
  }
  const token = url.search.slice(1);
  return { accountUrl, containerUrl: `${accountUrl}/${container}?${token}`, secrets: [token, url.searchParams.get('sig') ?? ''] };
}
