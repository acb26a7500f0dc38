/** Push (both request forms), delta, removal, idempotency, allowance, languages and pull, over HTTP. */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

const SOURCE = '{\r\n    "title": "Welcome, {name}!",\r\n    "cart.count": "You have %d items",\r\n    "count": 3,\r\n    "html": "<b>Bold</b> move"\r\n}';

async function pushFile(content: string, fields: Record<string, string>, token?: string, headers: Record<string, string> = {}) {
  return service.api('/v1/push', { method: 'POST', body: filePush(content, fields), headers, ...(token ? { token } : {}) });
}

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return (await res.json()) as Record<string, unknown> & { code: string; detail: string };
}

async function project(token?: string) {
  return (await (await service.api('/v1/project', token ? { token } : {})).json()) as { allowance: { words_remaining: number }; target_locales: string[] };
}

describe('multipart push and pull', () => {
  let first: BatchBody;

  it('queues every row on the first push and charges words per row and locale', async () => {
    const before = (await project()).allowance.words_remaining;
    const res = await pushFile(SOURCE, { format: 'json', path: 'web/locales/en.json' });
    expect(res.status).toBe(202);
    first = (await res.json()) as BatchBody;
    expect(first.keys).toEqual({ added: 3, changed: 0, unchanged: 0, removed: 0 });
    expect(first.rows.total).toBe(9);
    // "Welcome, {name}!" = 1 word (placeholder excluded), "You have %d items" = 3, "<b>Bold</b> move" = 2 → 6 per locale.
    expect(first.words.reserved).toBe(18);
    expect((await project()).allowance.words_remaining).toBe(before - 18);
    const done = await waitForBatch(service, first.id);
    expect(done.status).toBe('completed');
    expect(done.words.spent).toBe(18);
    expect(done.row_outcomes.items).toHaveLength(9);
    expect(done.row_outcomes.items.every((r) => r.outcome === 'translated')).toBe(true);
    expect((await project()).allowance.words_remaining).toBe(before - 18);
  });

  it('pulls the source locale byte for byte', async () => {
    const res = await service.api('/v1/pull?locale=en&path=web/locales/en.json');
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).toString('utf8')).toBe(SOURCE);
    expect(res.headers.get('x-parlance-path')).toBe('web/locales/en.json');
  });

  it('pulls a target locale in the same shape with placeholders and markup intact', async () => {
    const res = await service.api('/v1/pull?locale=de');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-parlance-path')).toBe('web/locales/de.json');
    const text = await res.text();
    expect(text.startsWith('{\r\n    "title": "')).toBe(true);
    expect(text).toContain('\r\n    "count": 3,\r\n');
    const parsed = JSON.parse(text) as Record<string, string>;
    expect(Object.keys(parsed)).toEqual(['title', 'cart.count', 'count', 'html']);
    expect(parsed.title).toContain('{name}');
    expect(parsed.title).not.toBe('Welcome, {name}!');
    expect(parsed['cart.count']).toContain('%d');
    expect(parsed.html).toMatch(/<b>.*<\/b>/);
  });

  it('pulls every target locale as a zip when no locale is given', async () => {
    const res = await service.api('/v1/pull');
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['web/locales/de.json', 'web/locales/fr.json', 'web/locales/ja.json']);
    expect(JSON.parse(Buffer.from(files['web/locales/ja.json']!).toString('utf8'))).toHaveProperty('title');
  });

  it('renders another format on request (json_nested from a flat push)', async () => {
    const res = await service.api('/v1/pull?locale=de&format=json_nested');
    const nested = (await res.json()) as { cart: { count: string }; title: string };
    expect(nested.cart.count).toContain('%d');
    expect(res.headers.get('x-parlance-format')).toBe('json_nested');
  });

  it('lists pushed files with the SHA-256 of their bytes, and reports the source line of each batch row', async () => {
    const { createHash } = await import('node:crypto');
    const files = (await (await service.api('/v1/files')).json()) as { items: { path: string; format: string; sha256: string; keys: number }[] };
    expect(files.items.find((f) => f.path === 'web/locales/en.json')).toEqual(
      expect.objectContaining({ format: 'json', keys: 3, sha256: createHash('sha256').update(SOURCE).digest('hex') }),
    );
    const batch = (await (await service.api(`/v1/batches/${first.id}?limit=500`)).json()) as { row_outcomes: { items: { key: string; line: number | null }[] } };
    expect(batch.row_outcomes.items.find((r) => r.key === 'cart.count')?.line).toBe(3);
  });

  it('re-pushing the same file queues nothing and charges nothing', async () => {
    const before = (await project()).allowance.words_remaining;
    const res = await pushFile(SOURCE, { format: 'json', path: 'web/locales/en.json' });
    expect(res.status).toBe(202);
    const batch = (await res.json()) as BatchBody;
    expect(batch.status).toBe('completed');
    expect(batch.keys).toEqual({ added: 0, changed: 0, unchanged: 3, removed: 0 });
    expect(batch.rows.total).toBe(0);
    expect(batch.words.reserved).toBe(0);
    expect((await project()).allowance.words_remaining).toBe(before);
  });

  it('queues only changed and added keys; a missing key is marked removed and its translations kept', async () => {
    const changed = '{\r\n    "title": "Welcome back, {name}!",\r\n    "count": 3,\r\n    "html": "<b>Bold</b> move",\r\n    "new": "Fresh"\r\n}';
    const res = await pushFile(changed, { format: 'json', path: 'web/locales/en.json' });
    const batch = (await res.json()) as BatchBody;
    expect(batch.keys).toEqual({ added: 1, changed: 1, unchanged: 1, removed: 1 });
    expect(batch.rows.total).toBe(6);
    const done = await waitForBatch(service, batch.id);
    expect(new Set(done.row_outcomes.items.map((r) => r.key))).toEqual(new Set(['title', 'new']));
    const de = JSON.parse(await (await service.api('/v1/pull?locale=de')).text()) as Record<string, string>;
    expect(Object.keys(de)).toEqual(['title', 'count', 'html', 'new']);
    // Pushing the removed key back costs nothing: its translation was kept.
    const back = (await (await pushFile(SOURCE, { format: 'json', path: 'web/locales/en.json' })).json()) as BatchBody;
    expect(back.keys).toMatchObject({ unchanged: 2, changed: 1, removed: 1 });
    expect(back.rows.total).toBe(3);
    expect((await waitForBatch(service, back.id)).row_outcomes.items.every((r) => r.key === 'title')).toBe(true);
  });

  it('returns the first response to a retried push with the same Idempotency-Key', async () => {
    const file = '{"a": "Apple pie", "b": "Banana"}';
    const headers = { 'idempotency-key': 'push-123' };
    const one = await pushFile(file, { format: 'json', path: 'idem/en.json' }, undefined, headers);
    const two = await pushFile(file, { format: 'json', path: 'idem/en.json' }, undefined, headers);
    expect(one.status).toBe(202);
    expect(two.status).toBe(202);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    const a = (await one.json()) as BatchBody;
    const b = (await two.json()) as BatchBody;
    expect(b.id).toBe(a.id);
    expect(b.words.reserved).toBe(a.words.reserved);
    const list = (await (await service.api('/v1/batches?limit=100')).json()) as { items: BatchBody[] };
    expect(list.items.filter((x) => x.id === a.id)).toHaveLength(1);
    const reused = await pushFile('{"a": "Different"}', { format: 'json', path: 'idem/en.json' }, undefined, headers);
    expect(reused.status).toBe(422);
    expect((await problem(reused)).code).toBe('idempotency_key_reused');
  });

  it('detects the format from the file name and content when it is not given', async () => {
    const res = await pushFile('{"nav": {"home": "Home"}}', { path: 'detect/en.json' });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { format: string }).format).toBe('json_nested');
  });

  it('targets only the requested locales', async () => {
    const res = await pushFile('{"only": "Only German"}', { format: 'json', path: 'subset/en.json', locales: 'de' });
    const batch = (await res.json()) as BatchBody;
    expect(batch.rows.total).toBe(1);
  });

  it('422 path_required when several files were pushed and no path is given; 404 path_not_found', async () => {
    const res = await service.api('/v1/pull?locale=de');
    expect(res.status).toBe(422);
    const body = await problem(res);
    expect(body.code).toBe('path_required');
    expect(body.paths).toEqual(expect.arrayContaining(['web/locales/en.json', 'idem/en.json']));
    const missing = await service.api('/v1/pull?locale=de&path=nope.json');
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe('path_not_found');
  });
});

describe('push errors', () => {
  it('422 file_unparsable names the file, line and column and stores nothing', async () => {
    const res = await pushFile('{\n  "a": "A",\n  "b" "B"\n}\n', { format: 'json', path: 'broken/en.json' });
    expect(res.status).toBe(422);
    const body = await problem(res);
    expect(body.code).toBe('file_unparsable');
    expect(body.line).toBe(3);
    expect(body.column).toBeGreaterThan(0);
    expect(body.detail).toContain('broken/en.json:3:');
    expect((await service.api('/v1/pull?locale=de&path=broken/en.json')).status).toBe(404);
  });

  it('422 format_unknown, validation_failed for missing parts, locale_invalid and locale_not_in_project', async () => {
    expect((await problem(await pushFile('{}', { format: 'docx', path: 'a.docx' }))).code).toBe('format_unknown');
    const undetected = await problem(await pushFile('{"a":"b"}', { path: 'notes.txt' }));
    expect(undetected.code).toBe('format_undetected');
    expect(undetected.detail).toContain("'notes.txt'");
    const badLocale = await problem(await pushFile('{"a":"b"}', { format: 'json', path: 'a.json', locales: 'en_us2' }));
    expect(badLocale.code).toBe('locale_invalid');
    expect(badLocale.detail).toContain("'en_us2'");
    const notInProject = await problem(await pushFile('{"a":"b"}', { format: 'json', path: 'a.json', locales: 'pt-BR' }));
    expect(notInProject.code).toBe('locale_not_in_project');
    const noBody = await service.api('/v1/push', { method: 'POST' });
    expect(noBody.status).toBe(422);
  });

  it('422 validation_failed for bad JSON bodies, naming the field', async () => {
    const empty = await service.api('/v1/push', { method: 'POST', json: { keys: [] } });
    expect(empty.status).toBe(422);
    expect((await problem(empty)).detail).toContain('keys');
    const dup = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'a', source: 'A' }, { key: 'a', source: 'B' }] } });
    expect((await problem(dup)).detail).toContain("Duplicate key 'a'");
    const text = await service.api('/v1/push', { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect((await problem(text)).code).toBe('unsupported_media_type');
  });

  it('402 allowance_exhausted queues nothing and charges nothing', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Small', plan: 'starter' });
    await service.runtime.db.updateTable('organisations').set({ words_remaining: 5 }).where('id', '=', org.id).execute();
    const p = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Small', sourceLocale: 'en', targetLocales: ['de', 'fr'] });
    const token = await service.mintToken({ projectId: p.id });
    const res = await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'a', source: 'one two three' }] } });
    expect(res.status).toBe(402);
    const body = await problem(res);
    expect(body.code).toBe('allowance_exhausted');
    expect(body.words_needed).toBe(6);
    expect(body.words_remaining).toBe(5);
    const list = (await (await service.api('/v1/batches', { token })).json()) as { items: unknown[] };
    expect(list.items).toHaveLength(0);
    expect((await project(token)).allowance.words_remaining).toBe(5);
    expect((await service.api('/v1/pull?locale=de', { token })).status).toBe(404);
  });
});

describe('JSON push', () => {
  it('renders keys pushed without a file as a fresh file in push order', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Keys', plan: 'starter' });
    const p = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Keys', sourceLocale: 'en', targetLocales: ['de', 'ja'] });
    const token = await service.mintToken({ projectId: p.id });
    const res = await service.api('/v1/push', {
      token,
      method: 'POST',
      json: {
        keys: [
          { key: 'zeta', source: 'Last letter', notes: 'Greek' },
          { key: 'nav.home', source: 'Home', max_length: 10 },
          { key: 'alpha', source: 'First letter', pass: 'careful' },
        ],
        locales: ['de'],
      },
    });
    expect(res.status).toBe(202);
    const batch = (await res.json()) as BatchBody;
    expect(batch.rows.total).toBe(3);
    const done = await waitForBatch(service, batch.id, token);
    expect(done.status).toBe('completed');
    const flat = await (await service.api('/v1/pull?locale=de', { token })).text();
    expect(Object.keys(JSON.parse(flat) as object)).toEqual(['zeta', 'nav.home', 'alpha']);
    expect(flat.endsWith('\n')).toBe(true);
    expect((JSON.parse(flat) as Record<string, string>).alpha).toMatch(/^⟦.*⟧$/);
    const nested = JSON.parse(await (await service.api('/v1/pull?locale=de&format=json_nested', { token })).text()) as { nav: { home: string } };
    expect(nested.nav.home).toBeTruthy();
    const source = JSON.parse(await (await service.api('/v1/pull?locale=en', { token })).text()) as Record<string, string>;
    expect(source).toEqual({ zeta: 'Last letter', 'nav.home': 'Home', alpha: 'First letter' });
    // ja was not requested: nothing translated yet, so keys are left out unless asked to fall back to the source.
    expect(JSON.parse(await (await service.api('/v1/pull?locale=ja', { token })).text())).toEqual({});
    expect(JSON.parse(await (await service.api('/v1/pull?locale=ja&missing=source', { token })).text())).toEqual(source);
    // A keys push only adds and updates: earlier keys are not removed.
    const more = (await (await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'beta', source: 'Second' }] } })).json()) as BatchBody;
    expect(more.keys).toEqual({ added: 1, changed: 0, unchanged: 0, removed: 0 });
    await waitForBatch(service, more.id, token);
    // Without `locales` the push targets all languages: de and ja for beta.
    expect(more.rows.total).toBe(2);
    const after = JSON.parse(await (await service.api('/v1/pull?locale=en', { token })).text()) as Record<string, string>;
    expect(Object.keys(after)).toEqual(['zeta', 'nav.home', 'alpha', 'beta']);
  });
});

describe('project and languages', () => {
  it('GET /v1/project and /v1/languages', async () => {
    const p = (await (await service.api('/v1/project')).json()) as Record<string, unknown>;
    expect(p).toMatchObject({ source_locale: 'en', target_locales: ['de', 'fr', 'ja'], organisation: { plan: 'starter' } });
    const langs = (await (await service.api('/v1/languages')).json()) as { items: { tag: string; role: string; name: string }[] };
    expect(langs.items.map((l) => l.tag)).toEqual(['en', 'de', 'fr', 'ja']);
    expect(langs.items[0]).toMatchObject({ role: 'source', name: 'English' });
  });

  it('adds a canonicalised language and translates the existing keys into it at once; removes it', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Langs', plan: 'starter' });
    const p = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Langs', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: p.id, abilities: ['push', 'pull', 'read', 'manage'] });
    const first = (await (await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'k', source: 'Hello' }] } })).json()) as BatchBody;
    await waitForBatch(service, first.id, token);

    const added = await service.api('/v1/languages', { token, method: 'POST', json: { tag: 'zh-hant-tw' } });
    expect(added.status).toBe(201);
    const language = (await added.json()) as { batch: BatchBody };
    expect(language).toMatchObject({ tag: 'zh-Hant-TW', role: 'target', known: true });
    expect(language.batch.rows.total).toBe(1);
    const translated = await waitForBatch(service, language.batch.id, token);
    expect(translated.row_outcomes.items.map((r) => [r.key, r.locale, r.outcome])).toEqual([['k', 'zh-Hant-TW', 'translated']]);
    const again = await service.api('/v1/languages', { token, method: 'POST', json: { tag: 'zh-Hant-TW' } });
    expect(again.status).toBe(409);
    const invalid = await service.api('/v1/languages', { token, method: 'POST', json: { tag: 'en_us2' } });
    expect(invalid.status).toBe(422);
    expect((await problem(invalid)).detail).toContain("Invalid locale 'en_us2'");

    // The next push of the same keys has nothing left to translate.
    const next = (await (await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'k', source: 'Hello' }] } })).json()) as BatchBody;
    expect(next.rows.total).toBe(0);

    const removed = await service.api('/v1/languages/zh-Hant-TW', { token, method: 'DELETE' });
    expect(removed.status).toBe(200);
    const gone = await service.api('/v1/languages/zh-Hant-TW', { token, method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect((await problem(gone)).code).toBe('language_not_found');
  });

  it('free plan: 15 locale rows including the source, one project', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Free', plan: 'free' });
    const targets = ['de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'nb', 'pl', 'cs', 'hu'];
    const p = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Free', sourceLocale: 'en', targetLocales: targets });
    await expect(service.runtime.organisations.createProject({ organisationId: org.id, name: 'Second', sourceLocale: 'en', targetLocales: [] })).rejects.toMatchObject({ code: 'plan_project_limit' });
    const token = await service.mintToken({ projectId: p.id, kind: 'session', abilities: ['read', 'manage'], expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await service.api('/v1/languages', { token, method: 'POST', json: { tag: 'ro' } })).status).toBe(201);
    const over = await service.api('/v1/languages', { token, method: 'POST', json: { tag: 'el' } });
    expect(over.status).toBe(403);
    expect((await problem(over)).code).toBe('plan_locale_limit');
    const proj = (await (await service.api('/v1/project', { token })).json()) as { allowance: { words_remaining: number; words_per_month: number } };
    expect(proj.allowance).toMatchObject({ words_remaining: 100_000, words_per_month: 10_000 });
  });
});
