/**
 * Storage targets never reach the service's own network: an S3 endpoint, an Azure account URL and the address inside
 * Azure credentials (connection string, SAS URL) are refused when saved in every literal form (loopback, private,
 * link-local, IPv6, IPv4-mapped, hex), and again when the sync connects (a name that answers a public address first and
 * 127.0.0.1 next fails the sync for good, unretried), with a listener on the port receiving nothing; every request of
 * both SDKs goes through the guarded agents; and once the operator allows 127.0.0.0/8, the same targets sync.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureBlobClient } from '../../server/delivery/storage/azure-blob-client.js';
import { createS3Client } from '../../server/delivery/storage/s3-client.js';
import { StorageError, type StorageClient } from '../../server/delivery/storage/storage-client.js';
import { ANY_ADDRESS, PUBLIC_ONLY, type Resolver } from '../../server/net/address-guard.js';
import { createOutbound } from '../../server/net/outbound.js';
import { AZURITE_ACCOUNT_KEY, AZURITE_ACCOUNT_NAME, startAzurite, startS3rver, type AzuriteHandle, type S3rverHandle } from '../helpers/storage-servers.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const SERVICE_ENV = {
  PARLANCE_SECRET_KEY: 'b'.repeat(64),
  // Short waits, so that a refusal wrongly taken for a passing outage would show as a second attempt within the test.
  STORAGE_SYNC_RETRY_DELAYS: '200ms,200ms,200ms',
  STORAGE_SYNC_TIMEOUT_MS: '2000',
  STORAGE_SYNC_POLL_MS: '100',
  RATE_LIMIT_PER_MINUTE: '100000',
};
const PUBLIC_ADDRESS = '93.184.215.14';
const SETTING = 'OUTBOUND_ALLOW_PRIVATE_ADDRESSES';

interface Listener {
  port: number;
  url: string;
  /** Connections accepted, whether or not a request followed. */
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

/** A server on every loopback form of one port (dual-stack `::`, so 127.0.0.1, ::1 and ::ffff:127.0.0.1 all reach it) that records what reaches it. */
async function listen(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(200).end('listener body')): Promise<Listener> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  const listener: Listener = {
    port: 0,
    url: '',
    connections: 0,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => listener.connections++);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '::', resolve));
  listener.port = (server.address() as AddressInfo).port;
  listener.url = `http://127.0.0.1:${listener.port}`;
  return listener;
}

/**
 * DNS for the test: a name under `.rebind.test` answers a public address on its first lookup (the check when the
 * target is saved) and 127.0.0.1 on every later one (the sync's connection); a name under `.public.test` is always
 * public; anything else goes to the system.
 */
function testResolver() {
  const lookups = new Map<string, number>();
  const resolver: Resolver = (hostname, options, callback) => {
    const seen = lookups.get(hostname) ?? 0;
    lookups.set(hostname, seen + 1);
    const answer = (address: string) => process.nextTick(callback, null, [{ address, family: 4 } satisfies LookupAddress]);
    if (hostname.endsWith('.rebind.test')) return answer(seen === 0 ? PUBLIC_ADDRESS : '127.0.0.1');
    if (hostname.endsWith('.public.test')) return answer(PUBLIC_ADDRESS);
    dnsLookup(hostname, options, callback);
  };
  return { resolver, lookups: (hostname: string) => lookups.get(hostname) ?? 0 };
}

/** Every literal form of an address the service must not reach, with the range the refusal names. */
const literals = (port: number): [string, string][] => [
  [`http://127.0.0.1:${port}`, 'loopback'],
  ['http://10.0.0.1', 'private'],
  ['http://172.16.0.1', 'private'],
  ['http://192.168.1.1', 'private'],
  ['http://169.254.169.254', 'link-local (cloud metadata)'],
  [`http://[::1]:${port}`, 'loopback'],
  [`http://[::ffff:127.0.0.1]:${port}`, 'IPv4-mapped loopback'],
  [`http://0x7f000001:${port}`, 'loopback'],
];

const connectionString = (blobEndpoint: string) => `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT_NAME};AccountKey=${AZURITE_ACCOUNT_KEY};BlobEndpoint=${blobEndpoint};`;
/** Credentials of a public account (the test resolver answers a public address for it). */
const PUBLIC_AZURE = { connection_string: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${AZURITE_ACCOUNT_KEY};EndpointSuffix=public.test` };
const FAKE_SAS = 'sv=2021-08-06&sr=c&sp=racwdl&sig=c2lnbmF0dXJl';

/** A target body for each address field: the field the refusal names, and the target with `address` in that field. */
const fields: [field: string, target: (address: string) => Record<string, unknown>][] = [
  ['s3.endpoint', (address) => ({ kind: 's3', name: 'S3', s3: { endpoint: address, region: 'us-east-1', bucket: 'releases', force_path_style: true }, credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' } })],
  ['azure_blob.account_url', (address) => ({ kind: 'azure_blob', name: 'Azure', azure_blob: { container: 'releases', account_url: `${address}/${AZURITE_ACCOUNT_NAME}` }, credentials: PUBLIC_AZURE })],
  ['credentials.connection_string', (address) => ({ kind: 'azure_blob', name: 'Azure (key)', azure_blob: { container: 'releases' }, credentials: { connection_string: connectionString(`${address}/${AZURITE_ACCOUNT_NAME}`) } })],
  ['credentials.sas_url', (address) => ({ kind: 'azure_blob', name: 'Azure (SAS)', azure_blob: { container: 'releases' }, credentials: { sas_url: `${address}/${AZURITE_ACCOUNT_NAME}/releases?${FAKE_SAS}` } })],
];

interface Sync {
  release: number;
  status: string;
  attempts: number;
  error: string | null;
  log: { message: string }[];
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function problem(res: Response): Promise<{ status: number; code: string; detail: string; field?: string; range?: string }> {
  return { status: res.status, ...((await res.json()) as { code: string; detail: string; field?: string; range?: string }) };
}

/** Starts a service with two keys translated into three locales, so that a release has objects to sync. */
async function seededService(env: Record<string, string>, resolver: Resolver): Promise<TestService> {
  const service = await startService({ env: { ...SERVICE_ENV, ...env }, resolver });
  const batch = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'home.title', source: 'Welcome' }, { key: 'home.bye', source: 'Goodbye' }], locales: ['de', 'fr', 'ja'] } }), 202);
  expect((await waitForBatch(service, batch.id)).status).toBe('completed');
  return service;
}

async function createTarget(service: TestService, body: Record<string, unknown>): Promise<string> {
  return (await json<{ id: string }>(await service.api('/v1/storage-targets', { method: 'POST', json: body }), 201)).id;
}

async function publish(service: TestService): Promise<number> {
  const res = await service.api('/v1/releases', { method: 'POST' });
  const text = await res.text();
  expect([200, 201], text).toContain(res.status);
  return (JSON.parse(text) as { release: { number: number } }).release.number;
}

/** Waits until the target's sync of `release` has ended, and returns it. */
async function syncEnded(service: TestService, targetId: string, release: number, timeoutMs = 20_000): Promise<Sync> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await json<{ items: Sync[] }>(await service.api(`/v1/storage-targets/${targetId}/syncs`));
    const sync = items.find((s) => s.release === release);
    if (sync && ['succeeded', 'failed', 'superseded'].includes(sync.status)) return sync;
    if (Date.now() > deadline) throw new Error(`sync of release ${release} to ${targetId} did not end: ${JSON.stringify(items.slice(0, 2))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function removeTargets(service: TestService, ids: string[]): Promise<void> {
  for (const id of ids) expect((await service.api(`/v1/storage-targets/${id}`, { method: 'DELETE' })).status).toBe(204);
}

let s3: S3rverHandle;
let azurite: AzuriteHandle;
let listener: Listener;

beforeAll(async () => {
  [s3, azurite, listener] = await Promise.all([startS3rver(), startAzurite(), listen()]);
  await s3.createBucket('releases');
  await azurite.createContainer('releases');
}, 60_000);
afterAll(async () => {
  await Promise.all([s3?.stop(), azurite?.stop(), listener?.close()]);
});

describe(`private addresses not allowed (${SETTING}=false)`, () => {
  let service: TestService;
  let dns: ReturnType<typeof testResolver>;

  beforeAll(async () => {
    dns = testResolver();
    service = await seededService({ [SETTING]: 'false' }, dns.resolver);
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
  });

  it.each(fields)('refuses every literal form in %s when the target is saved, naming the field and the range', async (field, target) => {
    for (const [address, range] of literals(listener.port)) {
      const refused = await problem(await service.api('/v1/storage-targets', { method: 'POST', json: target(address) }));
      expect(refused, address).toMatchObject({ status: 422, code: 'address_refused', field, range });
      expect(refused.detail, address).toMatch(new RegExp(`^${field.replace('.', '\\.')}: .* host \\S+ is in the ${range.replace(/[()]/g, '\\$&')} range; Parlance connects to public addresses only \\(an operator allows private ones with ${SETTING}\\)$`));
      // Neither the key nor the SAS token is quoted back.
      expect(refused.detail).not.toContain(AZURITE_ACCOUNT_KEY);
      expect(refused.detail).not.toContain('c2lnbmF0dXJl');
    }
    expect((await json<{ items: unknown[] }>(await service.api('/v1/storage-targets'))).items).toEqual([]);
    expect(listener.connections).toBe(0);
  });

  it('refuses them in a PATCH too: the S3 endpoint, the account URL and rotated credentials', async () => {
    const s3Id = await createTarget(service, { kind: 's3', name: 'AWS', enabled: false, s3: { region: 'eu-central-1', bucket: 'acme-translations' }, credentials: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'secret' } });
    const azureId = await createTarget(service, { kind: 'azure_blob', name: 'Azure', enabled: false, azure_blob: { container: 'releases' }, credentials: PUBLIC_AZURE });
    const patches: [string, string, Record<string, unknown>][] = [
      [s3Id, 's3.endpoint', { s3: { endpoint: listener.url } }],
      [azureId, 'azure_blob.account_url', { azure_blob: { account_url: `http://169.254.169.254/${AZURITE_ACCOUNT_NAME}` } }],
      [azureId, 'credentials.sas_url', { credentials: { sas_url: `http://[::1]:${listener.port}/${AZURITE_ACCOUNT_NAME}/releases?${FAKE_SAS}` } }],
      [azureId, 'credentials.connection_string', { credentials: { connection_string: 'UseDevelopmentStorage=true' } }],
    ];
    for (const [id, field, patch] of patches) {
      const refused = await problem(await service.api(`/v1/storage-targets/${id}`, { method: 'PATCH', json: patch }));
      expect(refused, field).toMatchObject({ status: 422, code: 'address_refused', field });
    }
    // Nothing changed: the targets keep what they had.
    const s3Target = await json<{ s3: { endpoint: string | null }; credentials: { hint: string } }>(await service.api(`/v1/storage-targets/${s3Id}`));
    expect(s3Target.s3.endpoint).toBeNull();
    const azureTarget = await json<{ azure_blob: { account_url: string | null }; credentials: { hint: string } }>(await service.api(`/v1/storage-targets/${azureId}`));
    expect(azureTarget.azure_blob.account_url).toBeNull();
    // A public address passes.
    await json(await service.api(`/v1/storage-targets/${s3Id}`, { method: 'PATCH', json: { s3: { endpoint: 'https://storage.public.test' } } }));
    await removeTargets(service, [s3Id, azureId]);
    expect(listener.connections).toBe(0);
  });

  it('fails the sync for good when a name that passed the check resolves to 127.0.0.1 at connect time; nothing reaches the listener', async () => {
    const targets = {
      's3.rebind.test': await createTarget(service, fields[0]![1](`http://s3.rebind.test:${listener.port}`)),
      'key.rebind.test': await createTarget(service, fields[2]![1](`http://key.rebind.test:${listener.port}`)),
      'sas.rebind.test': await createTarget(service, { kind: 'azure_blob', name: 'Azure (SAS)', azure_blob: { container: 'releases' }, credentials: { sas_url: `http://sas.rebind.test:${listener.port}/releases?${FAKE_SAS}` } }),
    };
    const number = await publish(service);
    for (const [host, id] of Object.entries(targets)) {
      const sync = await syncEnded(service, id, number);
      expect(sync, host).toMatchObject({ status: 'failed', attempts: 1 });
      expect(sync.error, host).toMatch(new RegExp(`^Parlance did not connect to (S3|Azure Blob Storage) checking '[^']+' in .+: blocked address 127\\.0\\.0\\.1 \\(loopback\\) resolved from ${host.replace(/\./g, '\\.')}; Parlance connects to public addresses only \\(an operator allows private ones with ${SETTING}\\)\\.$`));
      expect(sync.log.map((l) => l.message).join('\n')).not.toContain('retrying');
      const target = await json<{ status: string; last_error: string }>(await service.api(`/v1/storage-targets/${id}`));
      expect(target).toMatchObject({ status: 'failed', last_error: sync.error });
      // One lookup when the target was saved (public), one when the sync connected (refused).
      expect(dns.lookups(host), host).toBe(2);
    }
    expect(listener.connections).toBe(0);
    expect(listener.requests).toEqual([]);
    await removeTargets(service, Object.values(targets));
  });
});

describe('every request of both SDKs goes through the guarded agents', () => {
  const BODY = new TextEncoder().encode('{"home.title":"Willkommen"}');
  const SHA256 = 'a'.repeat(64);
  type Agents = ReturnType<ReturnType<typeof createOutbound>['agents']>;
  const clients: [string, (agents: Agents) => Promise<StorageClient>][] = [
    ['S3', (agents) => createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, { timeoutMs: 2000, agents })],
    ['Azure with a shared key', (agents) => createAzureBlobClient({ container: 'releases' }, { connectionString: azurite.connectionString }, { timeoutMs: 2000, agents })],
    ['Azure with a SAS', async (agents) => createAzureBlobClient({ container: 'releases' }, { sasUrl: await azurite.containerSasUrl('releases') }, { timeoutMs: 2000, agents })],
  ];

  it.each(clients)('%s: head, put, get and delete are each refused before connecting, though the server is up', async (_name, client) => {
    const storage = await client(createOutbound({ allowPrivate: PUBLIC_ONLY }).agents());
    const operations = [() => storage.head('guard/de.json'), () => storage.put('guard/de.json', BODY, { contentType: 'application/json', sha256: SHA256 }), () => storage.get('guard/de.json'), () => storage.delete('guard/de.json')];
    for (const operation of operations) {
      const error = await operation().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).message).toContain(`: blocked address 127.0.0.1 (loopback); Parlance connects to public addresses only (an operator allows private ones with ${SETTING}).`);
      expect((error as StorageError).retryable).toBe(false);
    }
    storage.close();
  });

  it.each(clients)('%s: through agents that allow 127.0.0.1, a put and a get go through, on the agents’ own connections', async (_name, client) => {
    const agents = createOutbound({ allowPrivate: ANY_ADDRESS }).agents();
    const storage = await client(agents);
    await storage.put('guard/de.json', BODY, { contentType: 'application/json', sha256: SHA256 });
    expect(await storage.get('guard/de.json')).toEqual(BODY);
    storage.close();
    // The kept-alive connection is the agent's, and closing the client left the shared agent alone.
    expect(Object.keys(agents.http.freeSockets).join(' ')).toContain('127.0.0.1:');
  });

  it('Azure: a proxy from HTTP_PROXY does not take the guarded agent’s place (it would resolve the name out of the guard’s sight)', async () => {
    const before = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = listener.url;
    try {
      const storage = await createAzureBlobClient({ container: 'releases' }, { connectionString: azurite.connectionString }, { timeoutMs: 2000, agents: createOutbound({ allowPrivate: PUBLIC_ONLY }).agents() });
      const error = await storage.head('guard/de.json').then(() => undefined, (e: unknown) => e);
      expect((error as StorageError).message).toContain('blocked address 127.0.0.1 (loopback)');
    } finally {
      if (before === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = before;
    }
    expect(listener.connections).toBe(0);
  });
});

describe(`the operator allows 127.0.0.0/8 (${SETTING}=127.0.0.0/8)`, () => {
  let service: TestService;

  beforeAll(async () => {
    service = await seededService({ [SETTING]: '127.0.0.0/8' }, testResolver().resolver);
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('accepts the 127.0.0.1 targets refused above, and a release syncs to s3rver and Azurite; other private ranges stay refused', async () => {
    const targets = [
      await createTarget(service, { kind: 's3', name: 'S3 (s3rver)', s3: { endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', force_path_style: true }, credentials: { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey }, prefix: 'allowed' }),
      await createTarget(service, { kind: 'azure_blob', name: 'Azure (key)', azure_blob: { container: 'releases', account_url: azurite.accountUrl }, credentials: { connection_string: azurite.connectionString }, prefix: 'allowed-key' }),
      await createTarget(service, { kind: 'azure_blob', name: 'Azure (SAS)', azure_blob: { container: 'releases' }, credentials: { sas_url: await azurite.containerSasUrl('releases') }, prefix: 'allowed-sas' }),
    ];
    const number = await publish(service);
    for (const id of targets) expect(await syncEnded(service, id, number), id).toMatchObject({ status: 'succeeded', attempts: 1 });
    const bucket = await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const container = await createAzureBlobClient({ container: 'releases' }, { connectionString: azurite.connectionString });
    expect((JSON.parse(new TextDecoder().decode((await bucket.get('allowed/manifest.json'))!)) as { release: number }).release).toBe(number);
    expect((JSON.parse(new TextDecoder().decode((await container.get('allowed-key/manifest.json'))!)) as { release: number }).release).toBe(number);
    expect((JSON.parse(new TextDecoder().decode((await container.get('allowed-sas/manifest.json'))!)) as { release: number }).release).toBe(number);
    bucket.close();
    container.close();
    await removeTargets(service, targets);

    for (const [field, target] of fields) {
      expect(await problem(await service.api('/v1/storage-targets', { method: 'POST', json: target('http://10.0.0.1') })), field).toMatchObject({ status: 422, code: 'address_refused', field, range: 'private' });
    }
  });

  it('follows no redirect to another origin: the address it names receives nothing, even one the operator allows', async () => {
    // The AWS SDK follows no redirects at all; Azure's pipeline follows only those to the same origin (scheme, host and
    // port), which go to the address already checked, through the same guarded agent.
    const redirector = await listen((req, res) => res.writeHead(307, { location: `${listener.url}${req.url ?? '/'}` }).end('redirected'));
    try {
      const targets = {
        s3: await createTarget(service, fields[0]![1](redirector.url)),
        azure: await createTarget(service, fields[2]![1](`${redirector.url}/${AZURITE_ACCOUNT_NAME}`)),
      };
      // A release exists (when the test above ran, this one: nothing changed since), and each target is asked to sync it.
      await publish(service);
      for (const [name, id] of Object.entries(targets)) {
        const { release } = await json<Sync>(await service.api(`/v1/storage-targets/${id}/sync`, { method: 'POST' }), 202);
        const sync = await syncEnded(service, id, release);
        expect(sync, name).toMatchObject({ status: 'failed', attempts: 1 });
        expect(sync.error, name).toContain('307');
        expect(sync.error, name).not.toContain('redirected');
      }
      expect(redirector.requests.length).toBeGreaterThanOrEqual(2);
      expect(listener.connections).toBe(0);
      await removeTargets(service, Object.values(targets));
    } finally {
      await redirector.close();
    }
  });
});
