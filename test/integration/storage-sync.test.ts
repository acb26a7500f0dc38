/**
 * Storage targets end to end against real servers on 127.0.0.1: s3rver for S3-compatible storage and Azurite for
 * Azure Blob. Publish and sync; change one translation and publish again (only that locale's object and the
 * manifest are written); the target down and back; bad credentials and their rotation; a sync that fails partway
 * (with `{hash}` keys the old release stays whole); PATCH merging settings; the API's validation and secrecy,
 * credentials encrypted at rest; a free-plan organisation with its console credential.
 */
import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureBlobClient } from '../../server/delivery/storage/azure-blob-client.js';
import { createS3Client } from '../../server/delivery/storage/s3-client.js';
import type { StorageClient } from '../../server/delivery/storage/storage-client.js';
import { startAzurite, startS3rver, type AzuriteHandle, type S3rverHandle } from '../helpers/storage-servers.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const SECRET_KEY = 'a'.repeat(64);
let service: TestService;
let s3: S3rverHandle;
let azurite: AzuriteHandle;
let bucket: StorageClient;

interface Target {
  id: string;
  status: string;
  last_error: string | null;
  last_release_number: number | null;
  credentials: { hint: string };
}
interface Sync {
  id: string;
  release: number;
  status: string;
  attempts: number;
  uploaded: number;
  unchanged: number;
  error: string | null;
  log: { message: string }[];
}

beforeAll(async () => {
  [s3, azurite] = await Promise.all([startS3rver(), startAzurite()]);
  await s3.createBucket('releases');
  await azurite.createContainer('releases');
  await azurite.createContainer('sas-releases');
  service = await startService({
    env: { PARLANCE_SECRET_KEY: SECRET_KEY, STORAGE_SYNC_RETRY_DELAYS: '300ms,300ms,300ms,500ms,1s,2s', STORAGE_SYNC_TIMEOUT_MS: '2000', STORAGE_SYNC_POLL_MS: '100', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  bucket = await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
  const batch = await json<BatchBody>(
    await service.api('/v1/push', {
      method: 'POST',
      json: { keys: [{ key: 'sync.title', source: 'Welcome' }, { key: 'sync.bye', source: 'Goodbye' }], locales: ['de', 'fr', 'ja'] },
    }),
    202,
  );
  expect((await waitForBatch(service, batch.id)).status).toBe('completed');
});
afterAll(async () => {
  bucket?.close();
  await service?.stop();
  await Promise.all([s3?.stop(), azurite?.stop()]);
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const s3Target = (extra: Record<string, unknown> = {}) => ({
  kind: 's3',
  name: 'S3 (s3rver)',
  s3: { endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', force_path_style: true },
  credentials: { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey },
  prefix: 'i18n/web',
  cache_control: 'public, max-age=300',
  ...extra,
});

async function publish(): Promise<number> {
  const res = await service.api('/v1/releases', { method: 'POST' });
  const body = (await res.json()) as { release: { number: number } };
  expect([200, 201]).toContain(res.status);
  return body.release.number;
}

/** Waits until the target's newest sync of `release` has ended, and returns it. */
async function syncEnded(targetId: string, release: number, timeoutMs = 20_000): Promise<Sync> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await json<{ items: Sync[] }>(await service.api(`/v1/storage-targets/${targetId}/syncs`));
    const sync = items.find((s) => s.release === release);
    if (sync && ['succeeded', 'failed', 'superseded'].includes(sync.status)) return sync;
    if (Date.now() > deadline) throw new Error(`sync of release ${release} to ${targetId} did not end: ${JSON.stringify(items.slice(0, 2))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function target(id: string): Promise<Target> {
  return json<Target>(await service.api(`/v1/storage-targets/${id}`));
}

const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);
const uploads = (sync: Sync) => sync.log.map((l) => /^uploaded (\S+)/.exec(l.message)?.[1]).filter((k): k is string => k !== undefined);

describe('S3-compatible storage (s3rver)', () => {
  let targetId: string;

  it('syncs every release: the locale files first, the manifest last, with their content types', async () => {
    const created = await json<Target & { s3: unknown }>(await service.api('/v1/storage-targets', { method: 'POST', json: s3Target() }), 201);
    targetId = created.id;
    expect(created.credentials.hint).toBe(`access key …${s3.accessKeyId.slice(-4)}`);
    expect(JSON.stringify(created)).not.toContain(s3.secretAccessKey === s3.accessKeyId ? '\u0000' : s3.secretAccessKey);

    const number = await publish();
    const sync = await syncEnded(targetId, number);
    expect(sync).toMatchObject({ status: 'succeeded', uploaded: 5, unchanged: 0 });
    expect(uploads(sync)).toEqual(['i18n/web/en.json', 'i18n/web/de.json', 'i18n/web/fr.json', 'i18n/web/ja.json', 'i18n/web/manifest.json'].sort((a, b) => (a.endsWith('manifest.json') ? 1 : b.endsWith('manifest.json') ? -1 : a < b ? -1 : 1)));
    expect(uploads(sync).at(-1)).toBe('i18n/web/manifest.json');

    const de = JSON.parse(text(await bucket.get('i18n/web/de.json'))!) as Record<string, string>;
    expect(de['sync.title']).toBeDefined();
    const bundle = (await json<{ bundle_id: string }>(await service.api('/v1/releases'))).bundle_id;
    const fromCdn = await (await fetch(`${service.url}/cdn/${bundle}/${number}/de.json`)).text();
    expect(text(await bucket.get('i18n/web/de.json'))).toBe(fromCdn);
    const head = await bucket.head('i18n/web/de.json');
    expect(head?.contentType).toBe('application/json; charset=utf-8');
    const manifest = JSON.parse(text(await bucket.get('i18n/web/manifest.json'))!) as { release: number; locales: Record<string, { url: string }> };
    expect(manifest.release).toBe(number);
    expect(manifest.locales.de!.url).toBe('de.json');
    expect(await target(targetId)).toMatchObject({ status: 'ok', last_error: null, last_release_number: number });
  });

  it('uploads only what changed: one translation changed, one locale file and the manifest written', async () => {
    const res = await service.api('/v1/translations/sync.title/de?path=', { method: 'PUT', json: { text: 'Willkommen' } });
    expect(res.status, await res.text()).toBe(200);
    const before = await bucket.head('i18n/web/fr.json');
    const number = await publish();
    const sync = await syncEnded(targetId, number);
    expect(sync).toMatchObject({ status: 'succeeded', uploaded: 2, unchanged: 3 });
    expect(uploads(sync)).toEqual(['i18n/web/de.json', 'i18n/web/manifest.json']);
    expect((JSON.parse(text(await bucket.get('i18n/web/de.json'))!) as Record<string, string>)['sync.title']).toBe('Willkommen');
    expect((await bucket.head('i18n/web/fr.json'))?.sha256).toBe(before?.sha256);
    // Syncing the same release again on demand writes nothing.
    const again = await json<Sync>(await service.api(`/v1/storage-targets/${targetId}/sync`, { method: 'POST' }), 202);
    expect(['pending', 'running']).toContain(again.status);
    const done = await syncEnded(targetId, number);
    expect(done.id === again.id || done.status === 'succeeded').toBe(true);
    const { items } = await json<{ items: Sync[] }>(await service.api(`/v1/storage-targets/${targetId}/syncs`));
    const onDemand = items.find((s) => s.id === again.id)!;
    expect(onDemand).toMatchObject({ uploaded: 0, unchanged: 5 });
  });

  it('retries while the target is down and completes once it is back', async () => {
    await service.api('/v1/translations/sync.bye/de?path=', { method: 'PUT', json: { text: 'Auf Wiedersehen' } });
    await s3.halt();
    const number = await publish();
    // The first attempts fail: the target is pending, with the reason.
    const deadline = Date.now() + 10_000;
    let seen: Target;
    for (;;) {
      seen = await target(targetId);
      if (seen.last_error) break;
      if (Date.now() > deadline) throw new Error(`no failure recorded: ${JSON.stringify(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(['pending', 'syncing']).toContain(seen.status);
    expect(seen.last_error).toMatch(/reach|answer/i);
    expect(seen.last_error).toContain('retrying at');
    await s3.restart();
    const sync = await syncEnded(targetId, number);
    expect(sync.status).toBe('succeeded');
    expect(sync.attempts).toBeGreaterThan(1);
    expect(sync.log.map((l) => l.message).join('\n')).toMatch(/failed: .*retrying at/);
    expect(await target(targetId)).toMatchObject({ status: 'ok', last_release_number: number, last_error: null });
    expect((JSON.parse(text(await bucket.get('i18n/web/manifest.json'))!) as { release: number }).release).toBe(number);
  });

  it('fails at once with a clear error on bad credentials, and works again after rotating them', async () => {
    const bad = await json<Target>(
      await service.api(`/v1/storage-targets/${targetId}`, { method: 'PATCH', json: { credentials: { access_key_id: 'AKIAWRONGWRONG1234', secret_access_key: 'not-the-secret' } } }),
    );
    expect(bad.credentials.hint).toBe('access key …1234');
    const queued = await json<Sync>(await service.api(`/v1/storage-targets/${targetId}/sync`, { method: 'POST' }), 202);
    const { release } = queued;
    const failed = await syncEnded(targetId, release);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    const status = await target(targetId);
    expect(status.status).toBe('failed');
    expect(status.last_error).toMatch(/refused the credentials/);
    expect(status.last_error).toContain('s3://releases');
    expect(status.last_error).not.toContain('not-the-secret');

    await json<Target>(await service.api(`/v1/storage-targets/${targetId}`, { method: 'PATCH', json: { credentials: { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey } } }));
    await json<Sync>(await service.api(`/v1/storage-targets/${targetId}/sync`, { method: 'POST' }), 202);
    for (let i = 0; i < 100 && (await target(targetId)).status !== 'ok'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await target(targetId)).toMatchObject({ status: 'ok', last_error: null });
  });

  it('refuses layouts that cannot work, and kinds that do not match, naming the field', async () => {
    const noLocale = await service.api('/v1/storage-targets', { method: 'POST', json: s3Target({ path_template: 'strings.json' }) });
    expect(noLocale.status).toBe(422);
    expect(((await noLocale.json()) as { detail: string }).detail).toMatch(/path_template 'strings\.json' has no locale variable/);
    const unknown = await service.api('/v1/storage-targets', { method: 'POST', json: s3Target({ path_template: '{lang}.json' }) });
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/unknown variable \{lang\}/);
    const climbing = await service.api('/v1/storage-targets', { method: 'POST', json: s3Target({ prefix: '../other' }) });
    expect(climbing.status).toBe(422);
    expect(((await climbing.json()) as { detail: string }).detail).toMatch(/prefix/);
    const wrongCreds = await service.api('/v1/storage-targets', { method: 'POST', json: s3Target({ credentials: { connection_string: 'AccountName=x' } }) });
    expect(wrongCreds.status).toBe(422);
    const wrongKind = await service.api(`/v1/storage-targets/${targetId}`, { method: 'PATCH', json: { azure_blob: { container: 'releases' } } });
    expect(wrongKind.status).toBe(422);
    expect((await service.api('/v1/storage-targets/stt_missing')).status).toBe(404);
  });

  it('PATCH changes only the settings given: the rest of `s3` keeps its stored values, null removes the endpoint', async () => {
    type Settings = Target & { s3: { endpoint: string | null; region: string; bucket: string; force_path_style: boolean }; prefix: string; cache_control: string | null };
    const patch = async (body: unknown) => json<Settings>(await service.api(`/v1/storage-targets/${targetId}`, { method: 'PATCH', json: body }));
    const stored = { endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', force_path_style: true };
    expect((await patch({ s3: { region: 'eu-central-1' } })).s3).toEqual({ ...stored, region: 'eu-central-1' });
    expect((await patch({ s3: { endpoint: null } })).s3).toEqual({ ...stored, region: 'eu-central-1', endpoint: null });
    const back = await patch({ s3: { endpoint: s3.endpoint, region: 'us-east-1' }, name: 'S3 again' });
    expect(back).toMatchObject({ name: 'S3 again', s3: stored, prefix: 'i18n/web/', cache_control: 'public, max-age=300' });
    // What a GET reads back is what the sync uses: the target still works.
    expect((await target(targetId) as Settings).s3).toEqual(stored);
    const queued = await json<Sync>(await service.api(`/v1/storage-targets/${targetId}/sync`, { method: 'POST' }), 202);
    expect(await syncEnded(targetId, queued.release)).toMatchObject({ status: 'succeeded' });
    const unknownField = await service.api(`/v1/storage-targets/${targetId}`, { method: 'PATCH', json: { s3: { regoin: 'x' } } });
    expect(unknownField.status).toBe(422);
  });

  it('stores credentials encrypted: the secret is in no column of the target’s row, and the sync can open it', async () => {
    const secret = 'sEcReT-at-rest-7f3a9c1e5b';
    const created = await json<Target>(
      await service.api('/v1/storage-targets', { method: 'POST', json: s3Target({ name: 'At rest', enabled: false, credentials: { access_key_id: 'AKIAATREST00001234', secret_access_key: secret } }) }),
      201,
    );
    const row = await service.runtime.db.selectFrom('storage_targets').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.credentials_ciphertext).toMatch(/^[^.]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    for (const plain of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('hex')]) {
      expect(JSON.stringify(row)).not.toContain(plain);
    }
    // Not the access key id either, beyond the hint's last four characters.
    expect(row.credentials_ciphertext).not.toContain('AKIAATREST');
    expect(row.credentials_hint).toBe('access key …1234');
    expect((await service.api(`/v1/storage-targets/${created.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('never returns credentials, and needs `manage`', async () => {
    const listed = await (await service.api('/v1/storage-targets')).text();
    expect(listed).not.toContain(s3.secretAccessKey === s3.accessKeyId ? '\u0000' : s3.secretAccessKey);
    expect(listed).not.toContain('not-the-secret');
    const reader = await service.mintToken({ abilities: ['read', 'pull', 'push'] });
    expect((await service.api('/v1/storage-targets', { token: reader })).status).toBe(403);
  });
});

/**
 * A proxy in front of s3rver that lets `allowPuts` object writes through and answers every later PUT with 503
 * SlowDown until `allowPuts` is null again: a sync that fails partway, as a target that falls over mid-sync does.
 */
async function startPutRefusingProxy(upstreamPort: number): Promise<{ endpoint: string; allowPuts: number | null; close(): Promise<void> }> {
  const state = { allowPuts: null as number | null };
  const server: Server = createServer((req, res) => {
    if (req.method === 'PUT' && state.allowPuts !== null) {
      if (state.allowPuts <= 0) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Refused by the test proxy</Message></Error>');
        return;
      }
      state.allowPuts--;
    }
    const upstream = request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

describe('a sync that fails partway (S3 through a proxy that refuses writes)', () => {
  it('with {hash} in the template, the old manifest and all its objects stay intact until the retried sync completes', async () => {
    await s3.createBucket('atomic');
    const proxy = await startPutRefusingProxy(s3.port);
    const direct = await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'atomic', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const bundle = (await json<{ bundle_id: string }>(await service.api('/v1/releases'))).bundle_id;
    type Manifest = { release: number; locales: Record<string, { url: string; sha256: string }> };
    const manifest = async () => JSON.parse(text(await direct.get('atomic/manifest.json'))!) as Manifest;
    /** Every locale the manifest lists is in the bucket under its key, with the content the CDN serves for that release. */
    const intact = async (m: Manifest) => {
      for (const [locale, entry] of Object.entries(m.locales)) {
        const body = await direct.get(`atomic/${entry.url}`);
        expect(body, `${locale} at ${entry.url}`).not.toBeNull();
        expect(createHash('sha256').update(body!).digest('hex')).toBe(entry.sha256);
        expect(text(body)).toBe(await (await fetch(`${service.url}/cdn/${bundle}/${m.release}/${locale}.json`)).text());
      }
    };
    try {
      const created = await json<Target>(
        await service.api('/v1/storage-targets', {
          method: 'POST',
          json: s3Target({ name: 'S3 (refusing proxy)', s3: { endpoint: proxy.endpoint, region: 'us-east-1', bucket: 'atomic', force_path_style: true }, prefix: 'atomic', path_template: '{locale}.{hash}.json' }),
        }),
        201,
      );
      const first = await json<Sync>(await service.api(`/v1/storage-targets/${created.id}/sync`, { method: 'POST' }), 202);
      expect(await syncEnded(created.id, first.release)).toMatchObject({ status: 'succeeded' });
      const before = await manifest();
      expect(before.release).toBe(first.release);
      expect(before.locales.de!.url).toBe(`de.${before.locales.de!.sha256.slice(0, 12)}.json`);
      await intact(before);

      // Two locales change; the target takes the first new object and refuses the rest.
      await service.api('/v1/translations/sync.title/de?path=', { method: 'PUT', json: { text: 'Herzlich willkommen' } });
      await service.api('/v1/translations/sync.title/fr?path=', { method: 'PUT', json: { text: 'Soyez les bienvenus' } });
      proxy.allowPuts = 1;
      const number = await publish();
      const deadline = Date.now() + 10_000;
      while (!(await target(created.id)).last_error?.includes('retrying at')) {
        if (Date.now() > deadline) throw new Error(`no failed attempt recorded: ${JSON.stringify(await target(created.id))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await target(created.id)).last_error).toMatch(/throttling.*SlowDown/);
      // Half of the new release is in the bucket (de's new object), but the manifest still names the old release's
      // objects, and every one of them is as it was.
      const during = await manifest();
      expect(during).toEqual(before);
      await intact(during);
      const listed = await (await fetch(`${service.url}/cdn/${bundle}/${number}/manifest.json`)).json() as Manifest;
      expect(await direct.head(`atomic/de.${listed.locales.de!.sha256.slice(0, 12)}.json`)).not.toBeNull();
      expect(await direct.head(`atomic/fr.${listed.locales.fr!.sha256.slice(0, 12)}.json`)).toBeNull();

      // The target takes writes again: the retry completes and the manifest switches to the new release.
      proxy.allowPuts = null;
      const sync = await syncEnded(created.id, number);
      expect(sync.status).toBe('succeeded');
      expect(sync.attempts).toBeGreaterThan(1);
      const after = await manifest();
      expect(after.release).toBe(number);
      await intact(after);
      expect(after.locales.de!.url).not.toBe(before.locales.de!.url);
      expect(after.locales.ja!.url).toBe(before.locales.ja!.url);
      // The old release's objects are still there for clients holding the old manifest.
      await intact(before);
      expect(await target(created.id)).toMatchObject({ status: 'ok', last_release_number: number });
    } finally {
      direct.close();
      await proxy.close();
    }
  });
});

describe('Azure Blob Storage (Azurite)', () => {
  let withKey: Target;

  it('syncs with a connection string and with a container SAS URL', async () => {
    withKey = await json<Target>(
      await service.api('/v1/storage-targets', {
        method: 'POST',
        json: { kind: 'azure_blob', name: 'Azure (key)', azure_blob: { container: 'releases' }, credentials: { connection_string: azurite.connectionString }, prefix: 'web', path_template: '{locale_underscore}/strings.json' },
      }),
      201,
    );
    expect(withKey.credentials.hint).toBe("connection string of account 'devstoreaccount1'");
    const sasUrl = await azurite.containerSasUrl('sas-releases');
    const withSas = await json<Target>(
      await service.api('/v1/storage-targets', { method: 'POST', json: { kind: 'azure_blob', name: 'Azure (SAS)', azure_blob: { container: 'sas-releases' }, credentials: { sas_url: sasUrl } } }),
      201,
    );
    expect(JSON.stringify(withSas)).not.toContain(new URL(sasUrl).searchParams.get('sig')!);

    await service.api('/v1/translations/sync.title/fr?path=', { method: 'PUT', json: { text: 'Bienvenue' } });
    const number = await publish();
    const [a, b] = await Promise.all([syncEnded(withKey.id, number), syncEnded(withSas.id, number)]);
    expect(a).toMatchObject({ status: 'succeeded', uploaded: 5 });
    expect(b).toMatchObject({ status: 'succeeded', uploaded: 5 });
    expect(uploads(a)).toContain('web/pt_BR/strings.json'.replace('pt_BR', 'fr'));

    const container = await createAzureBlobClient({ container: 'releases' }, { connectionString: azurite.connectionString });
    const fr = JSON.parse(text(await container.get('web/fr/strings.json'))!) as Record<string, string>;
    expect(fr['sync.title']).toBe('Bienvenue');
    expect((await container.head('web/fr/strings.json'))?.contentType).toBe('application/json; charset=utf-8');
    const manifest = JSON.parse(text(await container.get('web/manifest.json'))!) as { release: number; locales: Record<string, { url: string }> };
    expect(manifest).toMatchObject({ release: number });
    expect(manifest.locales.fr!.url).toBe('fr/strings.json');
    const sasContainer = await createAzureBlobClient({ container: 'sas-releases' }, { sasUrl });
    expect(text(await sasContainer.get('fr.json'))).toBe(text(await container.get('web/fr/strings.json')));
    container.close();
    sasContainer.close();
  });

  it('uploads only the changed locale’s blob; retries while Azurite is down and completes once it is back; rotates credentials', async () => {
    const container = await createAzureBlobClient({ container: 'releases' }, { connectionString: azurite.connectionString });
    try {
      const before = await container.head('web/de/strings.json');
      await service.api('/v1/translations/sync.bye/ja?path=', { method: 'PUT', json: { text: 'さようなら' } });
      let number = await publish();
      let sync = await syncEnded(withKey.id, number);
      expect(sync).toMatchObject({ status: 'succeeded', uploaded: 2, unchanged: 3 });
      expect(uploads(sync)).toEqual(['web/ja/strings.json', 'web/manifest.json']);
      expect((JSON.parse(text(await container.get('web/ja/strings.json'))!) as Record<string, string>)['sync.bye']).toBe('さようなら');
      expect((await container.head('web/de/strings.json'))?.sha256).toBe(before?.sha256);

      // Down: the sync is retried with the reason shown, and completes once Azurite is back.
      await service.api('/v1/translations/sync.bye/fr?path=', { method: 'PUT', json: { text: 'Au revoir' } });
      await azurite.halt();
      number = await publish();
      const deadline = Date.now() + 10_000;
      let seen = await target(withKey.id);
      while (!seen.last_error?.includes('retrying at')) {
        if (Date.now() > deadline) throw new Error(`no failed attempt recorded: ${JSON.stringify(seen)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await target(withKey.id);
      }
      expect(['pending', 'syncing']).toContain(seen.status);
      await azurite.restart();
      sync = await syncEnded(withKey.id, number);
      expect(sync.status).toBe('succeeded');
      expect(sync.attempts).toBeGreaterThan(1);
      expect(uploads(sync)).toEqual(['web/fr/strings.json', 'web/manifest.json']);
      expect(await target(withKey.id)).toMatchObject({ status: 'ok', last_release_number: number, last_error: null });
      expect((JSON.parse(text(await container.get('web/manifest.json'))!) as { release: number }).release).toBe(number);

      // Rotation: a SAS for the same container replaces the connection string; the next sync uses it.
      const sasUrl = await azurite.containerSasUrl('releases');
      const rotated = await json<Target>(await service.api(`/v1/storage-targets/${withKey.id}`, { method: 'PATCH', json: { credentials: { sas_url: sasUrl } } }));
      expect(rotated.credentials.hint).toMatch(/^SAS for 127\.0\.0\.1:\d+, expires /);
      await service.api('/v1/translations/sync.title/ja?path=', { method: 'PUT', json: { text: 'ようこそ' } });
      number = await publish();
      sync = await syncEnded(withKey.id, number);
      expect(sync).toMatchObject({ status: 'succeeded', uploaded: 2 });
      expect((JSON.parse(text(await container.get('web/ja/strings.json'))!) as Record<string, string>)['sync.title']).toBe('ようこそ');
    } finally {
      container.close();
    }
  });

  it('PATCH changes only the settings given: the container stays when the account URL changes', async () => {
    const created = await json<Target & { azure_blob: unknown }>(
      await service.api('/v1/storage-targets', { method: 'POST', json: { kind: 'azure_blob', name: 'Azure (patch)', enabled: false, azure_blob: { container: 'releases' }, credentials: { connection_string: azurite.connectionString } } }),
      201,
    );
    const patch = async (body: unknown) => json<Target & { azure_blob: unknown }>(await service.api(`/v1/storage-targets/${created.id}`, { method: 'PATCH', json: body }));
    expect((await patch({ azure_blob: { account_url: azurite.accountUrl } })).azure_blob).toEqual({ container: 'releases', account_url: azurite.accountUrl });
    expect((await patch({ azure_blob: { container: 'sas-releases' } })).azure_blob).toEqual({ container: 'sas-releases', account_url: azurite.accountUrl });
    expect((await patch({ azure_blob: { account_url: null } })).azure_blob).toEqual({ container: 'sas-releases', account_url: null });
    expect((await service.api(`/v1/storage-targets/${created.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('reports a wrong account key as refused credentials', async () => {
    const wrong = azurite.connectionString.replace(/AccountKey=[^;]+/, `AccountKey=${Buffer.from('x'.repeat(64)).toString('base64')}`);
    const created = await json<Target>(
      await service.api('/v1/storage-targets', { method: 'POST', json: { kind: 'azure_blob', name: 'Azure (wrong key)', azure_blob: { container: 'releases' }, credentials: { connection_string: wrong } } }),
      201,
    );
    const queued = await json<Sync>(await service.api(`/v1/storage-targets/${created.id}/sync`, { method: 'POST' }), 202);
    const sync = await syncEnded(created.id, queued.release);
    expect(sync).toMatchObject({ status: 'failed', attempts: 1 });
    const status = await target(created.id);
    expect(status.status).toBe('failed');
    expect(status.last_error).toMatch(/refused the credentials|AuthorizationFailure|AuthenticationFailed/);
    expect((await service.api(`/v1/storage-targets/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await service.api(`/v1/storage-targets/${created.id}`)).status).toBe(404);
  });
});

describe('on the free plan', () => {
  it('a free organisation, which cannot mint API tokens, adds a target, publishes and syncs with its console credential', async () => {
    // The console's way in: a person signs up and gets a credential for a project (the first sign-up joins the seeded
    // organisation, so a second person gets a free one of their own).
    const signUp = async (email: string) => {
      const res = await fetch(`${service.url}/v1/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json', origin: service.url }, body: JSON.stringify({ email, password: 'correct horse battery' }) });
      const session = await json<{ organisations: { id: string; plan: string; can_mint_tokens: boolean }[] }>(res, 201);
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      return { session, cookie };
    };
    await signUp('first@example.com');
    const { session, cookie } = await signUp('free@example.com');
    const org = session.organisations[0]!;
    expect(org).toMatchObject({ plan: 'free', can_mint_tokens: false });
    const asPerson = (path: string, body: unknown, status: number) =>
      fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: service.url, cookie }, body: JSON.stringify(body) }).then((res) => json<{ id: string; token: string }>(res, status));
    const project = await asPerson('/v1/auth/projects', { organisation_id: org.id, name: 'Free site', source_locale: 'en', target_locales: ['de'] }, 201);
    const { token } = await asPerson('/v1/auth/credentials', { project_id: project.id }, 201);
    const refused = await service.api('/v1/tokens', { method: 'POST', token, json: { name: 'ci' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('plan_forbids_tokens');

    const pushed = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', token, json: { keys: [{ key: 'free.title', source: 'Hello' }] } }), 202);
    expect((await waitForBatch(service, pushed.id, token)).status).toBe('completed');
    await s3.createBucket('free');
    const created = await json<Target>(
      await service.api('/v1/storage-targets', { method: 'POST', token, json: s3Target({ name: 'Free bucket', s3: { endpoint: s3.endpoint, region: 'us-east-1', bucket: 'free', force_path_style: true }, prefix: '' }) }),
      201,
    );
    const published = await json<{ release: { number: number } }>(await service.api('/v1/releases', { method: 'POST', token }), 201);
    const deadline = Date.now() + 20_000;
    let sync: Sync | undefined;
    while (!sync || !['succeeded', 'failed'].includes(sync.status)) {
      if (Date.now() > deadline) throw new Error(`sync did not end: ${JSON.stringify(sync)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      sync = (await json<{ items: Sync[] }>(await service.api(`/v1/storage-targets/${created.id}/syncs`, { token }))).items.find((s) => s.release === published.release.number);
    }
    expect(sync).toMatchObject({ status: 'succeeded', uploaded: 3 });
    const free = await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'free', forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    expect(Object.keys(JSON.parse(text(await free.get('de.json'))!) as object)).toEqual(['free.title']);
    free.close();
  });
});

describe('without PARLANCE_SECRET_KEY', () => {
  it('answers 503, naming the setting', async () => {
    const bare = await startService();
    try {
      const res = await bare.api('/v1/storage-targets', { method: 'POST', json: s3Target() });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toContain('PARLANCE_SECRET_KEY');
    } finally {
      await bare.stop();
    }
  });
});
