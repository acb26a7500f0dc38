/**
 * Pulls in one request: GET /v1/pull's archive of every pushed file (manifest, ETag, 304), and the `parlance` binary
 * using it through a recording proxy: one request per pull, nothing transferred when nothing changed, `pull --check`
 * for CI and `parlance diff`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const CONFIG = `locales: [de, fr]
files:
  - source: locales/en/*.json
    translation: locales/{locale}/{name}.json
`;
const APP = `{
  "title": "My shop",
  "cart": {
    "empty": "Your cart is empty"
  }
}
`;
const ERRORS = `{
  "not_found": "Page not found",
  "offline": "You are offline"
}
`;

let mock: MockOpenAI;
let service: TestService;
let proxy: Server;
let proxyUrl: string;
/** Every request the CLI made through the proxy: `GET /v1/pull?… 304`. */
const requests: string[] = [];
let repo: string;

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' } });
  // A recording proxy in front of the service: what the CLI asked and what it got, request by request.
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${service.url}${req.url}`, { method: req.method, headers, ...(body && req.method !== 'GET' ? { body } : {}) })
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          requests.push(`${req.method} ${req.url} ${answer.status} ${bytes.byteLength}`);
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'content-length') out[name] = value;
          });
          res.writeHead(answer.status, out);
          res.end(bytes);
        })
        .catch((error: unknown) => {
          res.writeHead(502);
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  repo = mkdtempSync(join(tmpdir(), 'parlance-pull-archive-'));
  mkdirSync(join(repo, 'locales/en'), { recursive: true });
  writeFileSync(join(repo, 'locales/en/app.json'), APP);
  writeFileSync(join(repo, 'locales/en/errors.json'), ERRORS);
  writeFileSync(join(repo, 'parlance.yml'), CONFIG);
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await service?.stop();
  await mock?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: repo, env: { ...process.env, PARLANCE_URL: proxyUrl, PARLANCE_TOKEN: service.token } });
}

const pulls = (from: number) => requests.slice(from).filter((line) => line.startsWith('GET /v1/pull'));
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

interface Manifest {
  source_locale: string;
  locales: string[];
  files: { entry: string; path: string; locale: string; format: string; missing: string[]; refused: { key: string; reason: string }[] }[];
}

describe('parlance pull, one request', () => {
  it('sync writes every target file from one pull request, and remembers the ETag', async () => {
    const before = requests.length;
    const sync = await cli('sync');
    expect(sync.code, sync.stderr).toBe(0);
    expect(pulls(before)).toHaveLength(1);
    expect(pulls(before)[0]).toMatch(/^GET \/v1\/pull\?archive=true&locale=de%2Cfr&missing=omit 200 \d+$/);
    for (const locale of ['de', 'fr']) {
      expect(JSON.parse(read(`locales/${locale}/app.json`))).toEqual({ title: `${locale}: MY SHOP`, cart: { empty: `${locale}: YOUR CART IS EMPTY` } });
      expect(JSON.parse(read(`locales/${locale}/errors.json`))).toMatchObject({ offline: `${locale}: YOU ARE OFFLINE` });
    }
    expect(sync.stdout).toMatch(/^de: 0 keys missing, 0 held for review, 0 flagged$/m);
    const state = JSON.parse(read('.parlance/state.json')) as { pull: { etag: string }; targets: Record<string, { sha256: string; values: Record<string, string> }> };
    expect(state.pull.etag).toMatch(/^"[\w-]+"$/);
    expect(Object.keys(state.targets).sort()).toEqual(['locales/de/app.json', 'locales/de/errors.json', 'locales/fr/app.json', 'locales/fr/errors.json']);
    expect(Object.keys(state.targets['locales/de/app.json']!.values).sort()).toEqual(['cart.empty', 'title']);
  });

  it('an unchanged pull is one conditional request answered 304, and writes nothing', async () => {
    const before = requests.length;
    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(pulls(before)).toEqual([expect.stringMatching(/^GET \/v1\/pull\?archive=true&locale=de%2Cfr&missing=omit 304 0$/)]);
    expect(requests.slice(before).filter((line) => !line.startsWith('GET /v1/pull'))).toEqual([]);
    expect(pull.stdout).toContain('4 files already up to date');
  });

  it('GET /v1/pull without a path answers the archive of every pushed file, with a manifest and a strong ETag', async () => {
    // One locale of several files needs archive=true (without it, 422 path_required as before); no locale needs nothing.
    expect((await service.api('/v1/pull?locale=de')).status).toBe(422);
    const res = await service.api('/v1/pull?locale=de&archive=true');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['de/locales/en/app.json', 'de/locales/en/errors.json', 'manifest.json']);
    const manifest = JSON.parse(Buffer.from(entries['manifest.json']!).toString('utf8')) as Manifest;
    expect(manifest).toMatchObject({ source_locale: 'en', locales: ['de'] });
    expect(manifest.files.map((file) => [file.entry, file.path, file.locale, file.format])).toEqual([
      ['de/locales/en/app.json', 'locales/en/app.json', 'de', 'json_nested'],
      ['de/locales/en/errors.json', 'locales/en/errors.json', 'de', 'json'],
    ]);
    expect(JSON.parse(Buffer.from(entries['de/locales/en/app.json']!).toString('utf8'))).toEqual({ title: 'de: MY SHOP', cart: { empty: 'de: YOUR CART IS EMPTY' } });

    // The same content, the same tag; the tag answers 304 with no body; repeated and comma-separated locales are one list.
    expect((await service.api('/v1/pull?locale=de&archive=true')).headers.get('etag')).toBe(etag);
    const again = await service.api('/v1/pull?locale=de&archive=true', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const both = await service.api('/v1/pull?locale=de&locale=fr');
    const comma = await service.api('/v1/pull?locale=de,fr');
    expect(both.headers.get('etag')).toBe(comma.headers.get('etag'));
    expect(Object.keys(unzipSync(new Uint8Array(await both.arrayBuffer()))).filter((name) => name.startsWith('fr/'))).toHaveLength(2);
    const all = unzipSync(new Uint8Array(await (await service.api('/v1/pull')).arrayBuffer()));
    expect(Object.keys(all).filter((name) => name !== 'manifest.json').map((name) => name.split('/')[0]).sort()).toEqual(['de', 'de', 'fr', 'fr', 'ja', 'ja']);
    const doc = (await (await service.api('/v1/openapi.json', { token: null })).json()) as { paths: Record<string, { get: { description: string; responses: Record<string, unknown> } }> };
    expect(doc.paths['/v1/pull']!.get.responses).toHaveProperty('304');
    expect(doc.paths['/v1/pull']!.get.description).toContain('manifest.json');
    // A locale the project does not have is a 404 naming it, as for one file.
    const unknown = await service.api('/v1/pull?locale=de,pt');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('locale_not_in_project');
  });

  it('a translation changed on the service changes the ETag: the next pull writes just that file', async () => {
    const put = await service.api(`/v1/translations/title/de?path=${encodeURIComponent('locales/en/app.json')}`, { method: 'PUT', json: { text: 'Mein Laden' } });
    expect(put.status, await put.clone().text()).toBe(200);
    const before = requests.length;
    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(pulls(before)).toEqual([expect.stringMatching(/ 200 \d+$/)]);
    expect(pull.stdout).toMatch(/^wrote +locales\/de\/app\.json \(de, \d+ bytes\)$/m);
    expect(pull.stdout).not.toContain('locales/fr/app.json');
    expect(JSON.parse(read('locales/de/app.json'))).toMatchObject({ title: 'Mein Laden' });
  });

  it('pull --check exits 0 when every file is current, and 1 listing the files and keys when not; it writes nothing', async () => {
    const ok = await cli('pull', '--check');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('4 files checked');

    // ja is a language of the project the push did not ask for: nothing translated, no files.
    const before = read('locales/de/app.json');
    writeFileSync(join(repo, 'locales/de/app.json'), `${JSON.stringify({ title: 'Mein Laden' }, null, 2)}\n`);
    const check = await cli('pull', '--check', '--locale', 'de,ja', '--json');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^out of date locales\/de\/app\.json \(de\): added: cart\.empty$/m);
    expect(check.stderr).toMatch(/^untranslated locales\/ja\/app\.json \(ja\): title, cart\.empty$/m);
    expect(check.stderr).toMatch(/^untranslated locales\/ja\/errors\.json \(ja\): not_found, offline$/m);
    const doc = JSON.parse(check.stdout) as { check: boolean; files: { path: string; action: string; missing: string[] }[] };
    expect(doc.check).toBe(true);
    expect(doc.files.find((file) => file.path === 'locales/ja/app.json')).toMatchObject({ action: 'would_write', missing: ['title', 'cart.empty'] });
    expect(() => read('locales/ja/app.json')).toThrow();
    writeFileSync(join(repo, 'locales/de/app.json'), before);
  });

  it('diff prints the key-level diff per locale and writes nothing', async () => {
    const path = join(repo, 'locales/fr/errors.json');
    const original = read('locales/fr/errors.json');
    // A key gone from the file, and a hand edit.
    writeFileSync(path, `${JSON.stringify({ not_found: 'Page introuvable' }, null, 2)}\n`);
    const diff = await cli('diff');
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^fr:\n {2}locales\/fr\/errors\.json: 1 added, 0 changed, 0 removed\n {4}\+ offline "fr: YOU ARE OFFLINE"\n {4}! not_found: hand edit, kept/m);
    expect(diff.stdout).not.toMatch(/^de:/m);
    expect(read('locales/fr/errors.json')).toBe(`${JSON.stringify({ not_found: 'Page introuvable' }, null, 2)}\n`);
    const json = JSON.parse((await cli('diff', '--json')).stdout) as { files: { path: string; added: string[]; edits: string[] }[] };
    expect(json.files).toEqual([expect.objectContaining({ path: 'locales/fr/errors.json', added: ['offline'], edits: ['not_found'] })]);
    writeFileSync(path, original);
  });

  it('--fallback source writes the source text where no translation exists, and a translation that arrives later replaces it', async () => {
    const fallback = await cli('pull', '--locale', 'ja', '--fallback', 'source');
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stdout).toMatch(/^ja: 4 keys missing, 0 held for review, 0 flagged$/m);
    expect(JSON.parse(read('locales/ja/errors.json'))).toEqual({ not_found: 'Page not found', offline: 'You are offline' });
    const res = await service.api('/v1/translate-missing', { method: 'POST', json: { locales: ['ja'] } });
    expect(res.status).toBe(202);
    expect((await waitForBatch(service, ((await res.json()) as BatchBody).id)).status).toBe('completed');
    const pull = await cli('pull', '--locale', 'ja');
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(read('locales/ja/errors.json'))).toEqual({ not_found: 'ja: PAGE NOT FOUND', offline: 'ja: YOU ARE OFFLINE' });
  });
});
