/** The S3 and Azure Blob storage clients against real local servers (s3rver, Azurite): round trips, errors by kind, a target that goes down and comes back. */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAzureBlobClient } from '../../server/delivery/storage/azure-blob-client.js';
import { createS3Client } from '../../server/delivery/storage/s3-client.js';
import { StorageError, type StorageClient } from '../../server/delivery/storage/storage-client.js';
import { startAzurite, startS3rver } from '../helpers/storage-servers.js';

// The SDK warns once per process that it will need Node 22 from 2027; that is for the service's operators, not this file's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const TIMEOUT_MS = 2_000;
const BUCKET = 'parlance-releases';
const CONTAINER = 'parlance-releases';

const s3 = await startS3rver();
const azurite = await startAzurite();
afterAll(() => s3.stop());
afterAll(() => azurite.stop());
await s3.createBucket(BUCKET);
await azurite.createContainer(CONTAINER);
await azurite.createContainer('other-container');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);
const GERMAN = utf8('{"greeting":"Grüß Gott – schön, dass Sie da sind","cjk":"翻訳完了","emoji":"🎉"}\n');

/** The rejection of `pending` as a StorageError; fails the test when it resolves or rejects with anything else. */
async function storageError(pending: Promise<unknown>): Promise<StorageError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
}

/** One storage target as the shared cases see it: a client, how to read an object's raw HTTP headers, and the names it stores under. */
interface Target {
  name: string;
  client: () => Promise<StorageClient>;
  /** The object's response headers fetched without the client, to see what went over the wire. */
  rawHeaders: (key: string) => Promise<Headers>;
  metadataHeader: string;
  /** A client whose credentials the server refuses, the vendor code it answers with, and the secret that must not leak. */
  wrongCredentials: () => Promise<{ client: StorageClient; code: string; secret: string }>;
  /** A client of a bucket or container that does not exist. */
  missing: () => Promise<StorageClient>;
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

const s3Target: Target = {
  name: 'S3 (s3rver)',
  client: () => createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: BUCKET, forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, { timeoutMs: TIMEOUT_MS }),
  // s3rver enforces no ACLs, so an unsigned GET shows the stored headers.
  rawHeaders: async (key) => (await fetch(`${s3.endpoint}/${BUCKET}/${encodeKey(key)}`)).headers,
  metadataHeader: 'x-amz-meta-parlance-sha256',
  // s3rver checks the access key id but does not verify V4 signatures, so a wrong secret alone would pass.
  wrongCredentials: async () => ({
    client: await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: BUCKET, forcePathStyle: true }, { accessKeyId: 'AKIAWRONGWRONGWRONG1', secretAccessKey: 'wrong/secret+Key0123456789abcdefghijklmn' }, { timeoutMs: TIMEOUT_MS }),
    code: 'InvalidAccessKeyId',
    secret: 'wrong/secret+Key0123456789abcdefghijklmn',
  }),
  missing: () => createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'no-such-bucket', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, { timeoutMs: TIMEOUT_MS }),
};

const WRONG_ACCOUNT_KEY = Buffer.from('not the devstoreaccount1 key, but well formed base64 all the same').toString('base64');

const azureRawHeaders = async (key: string) => {
  const url = new URL(await azurite.containerSasUrl(CONTAINER));
  url.pathname += `/${encodeKey(key)}`;
  return (await fetch(url)).headers;
};

const azureConnectionStringTarget: Target = {
  name: 'Azure Blob (Azurite, connection string)',
  client: () => createAzureBlobClient({ container: CONTAINER }, { connectionString: azurite.connectionString }, { timeoutMs: TIMEOUT_MS }),
  rawHeaders: azureRawHeaders,
  metadataHeader: 'x-ms-meta-parlance_sha256',
  wrongCredentials: async () => ({
    client: await createAzureBlobClient({ container: CONTAINER }, { connectionString: azurite.connectionString.replace(azurite.accountKey, WRONG_ACCOUNT_KEY) }, { timeoutMs: TIMEOUT_MS }),
    // Real Azure answers AuthenticationFailed here; Azurite answers AuthorizationFailure.
    code: 'AuthorizationFailure',
    secret: WRONG_ACCOUNT_KEY,
  }),
  missing: () => createAzureBlobClient({ container: 'no-such-container' }, { connectionString: azurite.connectionString }, { timeoutMs: TIMEOUT_MS }),
};

const azureSasTarget: Target = {
  name: 'Azure Blob (Azurite, container SAS URL)',
  client: async () => createAzureBlobClient({ container: CONTAINER }, { sasUrl: await azurite.containerSasUrl(CONTAINER) }, { timeoutMs: TIMEOUT_MS }),
  rawHeaders: azureRawHeaders,
  metadataHeader: 'x-ms-meta-parlance_sha256',
  wrongCredentials: async () => {
    const url = new URL(await azurite.containerSasUrl(CONTAINER));
    const forged = Buffer.from('a signature the account key did not make').toString('base64');
    url.searchParams.set('sig', forged);
    return { client: await createAzureBlobClient({ container: CONTAINER }, { sasUrl: url.toString() }, { timeoutMs: TIMEOUT_MS }), code: 'AuthorizationFailure', secret: forged };
  },
  missing: async () => createAzureBlobClient({ container: 'no-such-container' }, { sasUrl: await azurite.containerSasUrl('no-such-container') }, { timeoutMs: TIMEOUT_MS }),
};

describe.each([s3Target, azureConnectionStringTarget, azureSasTarget])('$name', (target) => {
  // Each case writes under its own prefix so the cases do not see each other's objects.
  let run = 0;
  const prefix = () => `releases/${target.name.replace(/\W+/g, '-')}-${++run}`;

  it('puts an object and heads it: sha256 from metadata, size, content type, Cache-Control, under the documented metadata name', async () => {
    const client = await target.client();
    const key = `${prefix()}/de.json`;
    await client.put(key, GERMAN, { contentType: 'application/json; charset=utf-8', sha256: sha256(GERMAN), cacheControl: 'public, max-age=31536000, immutable' });
    expect(await client.head(key)).toEqual({ sha256: sha256(GERMAN), size: GERMAN.byteLength, contentType: 'application/json; charset=utf-8' });
    const headers = await target.rawHeaders(key);
    expect(headers.get(target.metadataHeader)).toBe(sha256(GERMAN));
    expect(headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('gets the exact bytes back: UTF-8 text and a 1 MB binary body', async () => {
    const client = await target.client();
    const base = prefix();
    const big = new Uint8Array(randomBytes(1024 * 1024));
    await client.put(`${base}/de.json`, GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) });
    await client.put(`${base}/big.bin`, big, { contentType: 'application/octet-stream', sha256: sha256(big) });
    expect(Buffer.from((await client.get(`${base}/de.json`))!).equals(Buffer.from(GERMAN))).toBe(true);
    const back = await client.get(`${base}/big.bin`);
    expect(back?.byteLength).toBe(big.byteLength);
    expect(sha256(back!)).toBe(sha256(big));
    expect((await client.head(`${base}/big.bin`))?.size).toBe(1024 * 1024);
  });

  it('sends a view of a larger buffer as just its own bytes', async () => {
    const client = await target.client();
    const key = `${prefix()}/slice.json`;
    const backing = utf8('xxxx{"a":"b"}yyyy');
    const view = backing.subarray(4, backing.byteLength - 4);
    await client.put(key, view, { contentType: 'application/json', sha256: sha256(view) });
    expect(new TextDecoder().decode((await client.get(key))!)).toBe('{"a":"b"}');
  });

  it('answers null for a key with nothing there, to head and get alike', async () => {
    const client = await target.client();
    expect(await client.head(`${prefix()}/missing.json`)).toBeNull();
    expect(await client.get(`${prefix()}/missing.json`)).toBeNull();
  });

  it('deletes an object, and deleting a key with nothing there is fine', async () => {
    const client = await target.client();
    const key = `${prefix()}/fr.json`;
    await client.put(key, utf8('{}'), { contentType: 'application/json', sha256: sha256(utf8('{}')) });
    await client.delete(key);
    expect(await client.head(key)).toBeNull();
    expect(await client.get(key)).toBeNull();
    await expect(client.delete(key)).resolves.toBeUndefined();
    await expect(client.delete(`${prefix()}/never-written.json`)).resolves.toBeUndefined();
  });

  it('overwrites: the sha256, size and content type are the new ones', async () => {
    const client = await target.client();
    const key = `${prefix()}/de.json`;
    const first = utf8('{"a":"1"}');
    const second = utf8('{"a":"zwei","b":"drei"}');
    await client.put(key, first, { contentType: 'application/json', sha256: sha256(first) });
    await client.put(key, second, { contentType: 'application/json; charset=utf-8', sha256: sha256(second) });
    expect(await client.head(key)).toEqual({ sha256: sha256(second), size: second.byteLength, contentType: 'application/json; charset=utf-8' });
    expect(new TextDecoder().decode((await client.get(key))!)).toBe('{"a":"zwei","b":"drei"}');
  });

  it('keeps keys with slashes, spaces, + and non-ASCII apart, each under its own prefix', async () => {
    const client = await target.client();
    const base = prefix();
    const keys = [`${base}/x/de.json`, `${base}/x/de.json.bak`, `${base}/y/de.json`, `${base}/x/pt BR/ação+1.json`];
    for (const key of keys) await client.put(key, utf8(key), { contentType: 'text/plain', sha256: sha256(utf8(key)) });
    for (const key of keys) {
      expect(new TextDecoder().decode((await client.get(key))!)).toBe(key);
      expect((await client.head(key))?.sha256).toBe(sha256(utf8(key)));
    }
    expect(await client.head(`${base}/x`)).toBeNull();
  });

  it('reads a null sha256 for an object someone else wrote without the metadata', async () => {
    const client = await target.client();
    const key = `${prefix()}/foreign.json`;
    await writeWithoutMetadata(target, key, utf8('{"by":"someone else"}'));
    expect(await client.head(key)).toEqual({ sha256: null, size: 21, contentType: 'application/json' });
  });

  it('names wrong credentials as auth, not retryable, with the target and the vendor code, and never the secret', async () => {
    const { client, code, secret } = await target.wrongCredentials();
    const error = await storageError(client.put(`${prefix()}/de.json`, GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) }));
    expect(error).toMatchObject({ kind: 'auth', retryable: false });
    expect(error.message).toContain(client.describe);
    expect(error.message).toContain(`writing 'releases/`);
    expect(error.message).toContain(code);
    expect(error.message).not.toContain(secret);
    expect(client.describe).not.toContain(secret);
    // A HEAD answer has no body to name the code in, but its status still says auth.
    expect(await storageError(client.head('releases/de.json'))).toMatchObject({ kind: 'auth', retryable: false });
    expect(await storageError(client.get('releases/de.json'))).toMatchObject({ kind: 'auth', retryable: false });
  });

  it('names a missing bucket or container as not_found for every operation, head included', async () => {
    const client = await target.missing();
    const cases: [string, () => Promise<unknown>][] = [
      ['checking', () => client.head('releases/de.json')],
      ['writing', () => client.put('releases/de.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) })],
      ['reading', () => client.get('releases/de.json')],
      ['deleting', () => client.delete('releases/de.json')],
    ];
    for (const [verb, call] of cases) {
      const error = await storageError(call());
      expect(error).toMatchObject({ kind: 'not_found', retryable: false });
      expect(error.message).toContain(`${verb} 'releases/de.json'`);
      expect(error.message).toMatch(/no (bucket|container) 'no-such-(bucket|container)'/);
    }
  });

  it("rethrows the caller's abort as its reason, not as a storage failure", async () => {
    const client = await target.client();
    const controller = new AbortController();
    const reason = new Error('sync cancelled');
    controller.abort(reason);
    await expect(client.head('releases/de.json', controller.signal)).rejects.toBe(reason);
  });

  it('rejects an empty or rooted key and a malformed sha256 before any request', async () => {
    const client = await target.client();
    expect((await storageError(client.head(''))).message).toMatch(/Invalid object key ''/);
    expect((await storageError(client.get('/releases/de.json'))).message).toMatch(/Invalid object key '\/releases\/de.json'.*Expected a relative path/);
    const error = await storageError(client.put('releases/de.json', GERMAN, { contentType: 'application/json', sha256: 'ABC' }));
    expect(error).toMatchObject({ kind: 'other', retryable: false });
    expect(error.message).toContain("Invalid sha256 'ABC'");
  });
});

/** Replaces `key` with a write that records no metadata, through the vendor's API rather than the client under test. */
async function writeWithoutMetadata(target: Target, key: string, body: Uint8Array): Promise<void> {
  if (target === s3Target) {
    // s3rver takes unsigned requests, so a plain PUT stands in for a person's upload.
    const res = await fetch(`${s3.endpoint}/${BUCKET}/${encodeKey(key)}`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    return;
  }
  const url = new URL(await azurite.containerSasUrl(CONTAINER));
  url.pathname += `/${encodeKey(key)}`;
  const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/json', 'x-ms-blob-type': 'BlockBlob', 'x-ms-version': '2021-08-06' } });
  expect(res.status).toBe(201);
}

describe('S3 addressing', () => {
  it('reaches s3rver by IP with forcePathStyle off too: the SDK keeps the bucket in the path for an IP endpoint', async () => {
    const client = await createS3Client({ endpoint: `${s3.endpoint}/`, region: 'us-east-1', bucket: BUCKET, forcePathStyle: false }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, { timeoutMs: TIMEOUT_MS });
    expect(client.describe).toBe(`s3://${BUCKET} at ${s3.endpoint} (us-east-1)`);
    await client.put('releases/vhost/de.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) });
    expect((await client.head('releases/vhost/de.json'))?.sha256).toBe(sha256(GERMAN));
  });

  it('describes an AWS bucket by its regional endpoint', async () => {
    const client = await createS3Client({ region: 'eu-central-1', bucket: 'acme-translations', forcePathStyle: false }, { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' });
    expect(client.describe).toBe('s3://acme-translations at https://s3.eu-central-1.amazonaws.com (eu-central-1)');
  });
});

describe('invalid settings', () => {
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const s3Settings = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: BUCKET, forcePathStyle: true };

  it.each([
    [{ ...s3Settings, bucket: '' }, /Invalid S3 bucket ''.*Expected a bucket name/],
    [{ ...s3Settings, bucket: 'releases/de' }, /Invalid S3 bucket 'releases\/de'/],
    [{ ...s3Settings, region: '' }, /Invalid S3 region ''.*'us-east-1'/],
    [{ ...s3Settings, endpoint: 'not a url' }, /Invalid S3 endpoint 'not a url' for bucket 'parlance-releases'.*Expected an http\(s\) URL/],
    [{ ...s3Settings, endpoint: 'ftp://storage.example.com' }, /Invalid S3 endpoint 'ftp:\/\/storage.example.com'/],
    [{ ...s3Settings, endpoint: 'https://storage.example.com/?x=1' }, /without query or fragment/],
  ])('S3 %#: %s', async (settings, message) => {
    const error = await storageError(createS3Client(settings, credentials));
    expect(error).toMatchObject({ kind: 'other', retryable: false });
    expect(error.message).toMatch(message);
  });

  it('S3: an endpoint with a password in it is refused without quoting it', async () => {
    const error = await storageError(createS3Client({ ...s3Settings, endpoint: 'https://admin:hunter22@storage.example.com' }, credentials));
    expect(error.message).toMatch(/contains a user name or password/);
    expect(error.message).not.toContain('hunter22');
  });

  it('S3: empty credentials are named without printing them', async () => {
    const error = await storageError(createS3Client(s3Settings, { accessKeyId: '', secretAccessKey: 'x' }));
    expect(error.message).toMatch(/Missing S3 credentials for s3:\/\/parlance-releases at http:\/\/127.0.0.1:1/);
  });

  it.each([
    ['', /Invalid Azure container ''/],
    ['ab', /Invalid Azure container 'ab'.*3 to 63 lowercase/],
    ['Releases', /Invalid Azure container 'Releases'/],
    ['double--hyphen', /Invalid Azure container 'double--hyphen'/],
  ])('Azure container %j', async (container, message) => {
    const error = await storageError(createAzureBlobClient({ container }, { connectionString: azurite.connectionString }));
    expect(error).toMatchObject({ kind: 'other', retryable: false });
    expect(error.message).toMatch(message);
  });

  it('Azure: the $web container of a static website is a valid target', async () => {
    const client = await createAzureBlobClient({ container: '$web' }, { connectionString: azurite.connectionString });
    expect(client.describe).toBe(`azure container '$web' at ${azurite.accountUrl}`);
  });

  it.each([
    ['', /it has no Name=value parts/],
    ['hello world', /it has no Name=value parts/],
    ['AccountName=acme;EndpointSuffix=core.windows.net', /neither AccountKey nor SharedAccessSignature/],
    ['AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net', /an AccountKey but no AccountName/],
    ['AccountName=acme;AccountKey=not*base64!', /AccountKey is not base64/],
    ['AccountName=acme;AccountKey=c2VjcmV0;BlobEndpoint=::nope', /BlobEndpoint '::nope' is not a URL/],
  ])('Azure connection string %#', async (connectionString, message) => {
    const error = await storageError(createAzureBlobClient({ container: CONTAINER }, { connectionString }));
    expect(error).toMatchObject({ kind: 'other', retryable: false });
    expect(error.message).toMatch(/^Invalid Azure connection string for container 'parlance-releases': /);
    expect(error.message).toMatch(message);
    expect(error.message).toContain("Expected 'DefaultEndpointsProtocol=https;AccountName=<account>;AccountKey=<key>");
    if (connectionString.includes('c2VjcmV0')) expect(error.message).not.toContain('c2VjcmV0');
  });

  it('Azure: an account connection string without BlobEndpoint points at the public endpoint for its suffix', async () => {
    const client = await createAzureBlobClient({ container: CONTAINER }, { connectionString: 'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net' });
    expect(client.describe).toBe("azure container 'parlance-releases' at https://acme.blob.core.windows.net");
  });

  it("Azure: 'UseDevelopmentStorage=true' means Azurite's well-known account on its default port", async () => {
    const client = await createAzureBlobClient({ container: CONTAINER }, { connectionString: 'UseDevelopmentStorage=true' });
    expect(client.describe).toBe("azure container 'parlance-releases' at http://127.0.0.1:10000/devstoreaccount1");
  });

  it('Azure: a SAS URL for another container says that the two differ', async () => {
    const sasUrl = await azurite.containerSasUrl('other-container');
    const error = await storageError(createAzureBlobClient({ container: CONTAINER }, { sasUrl }));
    expect(error.message).toBe(`The Azure SAS URL is for container 'other-container' but the target's container is '${CONTAINER}' (at ${azurite.accountUrl}). Use a SAS for '${CONTAINER}' or an account SAS.`);
  });

  it('Azure: a SAS URL without a token, or of a blob, is refused without quoting its query', async () => {
    const noToken = await storageError(createAzureBlobClient({ container: CONTAINER }, { sasUrl: `${azurite.accountUrl}/${CONTAINER}?sv=2021-08-06` }));
    expect(noToken.message).toMatch(/its query has no SAS token \(no 'sig' parameter\)/);
    const sas = new URL(await azurite.containerSasUrl(CONTAINER));
    const blob = await storageError(createAzureBlobClient({ container: CONTAINER }, { sasUrl: `${azurite.accountUrl}/${CONTAINER}/de.json${sas.search}` }));
    expect(blob.message).toMatch(/points at a blob, not at a container/);
    expect(blob.message).not.toContain(sas.searchParams.get('sig')!);
    expect((await storageError(createAzureBlobClient({ container: CONTAINER }, { sasUrl: 'sig=abc' }))).message).toMatch(/Invalid Azure SAS URL for container 'parlance-releases': it is not a URL/);
  });

  it('Azure: a SAS URL of the account is used with the settings container', async () => {
    const container = new URL(await azurite.containerSasUrl(CONTAINER));
    const client = await createAzureBlobClient({ container: CONTAINER }, { sasUrl: `${azurite.accountUrl}${container.search}` }, { timeoutMs: TIMEOUT_MS });
    // The token is a container SAS for this very container, so it works from the account URL as well.
    await client.put('releases/account-sas/de.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) });
    expect((await client.head('releases/account-sas/de.json'))?.sha256).toBe(sha256(GERMAN));
  });

  it('Azure: accountUrl in the settings must agree with the credentials', async () => {
    const agreeing = await createAzureBlobClient({ container: CONTAINER, accountUrl: `${azurite.accountUrl}/` }, { connectionString: azurite.connectionString });
    expect(agreeing.describe).toBe(`azure container '${CONTAINER}' at ${azurite.accountUrl}`);
    const error = await storageError(createAzureBlobClient({ container: CONTAINER, accountUrl: 'https://acme.blob.core.windows.net' }, { connectionString: azurite.connectionString }));
    expect(error.message).toBe(`The account URL 'https://acme.blob.core.windows.net' differs from the one the credentials for container '${CONTAINER}' point at, ${azurite.accountUrl}. Correct one of them.`);
  });
});

type ScriptedReply = { status: number; headers: Record<string, string>; body: string } | 'hang' | 'reset';

/** A server on 127.0.0.1 that answers every request as `reply` says: a status with headers and body, never ('hang'), or by dropping the connection ('reset'). */
async function startScriptedServer(): Promise<{ url: string; reply: ScriptedReply; close(): Promise<void> }> {
  const state: { reply: ScriptedReply } = { reply: 'hang' };
  const server = http.createServer((req, res) => {
    req.resume();
    const reply = state.reply;
    if (reply === 'hang') return;
    if (reply === 'reset') return void req.socket.destroy();
    req.on('end', () => res.writeHead(reply.status, reply.headers).end(req.method === 'HEAD' ? undefined : reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get reply() {
      return state.reply;
    },
    set reply(value) {
      state.reply = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('answers only a scripted server gives', async () => {
  const scripted = await startScriptedServer();
  afterAll(() => scripted.close());
  afterEach(() => {
    scripted.reply = 'hang';
  });
  const s3Client = () => createS3Client({ endpoint: scripted.url, region: 'us-east-1', bucket: BUCKET, forcePathStyle: true }, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, { timeoutMs: 500 });
  const azureClient = () => createAzureBlobClient({ container: CONTAINER }, { connectionString: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${azurite.accountKey};BlobEndpoint=${scripted.url}/devstoreaccount1` }, { timeoutMs: 500 });
  const xml = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

  it.each([
    ['S3', s3Client],
    ['Azure', azureClient],
  ])('%s: a server that never answers is unreachable and retryable once the timeout passes', async (_, client) => {
    const c = await client();
    const started = Date.now();
    const error = await storageError(c.get('releases/de.json'));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toMatchObject({ kind: 'unreachable', retryable: true });
    expect(error.message).toContain(`did not answer within 500 ms reading 'releases/de.json' from ${c.describe}`);
  });

  it.each([
    ['S3', s3Client],
    ['Azure', azureClient],
  ])('%s: a dropped connection ("socket hang up", which the S3 SDK names TimeoutError) is unreachable, not a timeout', async (_, client) => {
    scripted.reply = 'reset';
    const c = await client();
    const error = await storageError(c.head('releases/de.json'));
    expect(error).toMatchObject({ kind: 'unreachable', retryable: true });
    expect(error.message).toMatch(new RegExp(`^Could not reach (S3|Azure Blob Storage) checking 'releases/de.json' in .*: socket hang up`));
  });

  it('S3: SlowDown with Retry-After is throttled and carries the wait', async () => {
    scripted.reply = { status: 503, headers: { 'content-type': 'application/xml', 'retry-after': '7' }, body: xml('SlowDown', 'Please reduce your request rate.') };
    const error = await storageError((await s3Client()).put('releases/de.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) }));
    expect(error).toMatchObject({ kind: 'throttled', retryable: true, retryAfterMs: 7_000 });
    expect(error.message).toMatch(/^S3 is throttling requests writing 'releases\/de.json' to s3:\/\/parlance-releases at http:\/\/127.0.0.1:\d+ \(us-east-1\): SlowDown: Please reduce your request rate.$/);
  });

  it('Azure: ServerBusy is throttled', async () => {
    scripted.reply = { status: 503, headers: { 'content-type': 'application/xml', 'x-ms-error-code': 'ServerBusy' }, body: xml('ServerBusy', 'The server is busy.') };
    const error = await storageError((await azureClient()).put('releases/de.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) }));
    expect(error).toMatchObject({ kind: 'throttled', retryable: true });
    expect(error.message).toContain('ServerBusy: The server is busy.');
  });

  it('S3: a 500 is other but retryable; a 400 is other and final', async () => {
    scripted.reply = { status: 500, headers: { 'content-type': 'application/xml' }, body: xml('InternalError', 'We encountered an internal error. Please try again.') };
    const server = await storageError((await s3Client()).get('releases/de.json'));
    expect(server).toMatchObject({ kind: 'other', retryable: true });
    expect(server.message).toContain('HTTP 500 InternalError: We encountered an internal error. Please try again.');
    scripted.reply = { status: 400, headers: { 'content-type': 'application/xml' }, body: xml('InvalidArgument', 'Invalid argument.') };
    expect(await storageError((await s3Client()).get('releases/de.json'))).toMatchObject({ kind: 'other', retryable: false });
  });

  it('Azure: a 500 is other but retryable', async () => {
    scripted.reply = { status: 500, headers: { 'content-type': 'application/xml', 'x-ms-error-code': 'InternalError' }, body: xml('InternalError', 'The server encountered an internal error.') };
    const error = await storageError((await azureClient()).get('releases/de.json'));
    expect(error).toMatchObject({ kind: 'other', retryable: true });
    expect(error.message).toContain('HTTP 500 InternalError: The server encountered an internal error.');
  });
});

describe.each([
  ['S3 (s3rver)', s3Target.client, s3],
  ['Azure Blob (Azurite)', azureConnectionStringTarget.client, azurite],
] as const)('%s going down and coming back', (_, makeClient, server) => {
  it('is unreachable and retryable while down, within the timeout, then the same client works again with the data intact', async () => {
    const client = await makeClient();
    const key = 'releases/restart/de.json';
    await client.put(key, GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) });
    await server.halt();
    try {
      for (const call of [() => client.head(key), () => client.put(key, GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) }), () => client.get(key)]) {
        const started = Date.now();
        const error = await storageError(call());
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 500);
        expect(error).toMatchObject({ kind: 'unreachable', retryable: true });
        expect(error.message).toContain(client.describe);
      }
    } finally {
      await server.restart();
    }
    expect(await client.head(key)).toEqual({ sha256: sha256(GERMAN), size: GERMAN.byteLength, contentType: 'application/json' });
    expect(Buffer.from((await client.get(key))!).equals(Buffer.from(GERMAN))).toBe(true);
  });

  it('restart() while running keeps the port and the data', async () => {
    const client = await makeClient();
    await client.put('releases/restart/fr.json', GERMAN, { contentType: 'application/json', sha256: sha256(GERMAN) });
    await server.restart();
    expect((await client.head('releases/restart/fr.json'))?.sha256).toBe(sha256(GERMAN));
  });
});
