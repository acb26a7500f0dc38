/**
 * Releases and the public CDN route over HTTP: publishing, numbering and no-change publishes, what a bundle holds
 * (held rows never, flagged rows yes, plurals as i18next writes them), caching headers, entity tags and 304,
 * Brotli and gzip, CORS, the manifest, bundle id rotation, 404s that say nothing, files in their own format, and
 * a release after every batch. The provider is the OpenAI wire mock.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../src/core/formats/index.js';
import { parseXlsx } from '../../src/core/formats/xlsx.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;

interface ReleaseBody {
  id: string;
  number: number;
  content_hash: string;
  shape: string;
  includes_files: boolean;
  trigger: string;
  batch_id: string | null;
  locales: { locale: string; keys: number; bytes: number; sha256: string; path: string }[];
  files: { path: string; source_path: string | null; locale: string; format: string; keys: number; sha256: string; url: string }[];
  manifest: { path: string; sha256: string } | null;
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', OPENAI_CAREFUL_MODEL: 'mock-careful', RATE_LIMIT_PER_MINUTE: '100000' },
  });
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});
beforeEach(() => {
  mock.script = undefined;
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

type Key = { key: string; source?: string; plurals?: Record<string, string>; max_length?: number };

async function push(keys: Key[], locales: string[] = ['de', 'fr', 'ja']): Promise<BatchBody> {
  const batch = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys, locales } }), 202);
  return waitForBatch(service, batch.id);
}

async function publish(body?: unknown, token?: string): Promise<{ status: number; created: boolean; release: ReleaseBody }> {
  const res = await service.api('/v1/releases', { method: 'POST', ...(body !== undefined ? { json: body } : {}), ...(token ? { token } : {}) });
  const text = await res.text();
  expect([200, 201], text).toContain(res.status);
  const parsed = JSON.parse(text) as { created: boolean; release: ReleaseBody };
  return { status: res.status, ...parsed };
}

const cdn = (path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, init);

async function bundleId(): Promise<string> {
  return (await json<{ bundle_id: string }>(await service.api('/v1/releases'))).bundle_id;
}

/** Drops the placeholder, as a model can: the gates refuse the row twice and hold it for review. */
const dropPlaceholder = (text: string, locale: string) => mockTranslate(text, locale).replace(/<ph id="0"\/>/, '');

describe('publishing', () => {
  it('publishes the accepted translations: held rows never, flagged rows yes, plurals as i18next keys', async () => {
    mock.script = (r, { locale }) => (r.key === 'rel.delete' && locale === 'de' ? dropPlaceholder(r.text, locale) : undefined);
    const batch = await push([
      { key: 'rel.title', source: 'Welcome' },
      { key: 'rel.delete', source: 'Delete {file}?' },
      { key: 'rel.files', plurals: { one: '{count} file', other: '{count} files' } },
      { key: 'rel.short', source: 'Save changes now', max_length: 6 },
    ]);
    expect(batch.status).toBe('completed');
    expect(batch.rows.outcomes.refused).toBe(1);

    const first = await publish();
    expect(first.status).toBe(201);
    expect(first.created).toBe(true);
    expect(first.release).toMatchObject({ number: 1, shape: 'flat', includes_files: false, trigger: 'api' });
    expect(first.release.locales.map((l) => l.locale)).toEqual(['en', 'de', 'fr', 'ja']);
    const bundle = await bundleId();
    expect(bundle).toMatch(/^bnd_[0-9a-z]{32}$/);

    const de = await json<Record<string, string>>(await cdn(`/cdn/${bundle}/1/de.json`));
    expect(de['rel.title']).toBe('de: WELCOME');
    expect(de).not.toHaveProperty('rel.delete');
    expect(de['rel.files_one']).toBe('de: {count} FILE');
    expect(de['rel.files_other']).toBe('de: {count} FILES');
    // Flagged by the length gate (longer than 6 characters) and written: it appears, as in a pull.
    expect(de['rel.short']).toBe('de: SAVE CHANGES NOW');
    // The French row was not refused: only the German one is held.
    expect((await json<Record<string, string>>(await cdn(`/cdn/${bundle}/1/fr.json`)))['rel.delete']).toBe('fr: DELETE {file}?');
    const en = await json<Record<string, string>>(await cdn(`/cdn/${bundle}/1/en.json`));
    expect(en).toMatchObject({ 'rel.title': 'Welcome', 'rel.files_one': '{count} file', 'rel.files_other': '{count} files' });
    expect(first.release.locales.find((l) => l.locale === 'de')).toMatchObject({ keys: 3, path: `/cdn/${bundle}/1/de.json` });
    expect(first.release.locales.find((l) => l.locale === 'en')!.keys).toBe(4);
  });

  it('publishing again with no change numbers no new release; a changed translation does', async () => {
    const again = await publish();
    expect(again.status).toBe(200);
    expect(again.created).toBe(false);
    expect(again.release.number).toBe(1);

    const res = await service.api('/v1/translations/rel.title/de?path=', { method: 'PUT', json: { text: 'Willkommen' } });
    expect(res.status, await res.text()).toBeLessThan(300);
    const second = await publish();
    expect(second).toMatchObject({ status: 201, created: true });
    expect(second.release.number).toBe(2);
    const before = (await json<{ locales: ReleaseBody['locales'] }>(await service.api('/v1/releases/1'))).locales;
    const changed = second.release.locales.filter((l) => before.find((b) => b.locale === l.locale)!.sha256 !== l.sha256).map((l) => l.locale);
    expect(changed).toEqual(['de']);
    const bundle = await bundleId();
    expect((await json<Record<string, string>>(await cdn(`/cdn/${bundle}/2/de.json`)))['rel.title']).toBe('Willkommen');
    // Release 1 is unchanged, as its address promises.
    expect((await json<Record<string, string>>(await cdn(`/cdn/${bundle}/1/de.json`)))['rel.title']).toBe('de: WELCOME');
    expect((await json<Record<string, string>>(await cdn(`/cdn/${bundle}/latest/de.json`)))['rel.title']).toBe('Willkommen');
  });

  it('lists and shows releases; chosen locales; a locale not in the project is refused', async () => {
    const list = await json<{ items: ReleaseBody[]; next_cursor: string | null }>(await service.api('/v1/releases?limit=1'));
    expect(list.items.map((r) => r.number)).toEqual([2]);
    expect(list.next_cursor).toBe('2');
    const page2 = await json<{ items: ReleaseBody[] }>(await service.api('/v1/releases?limit=1&cursor=2'));
    expect(page2.items.map((r) => r.number)).toEqual([1]);
    const latest = await json<ReleaseBody>(await service.api('/v1/releases/latest'));
    expect(latest.number).toBe(2);
    expect((await json<ReleaseBody>(await service.api(`/v1/releases/${latest.id}`))).number).toBe(2);
    expect((await service.api('/v1/releases/99')).status).toBe(404);

    const some = await publish({ locales: ['de'] });
    expect(some.release.number).toBe(3);
    expect(some.release.locales.map((l) => l.locale)).toEqual(['de']);
    const bad = await service.api('/v1/releases', { method: 'POST', json: { locales: ['de', 'xx-nope'] } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/'xx-nope' is not a language of this project/);
    // Back to every locale for the tests below.
    expect((await publish()).release.number).toBe(4);
  });

  it('needs `manage` to publish and rotate; `read` lists', async () => {
    const reader = await service.mintToken({ abilities: ['read', 'pull'] });
    expect((await service.api('/v1/releases', { token: reader })).status).toBe(200);
    const refused = await service.api('/v1/releases', { method: 'POST', token: reader });
    expect(refused.status).toBe(403);
    expect((await service.api('/v1/releases/rotate-bundle-id', { method: 'POST', token: reader })).status).toBe(403);
  });

  it('refuses to publish a project with nothing pushed', async () => {
    const project = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Empty', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: project.id, abilities: ['manage', 'read'] });
    const res = await service.api('/v1/releases', { method: 'POST', token });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe('nothing_to_release');
  });
});

describe('the CDN route', () => {
  it('caches numbered releases for a year and latest briefly, with strong entity tags, CORS and Vary', async () => {
    const bundle = await bundleId();
    const versioned = await cdn(`/cdn/${bundle}/2/de.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(versioned.headers.get('access-control-allow-origin')).toBe('*');
    expect(versioned.headers.get('access-control-expose-headers')).toContain('ETag');
    expect(versioned.headers.get('vary')).toBe('Accept-Encoding');
    const etag = versioned.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const release = await json<ReleaseBody>(await service.api('/v1/releases/2'));
    expect(etag).toBe(`"${release.locales.find((l) => l.locale === 'de')!.sha256}"`);

    const latest = await cdn(`/cdn/${bundle}/latest/de.json`);
    expect(latest.headers.get('cache-control')).toMatch(/^public, max-age=60, stale-while-revalidate=\d+$/);
    expect(latest.headers.get('x-parlance-release')).toBe('4');

    const head = await cdn(`/cdn/${bundle}/2/de.json`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('answers 304 to a matching If-None-Match, for any coding of the same body', async () => {
    const bundle = await bundleId();
    const first = await cdn(`/cdn/${bundle}/2/de.json`, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.get('etag')!;
    const again = await cdn(`/cdn/${bundle}/2/de.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const gz = await cdn(`/cdn/${bundle}/2/de.json`, { headers: { 'if-none-match': `W/${etag.slice(0, -1)}-gzip"`, 'accept-encoding': 'gzip' } });
    expect(gz.status).toBe(304);
    const other = await cdn(`/cdn/${bundle}/2/de.json`, { headers: { 'if-none-match': '"0000"' } });
    expect(other.status).toBe(200);
  });

  it('negotiates Brotli and gzip, each with its own entity tag, and the same bytes once decoded', async () => {
    const bundle = await bundleId();
    const path = `${service.url}/cdn/${bundle}/2/de.json`;
    // node's fetch decodes bodies itself: read the raw bytes through a plain request.
    const raw = async (encoding: string) => {
      const { request } = await import('node:http');
      return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(path, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    };
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    expect((await raw('br;q=0, gzip;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect((await raw('*;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('answers CORS preflights', async () => {
    const bundle = await bundleId();
    const res = await cdn(`/cdn/${bundle}/latest/de.json`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-none-match');
  });

  it('serves a manifest whose addresses name the files of its own release', async () => {
    const bundle = await bundleId();
    const url = `${service.url}/cdn/${bundle}/latest/manifest.json`;
    const res = await fetch(url);
    expect(res.headers.get('cache-control')).toMatch(/max-age=60/);
    const manifest = (await res.json()) as { release: number; content_hash: string; source_locale: string; locales: Record<string, { url: string; keys: number; sha256: string; bytes: number }> };
    expect(manifest.release).toBe(4);
    expect(manifest.source_locale).toBe('en');
    expect(Object.keys(manifest.locales)).toEqual(['en', 'de', 'fr', 'ja']);
    expect(manifest.locales.de!.url).toBe('../4/de.json');
    const de = await fetch(new URL(manifest.locales.de!.url, url), { headers: { 'accept-encoding': 'identity' } });
    expect(de.status).toBe(200);
    expect(de.headers.get('etag')).toBe(`"${manifest.locales.de!.sha256}"`);
    expect((await de.arrayBuffer()).byteLength).toBe(manifest.locales.de!.bytes);
    const versioned = (await (await cdn(`/cdn/${bundle}/4/manifest.json`)).json()) as { release: number };
    expect(versioned.release).toBe(4);
  });

  it('answers the same 404 for an unknown bundle id, release or file, and for paths that try to escape', async () => {
    const bundle = await bundleId();
    const paths = [
      `/cdn/bnd_${'0'.repeat(32)}/1/de.json`,
      `/cdn/${bundle}/99/de.json`,
      `/cdn/${bundle}/1/xx.json`,
      `/cdn/${bundle}/01/de.json`,
      `/cdn/${bundle}/latest/..%2F..%2Fv1%2Fproject`,
      `/cdn/not-a-bundle/1/de.json`,
      `/cdn/${bundle}/1`,
    ];
    const bodies = new Set<string>();
    for (const path of paths) {
      const res = await cdn(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
  });

  it('rotates the bundle id: the old one stops working at once, the releases stay', async () => {
    const old = await bundleId();
    expect((await cdn(`/cdn/${old}/latest/de.json`)).status).toBe(200);
    const rotated = await json<{ bundle_id: string }>(await service.api('/v1/releases/rotate-bundle-id', { method: 'POST' }));
    expect(rotated.bundle_id).not.toBe(old);
    expect((await cdn(`/cdn/${old}/latest/de.json`)).status).toBe(404);
    expect((await cdn(`/cdn/${old}/2/de.json`)).status).toBe(404);
    expect((await cdn(`/cdn/${rotated.bundle_id}/2/de.json`)).status).toBe(200);
    expect(await bundleId()).toBe(rotated.bundle_id);
    expect((await json<ReleaseBody>(await service.api('/v1/releases/2'))).locales[0]!.path).toContain(rotated.bundle_id);
  });
});

describe('project settings', () => {
  it('nested bundles, files in their own format, and a release after every batch', async () => {
    const settings = await json<{ bundle_shape: string; bundle_files: boolean; release_on_batch: boolean }>(
      await service.api('/v1/project', { method: 'PATCH', json: { bundle_shape: 'nested', bundle_files: true, release_on_batch: true } }),
    );
    expect(settings).toMatchObject({ bundle_shape: 'nested', bundle_files: true, release_on_batch: true });
    expect((await json<{ delivery: unknown }>(await service.api('/v1/project'))).delivery).toEqual({ bundle_shape: 'nested', bundle_files: true, release_on_batch: true });

    const before = (await json<ReleaseBody>(await service.api('/v1/releases/latest'))).number;
    const file = JSON.stringify({ nav: { home: 'Home', about: 'About us' } }, null, 2);
    const pushed = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(file, { path: 'locales/en.json', format: 'json' }) }), 202);
    const batch = await waitForBatch(service, pushed.id);
    expect(batch.status).toBe('completed');
    // The release follows the batch's end.
    let latest: ReleaseBody | undefined;
    for (let i = 0; i < 50; i++) {
      latest = await json<ReleaseBody>(await service.api('/v1/releases/latest'));
      if (latest.number > before) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(latest).toMatchObject({ number: before + 1, trigger: 'batch', batch_id: batch.id, shape: 'nested', includes_files: true });
    const bundle = await bundleId();
    const de = await json<{ nav: Record<string, string>; rel: Record<string, string> }>(await cdn(`/cdn/${bundle}/latest/de.json`));
    expect(de.nav).toEqual({ home: 'de: HOME', about: 'de: ABOUT US' });
    expect(de.rel.title).toBe('Willkommen');
    const deFile = latest!.files.find((f) => f.locale === 'de' && f.source_path === 'locales/en.json');
    expect(deFile).toMatchObject({ path: 'locales/de.json', format: 'json', keys: 2 });
    const served = await cdn(deFile!.url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(JSON.stringify({ nav: { home: 'de: HOME', about: 'de: ABOUT US' } }, null, 2));
    const source = latest!.files.find((f) => f.locale === 'en');
    expect(await (await cdn(source!.url)).text()).toBe(file);

    // A push that only removes a key queues no rows: its batch completes at once, and publishes all the same.
    const smaller = JSON.stringify({ nav: { home: 'Home' } }, null, 2);
    const removal = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(smaller, { path: 'locales/en.json', format: 'json' }) }), 202);
    expect(removal).toMatchObject({ status: 'completed', rows: { total: 0 }, keys: { removed: 1 } });
    let after: ReleaseBody | undefined;
    for (let i = 0; i < 50; i++) {
      after = await json<ReleaseBody>(await service.api('/v1/releases/latest'));
      if (after.number > latest!.number) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after).toMatchObject({ number: latest!.number + 1, trigger: 'batch', batch_id: removal.id });
    expect((await json<{ nav: Record<string, string> }>(await cdn(`/cdn/${bundle}/latest/de.json`))).nav).toEqual({ home: 'de: HOME' });
    // Pushing the same file again completes at once too, and changes nothing: no new release.
    const same = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(smaller, { path: 'locales/en.json', format: 'json' }) }), 202);
    expect(same.status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await json<ReleaseBody>(await service.api('/v1/releases/latest'))).number).toBe(after!.number);

    await service.api('/v1/project', { method: 'PATCH', json: { bundle_shape: 'flat', bundle_files: false, release_on_batch: false } });
  });

  it('files in other formats: Android XML, gettext PO and Excel, each per locale in the shape of its source path, with its Content-Type', async () => {
    await json(await service.api('/v1/project', { method: 'PATCH', json: { bundle_files: true } }));
    const android = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="settings_title">Settings</string>
    <plurals name="songs">
        <item quantity="one">%d song</item>
        <item quantity="other">%d songs</item>
    </plurals>
</resources>
`;
    const po = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: en\\n"

msgid "Save changes"
msgstr ""
`;
    const xlsx = new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/formats/xlsx/openpyxl-inline.xlsx')));
    /** The texts of a file by key: the values (the `other` form of a plural) of a file that holds one locale. */
    const values = (format: 'android_xml') => (body: Uint8Array) => new Map(getCodec(format)!.parse(body).map((e) => [e.key, e.plurals?.other ?? e.source]));
    const sources = [
      { path: 'app/src/main/res/values/strings.xml', format: 'android_xml', body: new TextEncoder().encode(android), de: 'app/src/main/res/values-de/strings.xml', type: 'application/xml; charset=utf-8', read: values('android_xml') },
      {
        path: 'po/en.po',
        format: 'po',
        body: new TextEncoder().encode(po),
        de: 'po/de.po',
        type: 'text/x-gettext-translation; charset=utf-8',
        // A PO file keeps the source in msgid and the translation in msgstr.
        read: (body: Uint8Array) => new Map([...new TextDecoder().decode(body).matchAll(/^msgid "(.+)"\nmsgstr "(.*)"$/gm)].map((m) => [m[1]!, m[2]!])),
      },
      // A workbook holds a column per locale; the German file's `de` column is read.
      { path: 'sheets/en.xlsx', format: 'xlsx', body: xlsx, de: 'sheets/de.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', read: (body: Uint8Array) => new Map(parseXlsx(body, 'de').map((e) => [e.key, e.source])) },
    ] as const;
    for (const source of sources) {
      const pushed = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(source.body, { path: source.path, format: source.format, locales: 'de,fr,ja' }, source.path.split('/').at(-1)) }), 202);
      expect((await waitForBatch(service, pushed.id)).status).toBe('completed');
    }
    const { release } = await publish();
    expect(release.includes_files).toBe(true);
    const bundle = await bundleId();
    for (const source of sources) {
      const codec = getCodec(source.format)!;
      const files = release.files.filter((f) => f.source_path === source.path);
      // One file per locale, the source's own included, each in the source's format.
      expect(files.map((f) => f.locale).sort()).toEqual(['de', 'en', 'fr', 'ja']);
      expect(files.every((f) => f.format === source.format)).toBe(true);
      const de = files.find((f) => f.locale === 'de')!;
      expect(de.path).toBe(source.de);
      expect(de.url).toBe(`/cdn/${bundle}/${release.number}/files/${source.de}`);
      const served = await cdn(de.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(source.type);
      expect(served.headers.get('cache-control')).toContain('immutable');
      const body = new Uint8Array(await served.arrayBuffer());
      // Each key of the source is in the German file, translated (the mock upper-cases the text around placeholders,
      // which stay as they were: `%d`, `{name}`).
      const translated = source.read(body);
      const sourceEntries = codec.parse(source.body).filter((e) => e.translatable !== false);
      expect([...translated.keys()].sort()).toEqual(sourceEntries.map((e) => e.key).sort());
      for (const from of sourceEntries) {
        // Spaces at the edges of a source are kept around the translation.
        const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim().toUpperCase();
        const got = translated.get(from.key)!;
        expect(got.trim().startsWith('de: '), `${source.format} ${from.key}: ${got}`).toBe(true);
        expect(squeeze(got)).toBe(squeeze(mockTranslate(from.plurals ? from.plurals.other! : from.source, 'de')));
      }
      // The source locale's file is the pushed file itself.
      const en = files.find((f) => f.locale === 'en')!;
      expect(Buffer.from(await (await cdn(en.url)).arrayBuffer()).equals(Buffer.from(source.body))).toBe(true);
    }
    await service.api('/v1/project', { method: 'PATCH', json: { bundle_files: false } });
  });
});
